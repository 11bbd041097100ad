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

  // Which tests end the sweeps ('stopping').
  enum class Stopping {
    kBoth,    // 'BOTH' (Solfec-1.0's bgs.c): sweep while |S - R| / |R| > epsilon or
              // g(R) > meritval, i.e. stop once both hold; meritval >= 1 turns the merit
              // test off (then epsilon alone decides)
    kEither,  // 'EITHER' (the manual's Alg. 9.1 as printed): stop once either holds
    kResidual,  // 'RESIDUAL' (extension): stop once the relative natural-map residual
                // (`residual` below, in Siconos' impulse units) is <= epsilon; the relative
                // change and merit tests are off
  };

  double epsilon = 1e-4;   // relative change |S - R| / |R| sufficient for termination
  int maxiter = 1000;      // iteration limit
  double meritval = 1.0;   // merit g(R) (eq. 8.1) bound (Solfec-1.0's default: test off)
  Stopping stopping = Stopping::kBoth;
  Failure failure = Failure::kContinue;
  double diagepsilon = -1.0;  // < 0: min(epsilon, meritval, 1e-4) / 100
  int diagmaxiter = -1;       // < 0: max(100, maxiter / 100)
  DiagSolver diagsolver = DiagSolver::kSemismoothNewton;
  bool reverse = false;  // alternate forward and backward sweeps ('reverse' = 'ON')
  // Extensions (not in the manual; the defaults were chosen on the box-of-cubes benchmark,
  // see src/solvers/README.md). The sweep, epsilon, maxiter, meritval and reverse keep their
  // meaning: every iteration is one sweep of Alg. 9.1 and |S - R| / |R| is that sweep's change.
  //
  // Over-relaxation: the block update becomes R_a <- P(S_a + omega (R_a^GS - S_a)), P the
  // projection on the law's admissible set (FC_a, shifted by the cohesion while cohesive).
  // omega in (0, 2); 1 is Alg. 9.1. Helps a little alone, not together with anderson.
  double omega = 1.0;
  // Anderson acceleration depth m (0: off): after each sweep S -> R = G(S), the next sweep
  // starts from P(G(S) - sum_j gamma_j dG_j) with gamma minimising |f - sum_j gamma_j dF_j|
  // over the last m differences of G and of f = G(S) - S (restarted whenever |f| grows).
  // Removes the slow modes of redundant contact patches (rank-deficient W). With reverse =
  // true it accelerates the map of each forward + backward pair of sweeps.
  int anderson = 5;
  static constexpr int kMaxAnderson = 50;
  // Extra stopping test (0: off): sweeps also stop once the relative natural-map residual
  // sqrt(sum_a |C_a|^2) / max(h |R|, |U|, |B|) <= residual, C_a the row residual of merit.h
  // with r_scale h = ResidualScale(problem) (for a contact h R_a - proj_FC(h R_a - U_a -
  // mu |U_T| e_N): the natural map of the problem in the impulse r = h R with W / h; h = 1
  // for a problem without a step). For contact-only problems this is the value of Siconos
  // 4.4's fc3d_compute_error on that problem (RelativeResidual); it is checked like meritval,
  // on the iterate each sweep starts from. Under Stopping::kResidual the test uses
  // max(epsilon, residual).
  double residual = 0.0;
  // solfec-mpi: how rows of different processes see each other within a sweep (manual
  // table 4.8, Alg. 9.3; ProcessCoupling::SweepStages). kFull: processes coloured so that
  // neighbours differ; boundary rows of colour c are swept after the rows of colours < c
  // have been exchanged (the serial Gauss-Seidel order of some row numbering: C exchanges
  // per sweep). kMiddleJacobi: rows next to both lower and higher colours use the previous
  // sweep's values. kBoundaryJacobi: one exchange per sweep, all off-process values from the
  // previous sweep. kSimplified: one sweep over the contact rows (their reactions then
  // stay), then sweeps over the other rows only, exchanging before each (our bilateral rows
  // can span processes); no Anderson. No effect in serial runs.
  enum class Variant { kFull = 0, kMiddleJacobi = 1, kBoundaryJacobi = 2, kSimplified = 3 };
  Variant variant = Variant::kFull;
  // solfec-mpi (manual 4.1.9 innerloops): sweeps of each process's rows per global iteration;
  // the sweeps after the first keep the other processes' reactions of that iteration (no
  // exchange). Not with 'SIMPLIFIED'. No effect in serial runs.
  int innerloops = 1;

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

  // Algorithm 9.1: sweeps until |S - R| / |R| <= epsilon and g(R) <= meritval (kEither:
  // or), or maxiter.
  // Fills R, U = B + W R, the per-row merits and the cohesive flags; then applies the
  // failure policy (may throw SolverError under 'EXIT').
  SolverStats Solve(BlockProblem& problem) override;
  // solfec-mpi: the same iteration with each sweep split into stages between exchanges with
  // the other processes (options' variant, innerloops; gauss_seidel_coupled.cc).
  SolverStats SolveCoupled(BlockProblem& problem, ProcessCoupling& coupling) override;
  const char* name() const override { return "GAUSS_SEIDEL_SOLVER"; }
  bool supports_coupling() const override { return true; }

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
    double residual2_prev = 0.0;  // sum |C_a|^2 of that iterate
    double scale2_prev = 0.0;     // max(h^2 |R|^2, |U|^2, |B|^2) of that iterate
    double rnorm2_prev = 0.0, unorm2_prev = 0.0;  // |R|^2, |U|^2 of that iterate
    bool diag_diverged = false;
    bool diag_failed = false;
    bool cohesion_broken = false;
  };
  // One pass over rows (all rows in index order when rows is null; else rows[0..count),
  // a stage of a coupled sweep, whose lag and merit bookkeeping then use visit_ and B_start_).
  // kOrdered (staged): the rows come in the order before_ was made for (kForward) or in its
  // reverse, so the lag needs no visit stamps.
  template <bool kForward, bool kStaged, bool kOrdered = false>
  void Sweep(BlockProblem& problem, SweepSums& sums, const int* rows = nullptr, int count = 0);
  // The rows of one stage of a coupled sweep (solfec-mpi): those no other process sees and
  // those whose B the exchanges change (ProcessCoupling::BoundaryRows), each sorted.
  struct Stage {
    std::vector<int> inner, boundary;
  };
  // One stage of a coupled sweep: the exchange of stage `index` starts (index < 0: the
  // whole exchange), Sweep<forward, true> over the inner rows, the exchange finishes, the
  // boundary rows (B_start_: see the definition). The caller advances stamp_ once per sweep.
  void SweepStage(ProcessCoupling& coupling, BlockProblem& problem, SweepSums& sums,
                  const Stage& stage, bool forward, int index, bool first);
  // A coupled sweep of several stages (SweepStage for each).
  void StagedSweep(ProcessCoupling& coupling, BlockProblem& problem, SweepSums& sums,
                   bool forward);
  // innerloops - 1 more sweeps of this process's rows without exchange; the iteration's
  // change is then that of R against the iterate it started from (kept in R_prev_).
  void InnerLoops(BlockProblem& problem, SweepSums& sums, bool forward);
  void PrepareStages(ProcessCoupling& coupling, const std::vector<std::vector<int>>& stages,
                     const BlockProblem& problem);
  void ReduceSweepSums(ProcessCoupling& coupling, SweepSums& sums,
                       std::vector<double>& extra) const;

  // How an iteration sweeps the rows and sums its statistics: SerialSweeps (every row, in
  // index order or its reverse) or CoupledSweeps (solfec-mpi: stages between exchanges with
  // the other processes; gauss_seidel_coupled.cc). Iterate runs Alg. 9.1's loop on either.
  class Sweeps {
   public:
    explicit Sweeps(ProcessCoupling& c) : coupling(c) {}
    virtual ~Sweeps() = default;
    // One iteration (`iteration` = 0, 1, ...): every row swept once.
    virtual void Sweep(BlockProblem& problem, SweepSums& sums, bool forward, int iteration) = 0;
    // The iteration's sums, and `extra` values, over all processes (serial: as they are).
    virtual void Reduce(SweepSums& sums, std::vector<double>& extra) = 0;
    // No other process takes part (an empty problem may return at once).
    virtual bool alone() const = 0;
    // Before the first iteration (after Prepare).
    virtual void Begin(BlockProblem&) {}
    // Variant 'SIMPLIFIED' (solfec-mpi): the first iteration sweeps the contact rows only,
    // the later ones the other rows only; others(): some process has other rows.
    virtual bool contacts_first() const { return false; }
    virtual bool others() const { return true; }
    ProcessCoupling& coupling;  // the exchanges and sums (SerialCoupling: none)
  };
  class SerialSweeps;
  class CoupledSweeps;
  // Options check, assembly, Prepare, Iterate, failure policy.
  SolverStats Run(BlockProblem& problem, Sweeps& sweeps);
  void Prepare(BlockProblem& problem, ProcessCoupling& coupling);
  SolverStats Iterate(BlockProblem& problem, Sweeps& sweeps);

  GaussSeidelOptions options_;
  FailureCallback callback_;
  SolverStats last_stats_;
  // Per-Solve work arrays, reused between calls (no allocation in the sweeps).
  std::vector<Mat3> W_inv_;
  std::vector<Vec3> R_prev_;  // the previous iterate, written row by row during a sweep
  std::vector<std::uint8_t> singular_;
  int num_singular_ = 0;
  bool first_sweep_ = true;  // the warm start need not lie in FC
  std::vector<Stage> stages_;             // coupled sweeps (solfec-mpi): one per exchange
  std::vector<int> boundary_;             // rows whose B the exchanges change (sorted)
  std::vector<int> visit_;                // the sweep (stamp_) that last visited a row
  std::vector<char> before_;  // per W block (a, c): c precedes a in a forward staged sweep
  int stamp_ = 0;
  std::vector<Vec3> B_start_;  // B of the previous iterate (SweepStage)
  std::vector<Vec3> S_iter_;   // InnerLoops: the iterate the global iteration started from
  double denominator_ = 1.0;
  double bnorm2_ = 0.0;  // |B|^2 (part of the residual test's scale)
  double rscale_ = 1.0;  // ResidualScale of the problem (h, or 1)
  double residual_tol_ = 0.0;  // the residual test's bound (0: off)
  DiagOptions diag_;
  double omega_ = 1.0;
  // Anderson step on problem.R = G(S) (see GaussSeidelOptions::anderson), S = `start`.
  // AndersonProducts: this process's inner products and |G(S) - S|^2 last (summed by the
  // caller under solfec-mpi); Accelerate: the step.
  void AndersonProducts(BlockProblem& problem, std::vector<Vec3>& start,
                        std::vector<double>& products);
  void Accelerate(BlockProblem& problem, const std::vector<double>& products);
  // Anderson state: ring buffer of the last depth_ differences dF_, dG_ (columns).
  int depth_ = 0, history_ = 0, next_slot_ = 0;
  double fnorm_prev_ = 0.0;
  bool have_prev_ = false;
  VecX f_, g_prev_, f_prev_;
  std::vector<Vec3> R_pair_;  // reverse: R at the start of a forward + backward pair
  MatX dF_, dG_;
};

}  // namespace solfec::solvers
