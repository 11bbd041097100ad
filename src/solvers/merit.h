// Merit function g(R) of manual eq. 8.1: spurious energy of the velocity-form constraint
// residuals C_a (eqs. 8.3-8.9) relative to the energy of the free relative motion.
#pragma once

#include <vector>

#include "base/types.h"
#include "solvers/block_problem.h"

namespace solfec::solvers {

// Velocity-form residual C_a(U_a, R_a) of one row:
//  contact: C = F + m(R - F) + W_aa (R - proj_FC(R)) with F = [U_T; Ubar_N + mu ||U_T||]
//           (eqs. 8.4-8.9; the last term measures R outside FC in velocity units; a
//           cohesive contact uses R + cohesion e_N),
//  equality: C = U - target,
//  normal equality: C_N = U_N - target_N, C_T = (W_aa [R_T; 0])_T.
Vec3 RowResidual(const Law& law, const Mat3& W_aa, const Vec3& U, const Vec3& R);

// <W_aa^-1 C_a, C_a>: the unnormalised share of row a in g(R).
inline double RowMeritNumerator(const Law& law, const Mat3& W_aa, const Mat3& W_aa_inv,
                                const Vec3& U, const Vec3& R) {
  const Vec3 C = RowResidual(law, W_aa, U, R);
  return C.dot(W_aa_inv * C);
}

// sum_a <W_aa^-1 B_a, B_a> (denominator of eq. 8.1), or 1 when it is ~0 (B ~ 0).
double MeritDenominator(const std::vector<Vec3>& B, const std::vector<Mat3>& W_inv);

// g(R) for the current problem.R: fills problem.U = B + W R and problem.merit (per-row
// shares, summing to g). W_inv and denominator come from InvertDiagonalBlocks and
// MeritDenominator.
double ComputeMerit(BlockProblem& problem, const std::vector<Mat3>& W_inv, double denominator);

// Convenience form that inverts the diagonal blocks itself.
double ComputeMerit(BlockProblem& problem);

}  // namespace solfec::solvers
