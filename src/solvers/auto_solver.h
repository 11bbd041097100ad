// AUTO_SOLVER: semismooth Newton and Gauss-Seidel taking turns on one problem, switching
// whenever the merit g(R) (manual chapter 8) stalls, and recording which of them won.
#pragma once

#include <string>
#include <vector>

#include "solvers/block_problem.h"
#include "solvers/constraint_solver.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/newton_solver.h"

namespace solfec::solvers {

// Arguments of AUTO_SOLVER (an extension; not in the manual nor in Solfec-1.0).
struct AutoOptions {
  enum class First {
    kNewton,       // 'NEWTON': every solve starts with NEWTON_SOLVER
    kGaussSeidel,  // 'GAUSS_SEIDEL': every solve starts with GAUSS_SEIDEL_SOLVER
    kLast,         // 'LAST': starts with the previous solve's winner (Newton at first)
  };
  double meritval = 1e-6;     // merit g(R) sufficient for termination
  int maxiter = 1000;         // total iterations: Newton steps plus Gauss-Seidel sweeps
  double stallfactor = 0.5;   // a window must multiply the merit by at most this factor
  int newtonwindow = 10;      // Newton iterations per window
  int gswindow = 50;          // Gauss-Seidel sweeps per window
  First first = First::kNewton;
  // Throws InputError naming AUTO_SOLVER and the offending argument.
  void Validate() const;
};

class AutoSolver final : public ConstraintSolver {
 public:
  explicit AutoSolver(const AutoOptions& options = {});

  // Runs the current solver (first: options.first) for one window from the current R. The
  // solve ends when g(R) <= meritval (the current solver wins) or after maxiter iterations
  // in all ('DIVERGED', winner 'NONE'). A window that ends with g(R) > stallfactor * g at
  // its start, or that stops early without reaching meritval (Newton's line search without
  // progress, Gauss-Seidel's relative change below 1e-14), hands over to the other solver.
  // Newton runs with gsflag 'OFF'; Gauss-Seidel with its defaults (Anderson depth 5) and
  // epsilon 1e-14, so both stop on the merit. stats.merhist is the merit after every
  // iteration of both solvers; stats.winner names the solver that met meritval.
  SolverStats Solve(BlockProblem& problem) override;
  const char* name() const override { return "AUTO_SOLVER"; }

  const AutoOptions& options() const { return options_; }
  void set_options(const AutoOptions& options);
  const SolverStats& last_stats() const { return last_stats_; }

  // Winner of every solve since construction (or clear_history): 'NEWTON_SOLVER',
  // 'GAUSS_SEIDEL_SOLVER' or 'NONE'.
  const std::vector<std::string>& winner_history() const { return winner_history_; }
  void clear_history() { winner_history_.clear(); }
  // Of the last solve: iterations of each solver and the number of hand-overs.
  int newton_iters() const { return newton_iters_; }
  int gs_iters() const { return gs_iters_; }
  int switches() const { return switches_; }

 private:
  AutoOptions options_;
  NewtonSolver newton_;
  GaussSeidelSolver gs_;
  SolverStats last_stats_;
  std::vector<std::string> winner_history_;
  bool last_winner_gs_ = false;
  int newton_iters_ = 0, gs_iters_ = 0, switches_ = 0;
};

}  // namespace solfec::solvers
