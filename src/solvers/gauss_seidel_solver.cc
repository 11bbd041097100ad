// Nonlinear block Gauss-Seidel (manual Alg. 9.1): row sweeps over 3x3 diagonal problems
// with the merit of the previous iterate evaluated inside the same sweep.
#include "solvers/gauss_seidel_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "base/errors.h"
#include "solvers/friction_cone.h"
#include "solvers/merit.h"

namespace solfec::solvers {

namespace {

[[noreturn]] void ThrowOption(const char* arg, double value, const char* fix) {
  std::ostringstream msg;
  msg << "GAUSS_SEIDEL_SOLVER: invalid " << arg << " = " << value << " (argument '" << arg
      << "'); " << fix;
  throw InputError(msg.str());
}

// The projection P on the law's admissible set: FC for contacts (shifted by the cohesion
// while cohesive), everything for equality laws.
Vec3 Admissible(const Law& law, Vec3 R) {
  if (law.kind == LawKind::kSpring) return Vec3(0.0, 0.0, R.z());  // R_T = 0
  if (law.kind != LawKind::kSignoriniCoulomb) return R;
  if (law.cohesive) {
    R.z() += law.cohesion;
    R = ProjectOnCone(R, law.friction);
    R.z() -= law.cohesion;
    return R;
  }
  return ProjectOnCone(R, law.friction);
}

// Over-relaxed block update R_old + omega (R_gs - R_old), brought back to the law's
// admissible set (the friction cone, shifted by the cohesion while cohesive).
Vec3 Relax(const Law& law, const Vec3& R_old, const Vec3& R_gs, double omega) {
  return Admissible(law, R_old + omega * (R_gs - R_old));
}

}  // namespace

// ---------------------------------------------------------------- options

double GaussSeidelOptions::resolved_diagepsilon() const {
  if (diagepsilon >= 0.0) return diagepsilon;
  return std::min({epsilon, meritval, 1e-4}) / 100.0;
}

int GaussSeidelOptions::resolved_diagmaxiter() const {
  if (diagmaxiter >= 0) return diagmaxiter;
  return std::max(100, maxiter / 100);
}

void GaussSeidelOptions::Validate() const {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon)) {
    ThrowOption("epsilon", epsilon, "pass a relative accuracy > 0 such as 1e-4");
  }
  if (maxiter < 1) ThrowOption("maxiter", maxiter, "pass an iteration limit >= 1");
  if (!(meritval > 0.0) || !std::isfinite(meritval)) {
    ThrowOption("meritval", meritval, "pass a merit value > 0 such as 1e-3 (>= 1: off)");
  }
  if (diagepsilon == 0.0 || std::isnan(diagepsilon) || std::isinf(diagepsilon)) {
    ThrowOption("diagepsilon", diagepsilon, "pass a relative accuracy > 0 (or omit it)");
  }
  if (diagmaxiter == 0) ThrowOption("diagmaxiter", diagmaxiter, "pass a limit >= 1 (or omit it)");
  if (!(omega > 0.0 && omega < 2.0)) {
    ThrowOption("omega", omega, "pass a relaxation factor in (0, 2); 1 is plain Gauss-Seidel");
  }
  const int stopping_value = static_cast<int>(stopping);
  if (stopping_value < 0 || stopping_value > static_cast<int>(Stopping::kResidual)) {
    ThrowOption("stopping", stopping_value, "use 'BOTH', 'EITHER' or 'RESIDUAL'");
  }
  if (innerloops < 1) ThrowOption("innerloops", innerloops, "pass 1 or more sweeps per iteration");
  if (anderson < 0 || anderson > kMaxAnderson) {
    ThrowOption("anderson", anderson, "pass an acceleration depth in [0, 50]; 0 turns it off");
  }
  if (!(residual >= 0.0) || !std::isfinite(residual)) {
    ThrowOption("residual", residual, "pass a relative residual >= 0 such as 1e-6 (0: off)");
  }
  const int failure_value = static_cast<int>(failure);
  if (failure_value < 0 || failure_value > static_cast<int>(Failure::kCallback)) {
    ThrowOption("failure", failure_value, "use 'CONTINUE', 'EXIT' or 'CALLBACK'");
  }
  const int diag_value = static_cast<int>(diagsolver);
  if (diag_value < 0 || diag_value > static_cast<int>(DiagSolver::kProjectedNewton)) {
    ThrowOption("diagsolver", diag_value,
                "use 'SEMISMOOTH_NEWTON', 'PROJECTED_GRADIENT', 'DE_SAXCE_FENG' or "
                "'PROJECTED_NEWTON'");
  }
}

