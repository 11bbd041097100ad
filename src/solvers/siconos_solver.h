// SICONOS_SOLVER (Solfec-1.0 sis.c): each step's contact problem handed to Siconos numerics
// (fc3d_driver with SICONOS_FRICTION_3D_NSGS). Optional: compiled against Siconos only when
// CMake finds it (Debian libsiconos-numerics-dev, SOLFEC_HAVE_SICONOS); without it the class
// exists, SiconosAvailable() is false and Solve throws an InputError naming the package.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solvers/block_problem.h"
#include "solvers/constraint_solver.h"

namespace solfec::solvers {

// True when this build links Siconos numerics.
bool SiconosAvailable();

struct SiconosOptions {
  double epsilon = 1e-4;  // Siconos' tolerance (dparam[SICONOS_DPARAM_TOL]), > 0
  int maxiter = 1000;     // NSGS sweeps (iparam[SICONOS_IPARAM_MAX_ITER]), >= 1
  bool verbose = false;   // Siconos' own verbose output (numerics_set_verbose)
};

class SiconosSolver final : public ConstraintSolver {
 public:
  SiconosSolver();
  ~SiconosSolver() override;
  SiconosSolver(SiconosSolver&&) noexcept;
  SiconosSolver& operator=(SiconosSolver&&) noexcept;
  // The friction-contact problem of Siconos (u = M r + q, r in the Coulomb cone K_mu,
  // u + mu |u_T| e_N in its dual, each contact's components ordered (N, T1, T2)) built from
  // the rows in Siconos' Moreau-Jean form, impulses r = h R (h = problem.step, 1 when 0):
  // M = W / h and q = B permuted from our (T1, T2, N) frame; the restitution term
  // eta min(0, U_N^t) is added to q_N (so u is Ubar, eq. 7.1), a cohesive contact solves for
  // r = h (R + cohesion e_N) (q -= W e_N cohesion). A cohesive contact that ends the solve at
  // R_N = -cohesion while separating breaks (law.cohesive = false), and the step is solved
  // again without that bond (as the Gauss-Seidel solver's diagonal step does). Rows other
  // than contacts (FIX_POINT, FIX_DIRECTION, SET_VELOCITY, PUT_RIGID_LINK, PUT_SPRING) have
  // no place in Siconos' problem: InputError naming the row's constraint kind. Stats: iters
  // = NSGS sweeps (summed over the re-solves), relative_error = Siconos' residual
  // (dparam[SICONOS_DPARAM_RESIDU]), residual = RelativeResidual (merit.h: the same function
  // evaluated by us), merit = g(R) of eq. 8.1, converged = Siconos' info 0,
  // error 'OK' or 'DIVERGED'.
  SolverStats Solve(BlockProblem& problem) override;
  const char* name() const override { return "SICONOS_SOLVER"; }

  const SiconosOptions& options() const { return options_; }
  // Checks epsilon > 0 and maxiter >= 1 (InputError naming SICONOS_SOLVER and the argument).
  void set_options(const SiconosOptions& options);
  const SolverStats& last_stats() const { return last_stats_; }

 private:
  // Siconos' SolverOptions of NSGS, created at the first Solve and kept (Siconos 4.4's
  // solver_options_delete does not free the structures themselves: one per step would leak).
  struct Handle;
  std::unique_ptr<Handle> handle_;
  SiconosOptions options_;
  SolverStats last_stats_;
};

}  // namespace solfec::solvers
