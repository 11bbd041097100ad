// AUTO_SOLVER: Newton / Gauss-Seidel windows with a hand-over when the merit stalls.
#include "solvers/auto_solver.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/errors.h"
#include "solvers/merit.h"

namespace solfec::solvers {

namespace {

void Fail(const char* arg, const std::string& what) {
  throw InputError(std::string("AUTO_SOLVER: ") + what + " (argument '" + arg + "')");
}

constexpr const char* kNewtonName = "NEWTON_SOLVER";
constexpr const char* kGsName = "GAUSS_SEIDEL_SOLVER";

}  // namespace

void AutoOptions::Validate() const {
  if (!(meritval > 0.0) || !std::isfinite(meritval)) Fail("meritval", "must be > 0; use e.g. 1e-6");
  if (maxiter < 1) Fail("maxiter", "must be >= 1; use e.g. 1000");
  if (!(stallfactor > 0.0 && stallfactor < 1.0))
    Fail("stallfactor", "must lie in (0, 1); use e.g. 0.5");
  if (newtonwindow < 1) Fail("newtonwindow", "must be >= 1; use e.g. 10");
  if (gswindow < 1) Fail("gswindow", "must be >= 1; use e.g. 50");
}

AutoSolver::AutoSolver(const AutoOptions& options) { set_options(options); }

void AutoSolver::set_options(const AutoOptions& options) {
  options.Validate();
  options_ = options;
}

SolverStats AutoSolver::Solve(BlockProblem& problem) {
  options_.Validate();
  problem.EnsureAssembled();  // Gauss-Seidel windows need the off-diagonal blocks
  problem.Validate(name());
  if (problem.R.size() != problem.B.size()) problem.R.assign(problem.size(), Vec3::Zero());
  SolverStats stats;
  newton_iters_ = gs_iters_ = switches_ = 0;
  bool use_gs = options_.first == AutoOptions::First::kGaussSeidel ||
                (options_.first == AutoOptions::First::kLast && last_winner_gs_);
  double merit = ComputeMerit(problem);
  // The best iterate so far, returned when neither solver meets meritval.
  double best = merit;
  std::vector<Vec3> best_R = problem.R, start_R;
  std::vector<Law> best_laws = problem.laws, start_laws;
  // Windows double each time a solver is re-entered, so that alternating between two slow
  // solvers turns into running the better one for long stretches.
  int windows[2] = {options_.newtonwindow, options_.gswindow};
  bool entered[2] = {false, false};
  int previous = -1;
  int idle_windows = 0;  // consecutive windows without an iteration (both solvers stuck)
  while (merit > options_.meritval && stats.iters < options_.maxiter && idle_windows < 2) {
    const int which = use_gs ? 1 : 0;
    if (entered[which] && previous != which)
      windows[which] = std::min(2 * windows[which], options_.maxiter);
    entered[which] = true;
    previous = which;
    const int window = std::min(windows[which], options_.maxiter - stats.iters);
    SolverStats s;
    if (use_gs) {
      GaussSeidelOptions o;
      o.meritval = options_.meritval;
      o.epsilon = 1e-14;
      o.stopping = GaussSeidelOptions::Stopping::kEither;
      o.maxiter = window;
      gs_.set_options(o);
      s = gs_.Solve(problem);
      gs_iters_ += s.iters;
    } else {
      start_R = problem.R;  // a Newton window that raises g is undone (see below)
      start_laws = problem.laws;
      NewtonOptions o = newton_.options();
      o.meritval = options_.meritval;
      o.maxiter = window;
      o.gsflag = false;
      o.smoothing = 0;  // the Gauss-Seidel windows take that role
      newton_.set_options(o);
      s = newton_.Solve(problem);
      newton_iters_ += s.iters;
    }
    stats.iters += s.iters;
    stats.merhist.insert(stats.merhist.end(), s.merhist.begin(), s.merhist.end());
    stats.error = s.error;
    stats.relative_error = s.relative_error;
    idle_windows = s.iters == 0 ? idle_windows + 1 : 0;
    const double start = merit;
    merit = s.merit;
    if (merit <= options_.meritval) {
      stats.winner = use_gs ? kGsName : kNewtonName;
      break;
    }
    if (merit < best) {
      best = merit;
      best_R = problem.R;
      best_laws = problem.laws;
    }
    const bool stalled = !(merit <= options_.stallfactor * start) || s.iters < window;
    if (stalled) {
      // Newton's line search works on |C|^2, not on g: a window may end above its start;
      // Gauss-Seidel then continues from the window's start. (Gauss-Seidel windows are
      // kept: its merit may rise for a while from a point it did not produce.)
      if (!use_gs && merit > start) {
        problem.R = start_R;
        problem.laws = start_laws;
        merit = start;
      }
      use_gs = !use_gs;
      ++switches_;
    }
  }
  if (merit > options_.meritval && best < merit) {
    problem.R = best_R;
    problem.laws = best_laws;
  }
  stats.merit = ComputeMerit(problem);
  stats.row_merit = problem.merit;
  stats.converged = stats.merit <= options_.meritval;
  if (stats.converged && stats.winner.empty()) {
    stats.winner = use_gs ? kGsName : kNewtonName;  // the warm start already satisfied it
  }
  if (!stats.converged) {
    stats.winner = "NONE";
    stats.error = "DIVERGED";
    stats.message = "AUTO_SOLVER: merit " + std::to_string(stats.merit) + " above meritval " +
                    "after " + std::to_string(stats.iters) + " iterations (" +
                    std::to_string(newton_iters_) + " Newton, " + std::to_string(gs_iters_) +
                    " Gauss-Seidel); increase maxiter or relax meritval";
  } else if (stats.error != "DIAGONAL_FAILED" && stats.error != "DIAGONAL_DIVERGED") {
    stats.error = "OK";
  }
  last_winner_gs_ = stats.winner == kGsName;
  winner_history_.push_back(stats.winner);
  last_stats_ = stats;
  RecordIters(stats.iters);
  return stats;
}

}  // namespace solfec::solvers