// ---------------------------------------------------------------- solver

GaussSeidelSolver::GaussSeidelSolver(const GaussSeidelOptions& options) {
  set_options(options);
}

void GaussSeidelSolver::set_options(const GaussSeidelOptions& options) {
  options.Validate();
  options_ = options;
}

// The sweeps of a serial solve: every row in index order (backward: reversed).
class GaussSeidelSolver::SerialSweeps final : public GaussSeidelSolver::Sweeps {
 public:
  SerialSweeps(GaussSeidelSolver& gs, ProcessCoupling& none) : Sweeps(none), gs_(gs) {}
  void Sweep(BlockProblem& problem, SweepSums& sums, bool forward, int) override {
    if (forward) {
      gs_.Sweep<true, false>(problem, sums);
    } else {
      gs_.Sweep<false, false>(problem, sums);
    }
  }
  void Reduce(SweepSums&, std::vector<double>&) override {}
  bool alone() const override { return true; }

 private:
  GaussSeidelSolver& gs_;
};

SolverStats GaussSeidelSolver::Solve(BlockProblem& problem) {
  SerialCoupling none;
  SerialSweeps sweeps(*this, none);
  return Run(problem, sweeps);
}

SolverStats GaussSeidelSolver::Run(BlockProblem& problem, Sweeps& sweeps) {
  options_.Validate();
  problem.EnsureAssembled();  // the sweeps need the off-diagonal blocks
  problem.Validate(name());
  Prepare(problem, sweeps.coupling);
  last_stats_ = Iterate(problem, sweeps);
  RecordIters(last_stats_.iters);
  // Keep the statistics (with the policy outcome) even when the policy throws.
  try {
    ApplyFailurePolicy(last_stats_);
  } catch (...) {
    last_stats_.stop_run = true;
    throw;
  }
  return last_stats_;
}

// Per-Solve precomputation: diagonal inverses, merit denominator, work arrays.
void GaussSeidelSolver::Prepare(BlockProblem& problem, ProcessCoupling& coupling) {
  const int n = problem.size();
  if (problem.R.empty()) problem.R.assign(n, Vec3::Zero());
  num_singular_ = InvertDiagonalBlocks(problem, W_inv_);
  singular_.assign(n, 0);
  if (num_singular_ > 0) {
    for (int a = 0; a < n; ++a) singular_[a] = W_inv_[a].isZero(0.0) ? 1 : 0;
  }
  bnorm2_ = 0.0;
  for (const Vec3& b : problem.B) bnorm2_ += b.squaredNorm();
  std::vector<double> sums{MeritDenominatorSum(problem.B, W_inv_), bnorm2_};
  coupling.Sum(sums);  // over all processes (solfec-mpi)
  denominator_ = MeritDenominatorOfSum(sums[0]);
  bnorm2_ = sums[1];
  rscale_ = ResidualScale(problem);
  residual_tol_ = options_.stopping == GaussSeidelOptions::Stopping::kResidual
                      ? std::max(options_.epsilon, options_.residual)
                      : options_.residual;
  R_prev_.resize(n);
  omega_ = options_.omega;
  depth_ = options_.anderson;
  // AndersonProducts starts a fresh history (all sizes consistent also with no rows)
  f_.resize(0);
  g_prev_.resize(0);
  f_prev_.resize(0);
  dF_.resize(0, depth_);
  dG_.resize(0, depth_);
  history_ = next_slot_ = 0;  // (also when this process has no rows: solfec-mpi)
  have_prev_ = false;
  diag_.kind = options_.diagsolver;
  diag_.epsilon = options_.resolved_diagepsilon();
  diag_.maxiter = options_.resolved_diagmaxiter();
}

