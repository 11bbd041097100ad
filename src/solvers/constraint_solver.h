// Interface of constraint solvers and their statistics (GAUSS_SEIDEL_SOLVER, ...).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "base/errors.h"
#include "solvers/block_problem.h"
#include "solvers/process_coupling.h"

namespace solfec::solvers {

struct SolverStats {
  int iters = 0;
  double merit = 0.0;           // merit function g(R) of manual eq. 8.1 at exit
  double relative_error = 0.0;  // |S - R| / |R| of the last iteration
  // Relative natural-map residual of the returned R (merit.h RelativeResidual: Siconos'
  // fc3d_compute_error in the impulse r = h R); NaN when the solver does not compute it.
  double residual = std::numeric_limits<double>::quiet_NaN();
  bool converged = false;
  std::string error = "OK";     // 'OK', 'DIVERGED', 'DIAGONAL_DIVERGED', 'DIAGONAL_FAILED'
  std::vector<double> rerhist, merhist;  // per-iteration histories
  std::vector<int> mvhist;  // NEWTON_SOLVER: W products (GMRES iterations) per Newton step
  // AUTO_SOLVER: the solver that met meritval ('NEWTON_SOLVER', 'GAUSS_SEIDEL_SOLVER';
  // 'NONE' when neither did); empty for the other solvers.
  std::string winner;
  // Failure policy outcome (error != 'OK'): stop_run is set when the policy ('EXIT', or a
  // 'CALLBACK' returning false) asks the caller to stop the run; message says why.
  bool stop_run = false;
  std::string message;
  std::vector<double> row_merit;         // per-constraint merit contributions at exit
};

class ConstraintSolver {
 public:
  virtual ~ConstraintSolver() = default;
  // Solves C(B + W R, R) = 0 in place (R warm-started, U filled, laws' cohesive updated).
  virtual SolverStats Solve(BlockProblem& problem) = 0;
  virtual const char* name() const = 0;
  // True when the solver works with a matrix-free W (BlockProblem::W_operator): the
  // assembly may then skip the off-diagonal blocks (NEWTON_SOLVER locdyn 'OFF').
  virtual bool matrix_free() const { return false; }
  // solfec-mpi: whether SolveCoupled is available.
  virtual bool supports_coupling() const { return false; }
  // solfec-mpi (collective): solves the rows of this process, which see the other processes'
  // rows through `coupling` (solvers/process_coupling.h); the statistics are global.
  virtual SolverStats SolveCoupled(BlockProblem& /*problem*/, ProcessCoupling& /*coupling*/) {
    throw InputError(std::string(name()) + ": not available in solfec-mpi runs");
  }

  // Solfec-1.0 'itershist': while on, every Solve appends its iteration count (set_itershist
  // clears the list).
  bool itershist_on() const { return itershist_on_; }
  void set_itershist(bool on) {
    itershist_on_ = on;
    itershist_.clear();
  }
  const std::vector<int>& itershist() const { return itershist_; }

 protected:
  void RecordIters(int iters) {
    if (itershist_on_) itershist_.push_back(iters);
  }

 private:
  bool itershist_on_ = false;
  std::vector<int> itershist_;
};

}  // namespace solfec::solvers
