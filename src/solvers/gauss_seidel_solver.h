// GAUSS_SEIDEL_SOLVER: the nonlinear block Gauss-Seidel solver of manual section 9.1
// (Algorithm 9.1) with the termination test on the merit function of chapter 8.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/types.h"
#include "solvers/block_problem.h"
#include "solvers/constraint_solver.h"
#include "solvers/diagonal_solvers.h"

namespace solfec::solvers {

// Arguments of GAUSS_SEIDEL_SOLVER (manual 4.1.9). Unset (< 0) diagonal parameters take the
// manual's defaults; see resolved_diagepsilon() and resolved_diagmaxiter().
struct GaussSeidelOptions {
  // Action on lack of convergence (argument 'failure').
  enum class Failure {
    kContinue,  // 'CONTINUE': report in the statistics only
    kExit,      // 'EXIT': throw SolverError
    kCallback,  // 'CALLBACK': call the failure callback (EXIT when none is set)
  };

  double epsilon = 1e-4;   // relative change |S - R| / |R| sufficient for termination
  int maxiter = 1000;      // iteration limit
  double meritval = 1e-3;  // merit g(R) (eq. 8.1) sufficient for termination
  Failure failure = Failure::kContinue;
  double diagepsilon = -1.0;  // < 0: min(epsilon, meritval, 1e-4) / 100
  int diagmaxiter = -1;       // < 0: max(100, maxiter / 100)
  DiagSolver diagsolver = DiagSolver::kSemismoothNewton;
  bool reverse = false;  // alternate forward and backward sweeps ('reverse' = 'ON')

  double resolved_diagepsilon() const;
  int resolved_diagmaxiter() const;
  // Throws InputError naming GAUSS_SEIDEL_SOLVER and the offending argument.
  void Validate() const;
};

class GaussSeidelSolver final : public ConstraintSolver {
 public:
  // Called under Failure::kCallback with the failed run's statistics; false stops the run.
  using FailureCallback = std::function<bool(const SolverStats&)>;

  explicit GaussSeidelSolver(const GaussSeidelOptions& options = {});

  // Algorithm 9.1: sweeps until |S - R| / |R| <= epsilon or g(R) <= meritval, or maxiter.
  // Fills R, U = B + W R, the per-row merits and the cohesive flags; then applies the
  // failure policy (may throw SolverError under 'EXIT').
  SolverStats Solve(BlockProblem& problem) override;
  const char* name() const override { return "GAUSS_SEIDEL_SOLVER"; }

  const GaussSeidelOptions& options() const { return options_; }
  // Validates before storing.
  void set_options(const GaussSeidelOptions& options);
  void set_failure_callback(FailureCallback callback) { callback_ = std::move(callback); }
  // Statistics of the last Solve (kept also when it threw): obj.error, iters, rerhist, ...
  const SolverStats& last_stats() const { return last_stats_; }

  // The failure policy as data: for stats.error != 'OK' sets stats.message and
  // stats.stop_run ('EXIT', or 'CALLBACK' returning false); throws SolverError under 'EXIT'
  // (and 'CALLBACK' without a callback). 'CONTINUE' leaves stop_run false.
  void ApplyFailurePolicy(SolverStats& stats) const;
  // "GAUSS_SEIDEL_SOLVER: did not converge in N iterations (merit M); ..." and the like.
  static std::string FailureMessage(const SolverStats& stats);

 private:
  struct SweepSums {
    double change2 = 0.0;      // |S - R|^2
    double norm2 = 0.0;        // |R|^2
    double merit_prev = 0.0;   // g of the iterate the sweep started from
    bool diag_diverged = false;
    bool diag_failed = false;
    bool cohesion_broken = false;
  };
  template <bool kForward>
  void Sweep(BlockProblem& problem, SweepSums& sums);
  void Prepare(BlockProblem& problem);
  SolverStats Iterate(BlockProblem& problem);

  GaussSeidelOptions options_;
  FailureCallback callback_;
  SolverStats last_stats_;
  // Per-Solve work arrays, reused between calls (no allocation in the sweeps).
  std::vector<Mat3> W_inv_;
  std::vector<Vec3> R_prev_;  // the previous iterate, written row by row during a sweep
  std::vector<std::uint8_t> singular_;
  int num_singular_ = 0;
  bool first_sweep_ = true;  // the warm start need not lie in FC
  double denominator_ = 1.0;
  DiagOptions diag_;
};

}  // namespace solfec::solvers