// One sweep of Alg. 9.1 (lines 2-5). For row a, rhs = B_a + sum_{b != a} W_ab R_b uses the
// latest reactions; the rows already updated in this sweep also contribute to `lag`, so
// that rhs - lag + W_aa S_a is U_a of the iterate S the sweep started from, whose merit
// (eq. 8.1) is thus accumulated at no extra pass over W.
template <bool kForward, bool kStaged, bool kOrdered>
void GaussSeidelSolver::Sweep(BlockProblem& problem, SweepSums& sums, const int* rows,
                              int count) {
  const char* before = kOrdered ? before_.data() : nullptr;
  const int n = kStaged ? count : problem.size();
  const int* row_ptr = problem.row_ptr.data();
  const int* col = problem.col.data();
  const Mat3* W = problem.W.data();
  const Vec3* B = problem.B.data();
  Vec3* R = problem.R.data();
  Vec3* S = R_prev_.data();
  Law* laws = problem.laws.data();
  const Mat3* W_inv = W_inv_.data();
  double change2 = 0.0, norm2 = 0.0, merit = 0.0, residual2 = 0.0, rnorm2 = 0.0, unorm2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const int a = kStaged ? rows[kForward ? i : n - 1 - i] : (kForward ? i : n - 1 - i);
    const int k0 = row_ptr[a], k1 = row_ptr[a + 1];
    // Off-diagonal products with the latest reactions (and the lag of updated rows), in
    // scalars so that the six accumulators stay in registers (W is column-major).
    double r0 = B[a].x(), r1 = B[a].y(), r2 = B[a].z();
    double l0 = 0.0, l1 = 0.0, l2 = 0.0;
    for (int k = k0 + 1; k < k1; ++k) {
      const int c = col[k];
      const double* w = W[k].data();
      const double x0 = R[c].x(), x1 = R[c].y(), x2 = R[c].z();
      r0 += w[0] * x0 + w[3] * x1 + w[6] * x2;
      r1 += w[1] * x0 + w[4] * x1 + w[7] * x2;
      r2 += w[2] * x0 + w[5] * x1 + w[8] * x2;
      const bool updated = kOrdered  ? (kForward ? before[k] != 0 : before[k] == 0)
                           : kStaged ? visit_[c] == stamp_
                                     : (kForward ? c < a : c > a);
      if (updated) {
        const double d0 = x0 - S[c].x(), d1 = x1 - S[c].y(), d2 = x2 - S[c].z();
        l0 += w[0] * d0 + w[3] * d1 + w[6] * d2;
        l1 += w[1] * d0 + w[4] * d1 + w[7] * d2;
        l2 += w[2] * d0 + w[5] * d1 + w[8] * d2;
      }
    }
    const Vec3 rhs(r0, r1, r2), lag(l0, l1, l2);
    const Mat3& W_aa = W[k0];
    const Vec3 R_old = R[a];
    S[a] = R_old;
    // Merit share of the previous iterate; after the first sweep R_old is a diagonal
    // solver output, hence in FC.
    Vec3 U_old = rhs - lag + W_aa * R_old;
    if (kStaged) {  // B moved by this sweep's earlier exchanges: back to the sweep's start
      U_old += B_start_[a] - B[a];
      if (!kOrdered) visit_[a] = stamp_;
    }
    const Vec3 C = RowResidual(laws[a], W_aa, U_old, R_old, !first_sweep_);
    merit += C.dot(W_inv[a] * C);
    if (rscale_ == 1.0 || residual_tol_ == 0.0) {  // (unused when the test is off)
      residual2 += C.squaredNorm();
    } else {  // in the impulse r = h R
      residual2 +=
          RowResidual(laws[a], W_aa, U_old, R_old, !first_sweep_, rscale_).squaredNorm();
    }
    rnorm2 += R_old.squaredNorm();
    unorm2 += U_old.squaredNorm();
    // Diagonal problem (line 4).
    Vec3 R_new = R_old;
    if (num_singular_ > 0 && singular_[a]) {
      R_new.setZero();
      sums.diag_failed = true;
    } else {
      const bool cohesive = laws[a].cohesive;
      const DiagResult result = SolveDiagonalBlock(laws[a], W_aa, W_inv[a], rhs, diag_, R_new);
      if (result.status == DiagStatus::kDiverged) sums.diag_diverged = true;
      if (result.status == DiagStatus::kFailed) sums.diag_failed = true;
      if (cohesive && !laws[a].cohesive) sums.cohesion_broken = true;
      if (omega_ != 1.0) R_new = Relax(laws[a], R_old, R_new, omega_);
    }
    R[a] = R_new;
    change2 += (R_new - R_old).squaredNorm();
    norm2 += R_new.squaredNorm();
  }
  sums.change2 += change2;
  sums.norm2 += norm2;
  sums.merit_prev += merit / denominator_;
  sums.residual2_prev += residual2;
  sums.rnorm2_prev += rnorm2;
  sums.unorm2_prev += unorm2;
  sums.scale2_prev =
      std::max({rscale_ * rscale_ * sums.rnorm2_prev, sums.unorm2_prev, bnorm2_});
}

