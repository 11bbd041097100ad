// PENALTY_SOLVER: contacts by the spring-dashpot law (manual 7.1.2, Algorithm 7.1), bilateral
// constraints by a local Gauss-Seidel on the remaining rows (manual 9.2, Algorithm 9.4).
#pragma once

#include <vector>

#include "base/types.h"
#include "solvers/block_problem.h"
#include "solvers/constraint_solver.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::solvers {

// Normal force computation of PENALTY_SOLVER (argument 'variant').
enum class PenaltyVariant {
  kImplicit,  // 'IMPLICIT': eq. 7.14, the spring and dashpot act on the step's mean gap and
              // velocity, U_N^{t+h} estimated through the diagonal block W_aa
  kExplicit,  // 'EXPLICIT': R_N = -s g - d U_N^t
};

// Spring-dashpot reaction of one contact row (Algorithm 7.1, generalised to the Hertz law):
//   f(g) = -s sgn(g) |g|^p is the spring force (p = law.hpow; p = 1 is the linear spring),
//   k = s p |g|^(p-1) its stiffness (k = s for p = 1),
//   d = law.dashpot, or for dashpot < 0 the critical value d = 2 sqrt(k m) with the contact's
//   effective normal mass m = h / W_NN (W = h H A^-1 H^T, so W_NN = h / m),
//   implicit: R_N = [f - k h/4 (Bbar_N - U_N^t) - d/2 (Bbar_N + U_N^t)] / [1 + (k h/4 + d/2) W_NN]
//             with Bbar_N = B_N + W_NT R_T(previous),
//   explicit: R_N = f - d U_N^t.
// Then: non-cohesive R_N < 0 -> R = 0; R_T = -W_TT^-1 (B_T + W_TN R_N) (sticking); a cohesive
// R_N < -cohesion breaks the bond (R_N = -cohesion); |R_T| > mu |R_N| -> sliding with
// R_T = -mu |R_N| U_T / |U_T|, U_T = B_T + W_TN R_N + W_TT R_T(previous) (Alg. 7.1 scales the
// sticking R_T onto the cone instead; the two agree when W_TT is isotropic), and a cohesive
// bond breaks. `B` is the row's velocity without its own reaction (B_a + sum_{b != a}
// W_ab R_b), `R` in: previous reaction, out: new one. law.cohesive is updated. Throws InputError (naming SURFACE_MATERIAL
// 'spring') when law.spring <= 0.
void SpringDashpotReaction(Law& law, const Mat3& W, const Vec3& B, double h,
                           PenaltyVariant variant, int row, Vec3& R);

// The critical dashpot 2 sqrt(k h / W_NN) of a contact with stiffness k and diagonal block W.
double CriticalDashpot(double stiffness, const Mat3& W, double h);

class PenaltySolver final : public ConstraintSolver {
 public:
  explicit PenaltySolver(PenaltyVariant variant = PenaltyVariant::kImplicit);

  // Algorithm 9.4 (serial), iterated: a sweep applies SpringDashpotReaction to every
  // contact row (kSignoriniCoulomb, whatever its material model) with the row velocity
  // B_a + sum_{b != a} W_ab R_b of the current reactions, then solves the other rows by
  // Gauss-Seidel with the contact reactions fixed (their W_ab R_b moved into B). Sweeps
  // repeat until the contact reactions change by at most epsilon (relative) or max_sweeps.
  // The manual's single pass uses the free velocity B_a alone; with several contacts on one
  // rigid body each of them then applies the whole correction (a 4-point box face over-
  // corrects 4 times and tumbles), hence the sweeps. Fills R, U = B + W R, the cohesive
  // flags, row_merit (0 for contacts); stats: iters = sweeps, relative_error, merit of the
  // bilateral rows, error 'DIVERGED' when the sweeps did not converge.
  SolverStats Solve(BlockProblem& problem) override;
  // solfec-mpi: the sweeps see the other processes' reactions through B (exchanged before
  // each sweep) and stop on the global change; the bilateral rows stay a per-process solve.
  SolverStats SolveCoupled(BlockProblem& problem, ProcessCoupling& coupling) override;
  const char* name() const override { return "PENALTY_SOLVER"; }
  bool supports_coupling() const override { return true; }

  PenaltyVariant variant() const { return variant_; }
  void set_variant(PenaltyVariant v) { variant_ = v; }
  const SolverStats& last_stats() const { return last_stats_; }
  double epsilon() const { return epsilon_; }
  int max_sweeps() const { return max_sweeps_; }
  // epsilon > 0 (default 1e-8), max_sweeps >= 1 (default 1000); InputError otherwise.
  void set_sweeps(double epsilon, int max_sweeps);
  // Options of the bilateral Gauss-Seidel (epsilon 1e-9, meritval 1e-14, maxiter 1000).
  const GaussSeidelOptions& bilateral_options() const { return bilateral_.options(); }

 private:
  // Builds sub_ from the non-contact rows (rows_), with contact couplings folded into B.
  void BuildBilateral(const BlockProblem& problem);
  SolverStats Run(BlockProblem& problem, ProcessCoupling& coupling);

  PenaltyVariant variant_;
  double epsilon_ = 1e-8;
  int max_sweeps_ = 1000;
  GaussSeidelSolver bilateral_;
  SolverStats last_stats_;
  BlockProblem sub_;
  std::vector<int> rows_;      // sub row -> problem row
  std::vector<int> sub_of_;    // problem row -> sub row (-1: contact)
};

}  // namespace solfec::solvers
