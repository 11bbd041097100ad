// NEWTON_SOLVER: a semismooth Newton method on the Alart-Curnier form of the local dynamics
// (manual 4.1.11, chapter 9) with restarted GMRES steps, a nonmonotone line search and the
// merit g(R) of chapter 8 as termination test; falls back to Gauss-Seidel on failure.
#pragma once

#include <string>
#include <vector>

#include "base/types.h"
#include "solvers/block_problem.h"
#include "solvers/constraint_solver.h"

namespace solfec::solvers {

// Arguments of NEWTON_SOLVER (manual 4.1.11 / Solfec-1.0 names).
struct NewtonOptions {
  double meritval = 1e-8;  // merit g(R) (eq. 8.1) sufficient for termination
  int maxiter = 1000;      // Newton iteration limit
  int linminiter = 5;      // GMRES iterations done at least per Newton step (if not exact)
  int linmaxiter = 10;     // GMRES restart length (Krylov dimension of one cycle)
  double resdec = 0.25;    // linear residual decrease |J dR + C| <= resdec |C| (forcing term)
  double delta = 0.0;      // regularisation: J + delta I
  // Proximal term of the Newton matrix (extension, 0 = off = Solfec-1.0's Newton):
  // J = Dr + Du (W + sigma_a I), sigma_a = p / rho_a (rho_a = 3 / trace W_aa), i.e. a
  // sticking row of J is rho_a W_a + p I, regular when W is rank-deficient (redundant points
  // of FE contact patches); C is not regularised, so the solution is unchanged. p starts at
  // 0 and becomes `proximal` after the first damped, non-decreasing or failed line-search
  // step (a failed search is retried), doubles after later ones (up to 10 proximal), shrinks
  // by 0.8 after a full step that lowered |C| (to 0 below 1e-3 proximal). Off by default:
  // on well-posed long chains it slowed Newton down (src/solvers/README.md).
  double proximal = 0.0;
  int nonmonlength = 5;    // memory of the nonmonotone line search
  // Gauss-Seidel smoothing (extension; 0 = off = Solfec-1.0's Newton): when the line search
  // makes no progress, or the merit has not halved over 4 Newton iterations, up
  // to `smoothing` Gauss-Seidel sweeps (Anderson 5; twice as many in every later round of
  // the same solve) run from the Newton iterate and Newton restarts from theirs. Redundant
  // contact points (rank-deficient W: FE contact patches) give |C|^2 stationary points
  // other than solutions, where Newton alone stalls.
  int smoothing = 10;
  // Extra stopping test (0: off; extension): also stop once the relative natural-map
  // residual (RelativeResidual of merit.h, Siconos 4.4's fc3d_compute_error for contact-only
  // problems) of the iterate is <= residual; checked after every Newton step and smoothing
  // round (whose Gauss-Seidel sweeps stop on it too), like meritval.
  double residual = 0.0;
  bool gsflag = true;      // on failure continue by Gauss-Seidel from the Newton iterate
  // 'locdyn': true assembles W (3x3 blocks); false asks for a matrix-free W (products
  // through the bodies, BlockProblem::W_operator), Gauss-Seidel fallback assembles it.
  bool locdyn = true;
  // Throws InputError naming NEWTON_SOLVER and the offending argument.
  void Validate() const;
};

class GaussSeidelSolver;

class NewtonSolver final : public ConstraintSolver {
 public:
  explicit NewtonSolver(const NewtonOptions& options = {});

