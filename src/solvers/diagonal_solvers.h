// Diagonal block problems of the Gauss-Seidel solver (manual 9.1, line 4 of Alg. 9.1):
// find R_a with C_a(b + W_aa R_a, R_a) = 0 for one 3x3 block, by closed forms for
// separation, sticking and equalities, and by an iterative kernel for sliding contacts.
#pragma once

#include "base/types.h"
#include "solvers/block_problem.h"

namespace solfec::solvers {

// Iterative kernel for sliding contacts (GAUSS_SEIDEL_SOLVER argument 'diagsolver').
enum class DiagSolver {
  kSemismoothNewton,   // 'SEMISMOOTH_NEWTON': Newton on the smooth sliding branch, then
                       //   semismooth Newton on eq. 7.3 with a line search, then fallbacks
  kProjectedGradient,  // 'PROJECTED_GRADIENT': R <- proj_FC(R - rho (U + De Saxce shift)),
                       //   rho = 1/||W||_F (a safe gradient step)
  kDeSaxceFeng,        // 'DE_SAXCE_FENG': the same map with rho = 3/trace(W) (faster)
  kProjectedNewton,    // 'PROJECTED_NEWTON' (Solfec-1.0): the semismooth Newton steps of
                       //   eq. 7.3 with every trial point projected on FC, then the
                       //   projection iteration if that fails
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
// and is solved as a plain Signorini-Coulomb contact. Spring rows (kSpring) are solved
// exactly: R_T = 0, R_N = (f + s (rhs_N - U0)) / (1 - s W_NN); kFailed (R = 0) when
// 1 - s W_NN is not positive.
DiagResult SolveDiagonalBlock(Law& law, const Mat3& W, const Mat3& W_inv, const Vec3& rhs,
                              const DiagOptions& options, Vec3& R);

// The sliding kernels behind SolveContactBlock (exposed for tests). All expect a sliding
// block (b_N < 0, sticking outside FC, mu > 0), take R in as the start and return kFailed
// when they cannot produce a solution, leaving R unspecified.
namespace detail {

// R <- proj_FC(R - rho [U_T; U_N + mu ||U_T||]) until the change is below epsilon (the
// fixed point of eq. 8.6; its solutions do not depend on rho > 0).
DiagResult ProjectionIteration(const Mat3& W, const Vec3& b, double mu, double rho,
                               const DiagOptions& options, Vec3& R);

// Semismooth Newton on eq. 7.3 with rho = 3 / trace(W) and an Armijo line search on
// |C|^2 / 2; kFailed on a singular Jacobian, a failed line search or a root outside FC.
// project = true: every trial point R + t d is projected on FC (projected Newton).
DiagResult SemismoothNewton(const Mat3& W, const Vec3& b, double mu, const DiagOptions& options,
                            Vec3& R, bool project = false);

// Sliding means R = R_N [-mu t; 1] with t = (cos th, sin th): U_N = 0 gives R_N = -b_N / w_N,
// w = W [-mu t; 1], and the slip U_T must be parallel to +t, so th is a root of the smooth
// F(th) = w_N (t x U_T) = w_N (t x b_T) - b_N (t x w_T) with w_N > 0 and t . U_T >= 0.
// Newton on F from the slip direction t (a unit vector, turned without trigonometry).
DiagResult SlidingNewton(const Mat3& W, const Vec3& b, double mu, const DiagOptions& options,
                         Eigen::Vector2d t, Vec3& R);

// The same roots bracketed on a 64-point scan of th and refined by bisection: slow but
// robust (the last resort before ProjectionIteration).
DiagResult SlidingByDirection(const Mat3& W, const Vec3& b, double mu, Vec3& R);

}  // namespace detail

}  // namespace solfec::solvers
