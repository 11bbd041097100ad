// Merit function g(R) of manual eq. 8.1: spurious energy of the velocity-form constraint
// residuals C_a (eqs. 8.3-8.9) relative to the energy of the free relative motion.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "base/types.h"
#include "solvers/block_problem.h"
#include "solvers/friction_cone.h"

namespace solfec::solvers {

// Velocity-form residual C_a(U_a, R_a) of one row:
//  contact: C = F + m(R - F) + W_aa (R - proj_FC(R)) with F = [U_T; Ubar_N + mu ||U_T||]
//           (eqs. 8.4-8.9; the last term measures R outside FC in velocity units; a
//           cohesive contact uses R + cohesion e_N),
//  equality: C = U - target,
//  normal equality: C_N = U_N - target_N, C_T = (W_aa [R_T; 0])_T,
//  spring: C = W_aa [R_T; R_N - f - s (U_N - U0)] (the force error mapped to velocity, so
//  its share <W^-1 C, C> = <W dR, dR> is the energy of the force error, like other rows);
//  with stroke stops C_N = U_N - U_hi (U_lo) where the stop holds U_N at its bound.
// in_cone = true skips the last term for reactions known to lie in FC (diagonal solver
// output). r_scale multiplies the reaction inside the contact natural map:
// C = r_scale R - proj_FC(r_scale R - F) (+ the FC term), the map of the problem in the
// unknown r = r_scale R with W / r_scale (ResidualScale: r = h R, Siconos' impulse); 1 (exact
// in floating point: the merit's residual) leaves C as above. Inline: evaluated once per row
// and sweep by the Gauss-Seidel solver.
inline Vec3 RowResidual(const Law& law, const Mat3& W_aa, const Vec3& U, const Vec3& R,
                        bool in_cone = false, double r_scale = 1.0) {
  switch (law.kind) {
    case LawKind::kEquality:
      return U - law.target;
    case LawKind::kNormalEquality: {
      // Tangential part: the velocity the (ideally zero) tangential reaction causes.
      const Vec3 RT(R.x(), R.y(), 0.0);
      const Vec3 WRT = W_aa * RT;
      return Vec3(WRT.x(), WRT.y(), U.z() - law.target.z());
    }
    case LawKind::kSpring: {
      // d = R_N - f - s (U_N - U0): the stop force; the normal part is U_N minus
      // mid(U_lo, U_N - W_NN d, U_hi), which is W_NN d (as above) inside the stops.
      const double d = R.z() - law.spring_force - law.spring_slope * (U.z() - law.spring_U0);
      Vec3 C = W_aa * Vec3(R.x(), R.y(), d);
      const double y = U.z() - W_aa(2, 2) * d;
      if (y > law.spring_U_hi) C.z() = U.z() - law.spring_U_hi;
      else if (y < law.spring_U_lo) C.z() = U.z() - law.spring_U_lo;
      return C;
    }
    case LawKind::kSignoriniCoulomb:
      break;
  }
  const double mu = law.friction;
  // Cohesive contacts live in the cone shifted by the cohesion (R_N >= -cohesion).
  Vec3 Rs = R;
  if (law.cohesive) Rs.z() += law.cohesion;
  // Ubar_N = U_N + eta min(0, U_N^t) (eq. 7.1); F of eq. 8.4.
  Vec3 Ubar = U;
  Ubar.z() += law.restitution * std::min(0.0, law.UN_prev);
  const Vec3 F = DeSaxceVelocity(Ubar, mu);
  // C = F + m(R - F), m(S) = S - proj_FC(S) (eqs. 8.7, 8.9).
  const Vec3 S = r_scale * Rs - F;
  Vec3 C = F + (S - ProjectOnCone(S, mu));
  // R in FC is part of eq. 8.9: add its distance from FC mapped to velocity by W_aa.
  if (in_cone) return C;
  const Vec3 outside = Rs - ProjectOnCone(Rs, mu);
  if (!outside.isZero(0.0)) C.noalias() += W_aa * outside;
  return C;
}

// <W_aa^-1 C_a, C_a>: the unnormalised share of row a in g(R).
inline double RowMeritNumerator(const Law& law, const Mat3& W_aa, const Mat3& W_aa_inv,
                                const Vec3& U, const Vec3& R, bool in_cone = false) {
  const Vec3 C = RowResidual(law, W_aa, U, R, in_cone);
  return C.dot(W_aa_inv * C);
}

// sum_a <W_aa^-1 B_a, B_a> (denominator of eq. 8.1), or 1 when it is ~0 (B ~ 0).
double MeritDenominator(const std::vector<Vec3>& B, const std::vector<Mat3>& W_inv);
// Its two halves, for sums over several processes (solfec-mpi): the raw sum, and the
// denominator of a (global) sum.
double MeritDenominatorSum(const std::vector<Vec3>& B, const std::vector<Mat3>& W_inv);
double MeritDenominatorOfSum(double sum);

// g(R) for the current problem.R: fills problem.U = B + W R and problem.merit (per-row
// shares, summing to g). W_inv and denominator come from InvertDiagonalBlocks and
// MeritDenominator.
double ComputeMerit(BlockProblem& problem, const std::vector<Mat3>& W_inv, double denominator);

// g(R) from the current problem.U (= B + W R, set by the caller); fills problem.merit.
double MeritFromU(BlockProblem& problem, const std::vector<Mat3>& W_inv, double denominator);

// Convenience form that inverts the diagonal blocks itself.
double ComputeMerit(BlockProblem& problem);

// The reaction scale of the relative residual: h = problem.step for a time step's problem
// (the unknown is then the impulse r = h R and the matrix W / h, Siconos' Moreau-Jean
// convention), 1 for a problem without a step (FCLIB_SOLVE, hand-made problems).
inline double ResidualScale(const BlockProblem& problem) {
  return problem.step > 0.0 ? problem.step : 1.0;
}

// Relative natural-map residual sqrt(sum_a |C_a|^2) / max(s |R|, |U|, |B|) of problem.R with
// the current problem.U, s = ResidualScale(problem) (C_a = RowResidual with in_cone and
// r_scale s, i.e. for a contact s R_a - proj_FC(s R_a - U_a - mu |U_T| e_N)): for
// contact-only problems the value of Siconos 4.4's fc3d_compute_error on r = s R, M = W / s,
// q = B; the `residual` stopping test of the Gauss-Seidel and Newton solvers. 0 when R, U
// and B all vanish.
double RelativeResidual(const BlockProblem& problem);
// Its sums (|C|^2, s^2 |R|^2, |U|^2, |B|^2) over this process's rows, and the value of sums
// added over processes (solfec-mpi).
std::array<double, 4> RelativeResidualSums(const BlockProblem& problem);
double RelativeResidualOfSums(const std::array<double, 4>& sums);

}  // namespace solfec::solvers