  // Newton iterations on C(R) = 0 (per contact the Alart-Curnier function with
  // rho_a = 3 / trace(W_aa); equality rows linear) until g(R) <= meritval (or, with
  // options.residual > 0, RelativeResidual <= residual). On maxiter or a
  // failed line search stats.error = 'DIVERGED'; with gsflag, Gauss-Seidel (meritval the
  // same, epsilon 1e-12) continues from the Newton iterate and its outcome is reported,
  // fell_back() is set and stats.message says so. Rows with law.spring_dashpot throw
  // InputError (only PENALTY_SOLVER handles them). Products with W go through
  // BlockProblem::MultiplyW (the W_operator when set: locdyn 'OFF'). stats.mvhist holds
  // the GMRES iterations (W products) of every Newton step and 0 for every smoothing sweep
  // (those sweeps also count in stats.iters and merhist).
  SolverStats Solve(BlockProblem& problem) override;
  // solfec-mpi: every product, inner product, norm and merit over all processes' rows
  // (B stays as assembled; the Gauss-Seidel smoothing and fallback are coupled sweeps).
  SolverStats SolveCoupled(BlockProblem& problem, ProcessCoupling& coupling) override;
  const char* name() const override { return "NEWTON_SOLVER"; }
  bool matrix_free() const override { return !options_.locdyn; }
  bool supports_coupling() const override { return !matrix_free(); }  // (locdyn 'ON')

  const NewtonOptions& options() const { return options_; }
  void set_options(const NewtonOptions& options);
  const SolverStats& last_stats() const { return last_stats_; }
  bool fell_back() const { return fell_back_; }
  int linear_iters() const { return linear_iters_; }  // GMRES iterations of the last Solve
  int smoothing_sweeps() const { return smoothing_sweeps_; }  // of the last Solve

 private:
  // Residual C(R) into C_ (U_ = W R is computed, or with reuse_WR taken as current) and,
  // if jacobian, the blocks Dr_, Du_ of its generalised Jacobian dC = Dr dR + Du dU and the
  // preconditioner.
  double Residual(const BlockProblem& p, const std::vector<Vec3>& R, bool jacobian,
                  bool reuse_WR = false);
  void MultiplyJ(const BlockProblem& p, const VecX& x, VecX& y);  // y = (J + delta I) x
  void Precondition(const VecX& x, VecX& y) const;                // y = M^-1 x
  // Solves J dR = -C by right-preconditioned restarted GMRES; returns iterations.
  int Gmres(const BlockProblem& p, VecX& dR);
  void RaiseProximal();  // 0 -> options_.proximal, else x2 up to 10 options_.proximal
  // Up to options_.smoothing Gauss-Seidel sweeps from problem.R (within maxiter); updates
  // stats (iters, merhist) and merit; false when no sweep was possible.
  bool Smooth(BlockProblem& problem, SolverStats& stats, double& merit);
  SolverStats Run(BlockProblem& problem);  // Solve on coupling_
  // Gauss-Seidel from problem.R: coupled sweeps under solfec-mpi.
  SolverStats GaussSeidel(GaussSeidelSolver& gs, BlockProblem& problem);
  // The products, sums and merit over all processes' rows through coupling_ (serial: the
  // plain local ones). B stays the assembled B0_ during the iterations.
  void MultiplyWhole(const BlockProblem& p, const std::vector<Vec3>& x, std::vector<Vec3>& y);
  double Dot(const BlockProblem& p, Eigen::Ref<const VecX> a, Eigen::Ref<const VecX> b) const;
  double Merit(BlockProblem& problem, double denominator);  // fills U and merit
  double Relative(BlockProblem& problem) const;  // RelativeResidual of the current U

  NewtonOptions options_;
  SolverStats last_stats_;
  bool fell_back_ = false;
  int linear_iters_ = 0;
  int smoothing_sweeps_ = 0;
  int smoothing_next_ = 0;  // sweeps of the next smoothing round
  std::vector<double> rho_;
  double prox_ = 0.0;  // current proximal factor (starts at options_.proximal)
  std::vector<Vec3> U_, C_, Ushift_, work_, work2_;
  std::vector<Mat3> Dr_, Du_, M_, W_inv_;
  double denominator_ = 1.0;  // of the merit, over all processes
  std::vector<Vec3> B0_;  // B as assembled (coupled runs: Gauss-Seidel smoothing changes B)
  SerialCoupling serial_;                 // coupling_ of a serial Solve
  ProcessCoupling* coupling_ = &serial_;  // of the current Solve / SolveCoupled
  bool coupled_ = false;                  // SolveCoupled
};

}  // namespace solfec::solvers