// The staged sweeps of gauss_seidel_coupled.cc.
template void GaussSeidelSolver::Sweep<true, true, false>(BlockProblem&, SweepSums&, const int*,
                                                          int);
template void GaussSeidelSolver::Sweep<false, true, false>(BlockProblem&, SweepSums&,
                                                           const int*, int);
template void GaussSeidelSolver::Sweep<true, true, true>(BlockProblem&, SweepSums&, const int*,
                                                         int);
template void GaussSeidelSolver::Sweep<false, true, true>(BlockProblem&, SweepSums&, const int*,
                                                          int);

// The loop of Alg. 9.1. 'BOTH' (Solfec-1.0): `while |S - R| / |R| > epsilon or g(R) >
// meritval` (the merit test off for meritval >= 1); 'EITHER': `while |S - R| / |R| > epsilon
// and g(R) > meritval`. The merit of iterate k is known after sweep k + 1; if it already
// ends the loop, iterate k (kept in R_prev_) is restored, so the result equals the plain
// algorithm's.
SolverStats GaussSeidelSolver::Iterate(BlockProblem& problem, Sweeps& sweeps) {
  SolverStats stats;
  const int n = problem.size();
  if (n == 0 && sweeps.alone()) {
    stats.converged = true;
    problem.U.clear();
    problem.merit.clear();
    return stats;
  }
  sweeps.Begin(problem);
  const bool simplified = sweeps.contacts_first();  // (solfec-mpi)
  const bool anderson = depth_ > 0 && !simplified;
  // reverse: forward and backward sweeps alternate, so Anderson accelerates the map of a
  // forward + backward pair (from R_pair_, the pair's start), not each sweep (a history
  // mixing two maps diverged: brick wall on 3 ranks).
  const bool paired = anderson && options_.reverse;
  std::vector<double> products;  // Anderson's inner products (AndersonProducts)
  stats.rerhist.reserve(std::min(options_.maxiter, 4096));
  stats.merhist.reserve(std::min(options_.maxiter, 4096));
  bool forward = true;
  bool nonfinite = false;
  const bool both = options_.stopping == GaussSeidelOptions::Stopping::kBoth;
  // 'RESIDUAL': the residual test alone (no relative change, no merit test)
  const bool residual_only = options_.stopping == GaussSeidelOptions::Stopping::kResidual;
  const bool merit_test = !residual_only && (!both || options_.meritval < 1.0);  // nomerit
  SweepSums last, previous;
  while (true) {
    previous = last;
    last = SweepSums();
    first_sweep_ = stats.iters == 0;
    if (paired && forward) R_pair_ = problem.R;
    // Anderson after this sweep: every sweep, or (paired) after the backward one.
    const bool accelerate = anderson && (!paired || !forward);
    sweeps.Sweep(problem, last, forward, stats.iters);  // lines 2-5
    if (options_.reverse) forward = !forward;
    // Anderson's inner products (used only if the loop goes on) and the sweep's sums are
    // taken over all processes in one reduction (solfec-mpi).
    products.clear();
    if (accelerate) AndersonProducts(problem, paired ? R_pair_ : R_prev_, products);
    sweeps.Reduce(last, products);
    ++stats.iters;
    const double rel = last.norm2 > 0.0 ? std::sqrt(last.change2 / last.norm2)
                                        : (last.change2 > 0.0 ? 1.0 : 0.0);
    if (!std::isfinite(rel) || !std::isfinite(last.merit_prev)) {
      nonfinite = true;
      stats.relative_error = rel;
      break;
    }
    if (simplified && stats.iters == 1) {  // the contact sweep: its reactions stay
      stats.rerhist.push_back(rel);
      stats.relative_error = rel;
      if (!sweeps.others()) {
        stats.converged = true;
        break;
      }
      if (stats.iters >= options_.maxiter) break;
      continue;
    }
    if (stats.iters >= 2) {
      stats.merhist.push_back(last.merit_prev);
      const bool residual_met = residual_tol_ > 0.0 && last.scale2_prev > 0.0 &&
                                last.residual2_prev <= residual_tol_ * residual_tol_ *
                                                           last.scale2_prev;
      // Iterate k = iters - 1: its merit is known now, its change is rerhist.back().
      const bool merit_met = merit_test && last.merit_prev <= options_.meritval &&
                             (!both || stats.rerhist.back() <= options_.epsilon);
      if (merit_met || residual_met) {
        stats.converged = true;
        if (!last.cohesion_broken && !simplified) {
          // Restore iterate k = iters - 1 (its statistics are complete already).
          std::copy(R_prev_.begin(), R_prev_.end(), problem.R.begin());
          --stats.iters;
          stats.relative_error = stats.rerhist.back();
          last = previous;
          break;
        }
      }
    }
    stats.rerhist.push_back(rel);
    stats.relative_error = rel;
    if (stats.converged ||
        (!residual_only && rel <= options_.epsilon && !(both && merit_test))) {
      stats.converged = true;
      break;
    }
    // The accelerated point is iterate k (the next sweep starts from it; at maxiter it is
    // returned), so merhist and a run cut at maxiter = k agree.
    if (accelerate) Accelerate(problem, products);
    if (stats.iters >= options_.maxiter) break;
  }
  // Final state: U = B + W R and per-row merits of the returned iterate.
  sweeps.coupling.Exchange(problem);  // (solfec-mpi) B consistent with the returned R
  {  // the merit and the relative residual (RelativeResidual) of the returned iterate
    std::vector<double> v{ComputeMerit(problem, W_inv_, denominator_)};
    const std::array<double, 4> r = RelativeResidualSums(problem);
    v.insert(v.end(), r.begin(), r.end());
    sweeps.coupling.Sum(v);  // one reduction (solfec-mpi)
    stats.merit = v[0];
    stats.residual = RelativeResidualOfSums({v[1], v[2], v[3], v[4]});
  }
  if (stats.merhist.size() < stats.rerhist.size()) stats.merhist.push_back(stats.merit);
  if (!stats.converged && !nonfinite && merit_test && stats.merit <= options_.meritval &&
      (!both || stats.relative_error <= options_.epsilon))
    stats.converged = true;
  if (!stats.converged && !nonfinite && residual_tol_ > 0.0 && stats.residual <= residual_tol_)
    stats.converged = true;  // (the maxiter-th sweep met the residual test)
  if (nonfinite || !std::isfinite(stats.merit)) {
    stats.converged = false;
    stats.error = "DIVERGED";
  } else if (!stats.converged) {
    stats.error = "DIVERGED";
  } else if (last.diag_failed) {
    stats.error = "DIAGONAL_FAILED";
  } else if (last.diag_diverged) {
    stats.error = "DIAGONAL_DIVERGED";
  }
  return stats;
}

