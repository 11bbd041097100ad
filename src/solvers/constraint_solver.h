// Interface of constraint solvers and their statistics (GAUSS_SEIDEL_SOLVER, ...).
#pragma once

#include <string>
#include <vector>

#include "solvers/block_problem.h"

namespace solfec::solvers {

struct SolverStats {
  int iters = 0;
  double merit = 0.0;           // merit function g(R) of manual eq. 8.1 at exit
  double relative_error = 0.0;  // |S - R| / |R| of the last iteration
  bool converged = false;
  std::string error = "OK";     // 'OK', 'DIVERGED', 'DIAGONAL_DIVERGED', 'DIAGONAL_FAILED'
  std::vector<double> rerhist, merhist;  // per-iteration histories
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
};

}  // namespace solfec::solvers
