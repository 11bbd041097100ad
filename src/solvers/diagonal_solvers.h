// Diagonal block problems of the Gauss-Seidel solver (manual 9.1, line 4 of Alg. 9.1):
// find R_a with C_a(b + W_aa R_a, R_a) = 0 for one 3x3 block, by closed forms for
// separation, sticking and equalities, and by an iterative kernel for sliding contacts.
#pragma once

#include "base/types.h"
#include "solvers/block_problem.h"

namespace solfec::solvers {

// Iterative kernel for sliding contacts (GAUSS_SEIDEL_SOLVER argument 'diagsolver').
enum class DiagSolver {
  kSemismoothNewton,   // 'SEMISMOOTH_NEWTON': Newton on eq. 7.3 with a line search
  kProjectedGradient,  // 'PROJECTED_GRADIENT': R <- proj_FC(R - rho (U + De Saxce shift)),
                       //   rho = 1/||W||_F (a safe gradient step)
  kDeSaxceFeng,        // 'DE_SAXCE_FENG': the same map with rho = 3/trace(W) (faster)
};

enum class DiagStatus {
  kOk,
  kDiverged,  // iteration limit reached ('DIAGONAL_DIVERGED')
  kFailed,    // singular or non-finite data ('DIAGONAL_FAILED')
};

struct DiagOptions {
  DiagSolver kind = DiagSolver::kSemismoothNewton;
  double epsilon = 1e-6;  // relative change |dR| / |R| sufficient for termination
  int maxiter = 100;      // iteration limit of the sliding kernel
};

struct DiagResult {
  DiagStatus status = DiagStatus::kOk;
  int iters = 0;  // 0 for the closed forms
};

// Frictional contact block: R in FC_mu with U = b + W R satisfying eq. 8.3, where b_N
// already holds the restitution term (U_N is Ubar_N). R: in warm start, out solution.
DiagResult SolveContactBlock(const Mat3& W, const Mat3& W_inv, const Vec3& b, double mu,
                             const DiagOptions& options, Vec3& R);

// The diagonal problem of one row for its law, with rhs = B_a + sum_{b != a} W_ab R_b.
// A cohesive contact whose tensile bound -cohesion is exceeded gets law.cohesive = false
// and is solved as a plain Signorini-Coulomb contact.
DiagResult SolveDiagonalBlock(Law& law, const Mat3& W, const Mat3& W_inv, const Vec3& rhs,
                              const DiagOptions& options, Vec3& R);

}  // namespace solfec::solvers