// Anderson acceleration (type II, depth m) of the sweep map G: x = `start` is the iterate
// the sweep (reverse: the forward + backward pair) started from, g = problem.R = G(x),
// f = g - x. With the last m differences
// dF, dG: gamma = argmin |f - dF gamma|, x_next = g - dG gamma, projected row by row on
// the laws' admissible sets. The history restarts when |f| grows (an active set change).
//
// AndersonProducts: f, the newest differences (written into the next slot of the history;
// a restart discards them), and this process's share of dF^T dF and dF^T f over the columns
// the history will hold, then |f|^2 (products: m^2 + m + 1 values, m = 0 when it holds
// none yet); under solfec-mpi they are summed over the processes with the sweep's sums (one
// reduction).
void GaussSeidelSolver::AndersonProducts(BlockProblem& problem, std::vector<Vec3>& start,
                                         std::vector<double>& products) {
  const int n = problem.size(), N = 3 * n;
  using Map = Eigen::Map<VecX>;
  // (reinterpret_cast: a process of solfec-mpi may hold no rows, and then [0] is invalid)
  Map x(reinterpret_cast<double*>(start.data()), N);
  Map g(reinterpret_cast<double*>(problem.R.data()), N);
  if (static_cast<int>(f_.size()) != N) {
    f_.resize(N);
    g_prev_.resize(N);
    f_prev_.resize(N);
    dF_.resize(N, depth_);
    dG_.resize(N, depth_);
    history_ = next_slot_ = 0;
    have_prev_ = false;
  }
  f_ = g - x;
  products.clear();
  if (have_prev_) {
    dF_.col(next_slot_) = f_ - f_prev_;
    dG_.col(next_slot_) = g - g_prev_;
    const int m = std::min(history_ + 1, depth_);
    products.resize(static_cast<size_t>(m) * m + m);
    Eigen::Map<MatX>(products.data(), m, m).noalias() =
        dF_.leftCols(m).transpose() * dF_.leftCols(m);
    Eigen::Map<VecX>(products.data() + m * m, m).noalias() = dF_.leftCols(m).transpose() * f_;
  }
  products.push_back(f_.squaredNorm());
}

// The step itself, after AndersonProducts (its last value: |f|^2 over all processes).
void GaussSeidelSolver::Accelerate(BlockProblem& problem, const std::vector<double>& products) {
  const int n = problem.size(), N = 3 * n;
  const double fnorm = std::sqrt(products.back());
  Eigen::Map<VecX> g(reinterpret_cast<double*>(problem.R.data()), N);
  const bool restart = have_prev_ && fnorm > fnorm_prev_;
  if (restart) {
    history_ = next_slot_ = 0;
  } else if (have_prev_) {  // keep the newest differences
    next_slot_ = (next_slot_ + 1) % depth_;
    history_ = std::min(history_ + 1, depth_);
  }
  f_prev_ = f_;
  g_prev_ = g;
  fnorm_prev_ = fnorm;
  have_prev_ = true;
  if (history_ == 0) return;
  const int m = history_;
  MatX AtA = Eigen::Map<const MatX>(products.data(), m, m);
  const VecX Atf = Eigen::Map<const VecX>(products.data() + m * m, m);
  AtA.diagonal().array() += 1e-14 * AtA.diagonal().maxCoeff() + 1e-300;
  const VecX gamma = AtA.ldlt().solve(Atf);
  if (!gamma.allFinite()) {
    history_ = next_slot_ = 0;
    return;
  }
  g.noalias() -= dG_.leftCols(m) * gamma;
  for (int a = 0; a < n; ++a) problem.R[a] = Admissible(problem.laws[a], problem.R[a]);
}

// ---------------------------------------------------------------- failure policy

std::string GaussSeidelSolver::FailureMessage(const SolverStats& stats) {
  std::ostringstream msg;
  msg << "GAUSS_SEIDEL_SOLVER: ";
  if (stats.error == "DIVERGED") {
    msg << "did not converge in " << stats.iters << " iterations (merit " << stats.merit
        << ", relative error " << stats.relative_error
        << "); increase maxiter or relax epsilon/meritval";
  } else {
    msg << "diagonal block solver " << (stats.error == "DIAGONAL_FAILED" ? "failed" : "diverged")
        << " (" << stats.error << ") after " << stats.iters << " iterations (merit "
        << stats.merit << "); increase diagmaxiter or try another diagsolver";
  }
  return msg.str();
}

void GaussSeidelSolver::ApplyFailurePolicy(SolverStats& stats) const {
  if (stats.error == "OK") return;
  stats.message = FailureMessage(stats);
  switch (options_.failure) {
    case GaussSeidelOptions::Failure::kContinue:
      return;
    case GaussSeidelOptions::Failure::kCallback:
      if (callback_) {
        stats.stop_run = !callback_(stats);
        return;
      }
      [[fallthrough]];  // no callback set: the 'EXIT' scenario (manual 4.1.9)
    case GaussSeidelOptions::Failure::kExit:
      stats.stop_run = true;
      throw SolverError(stats.message);
  }
}

}  // namespace solfec::solvers
