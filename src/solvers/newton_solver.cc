// NEWTON_SOLVER: semismooth Newton on the Alart-Curnier function with GMRES and a
// nonmonotone line search (manual 4.1.11); Gauss-Seidel fallback.
#include "solvers/newton_solver.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>

#include "base/errors.h"
#include "solvers/equality_direct.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/merit.h"

namespace solfec::solvers {

namespace {

// GMRES restart cycles per Newton step; a cycle that does not lower the linear residual
// ends the step (J is nearly singular on rank-deficient W, src/solvers/README.md).
constexpr int kMaxCycles = 10;
constexpr double kArmijo = 1e-4;       // sufficient decrease of the line search
constexpr double kMinStep = 1e-10;     // smallest line search step before 'no progress'
constexpr int kMaxCohesionPasses = 8;  // re-solves after cohesive bonds break
// Proximal factor p (x options.proximal): starts at 0 (plain Newton), set to 1 after the
// first damped step, non-decreasing step or failed line search, doubled after later ones up
// to kProxMax, x0.8 after a full step that lowered |C|, dropped to 0 below kProxMin
// (0.5 and 0.25 made fe-200 of the FCLIB benchmark 2-3x slower, see src/solvers/README.md).
constexpr double kProxUp = 2.0, kProxDown = 0.8, kProxMin = 1e-3, kProxMax = 10.0;
// Smoothing (NewtonOptions::smoothing) after this many Newton iterations without halving
// the best merit so far.
constexpr int kStallWindow = 4;

void Fail(const char* arg, const std::string& what) {
  throw InputError(std::string("NEWTON_SOLVER: ") + what + " (argument '" + arg + "')");
}

Vec3 Get(const VecX& x, int a) { return x.segment<3>(3 * a); }

}  // namespace

void NewtonOptions::Validate() const {
  if (!(meritval > 0.0)) Fail("meritval", "must be > 0; use e.g. 1e-8");
  if (maxiter < 1) Fail("maxiter", "must be >= 1");
  if (linminiter < 0) Fail("linminiter", "must be >= 0");
  if (linmaxiter < 1) Fail("linmaxiter", "must be >= 1; use e.g. 10");
  if (!(resdec > 0.0 && resdec < 1.0)) Fail("epsilon", "must lie in (0, 1); use e.g. 0.25");
  if (!(delta >= 0.0) || !std::isfinite(delta)) Fail("delta", "must be >= 0");
  if (!(proximal >= 0.0) || !std::isfinite(proximal)) Fail("proximal", "must be >= 0");
  if (nonmonlength < 1) Fail("nonmonlength", "must be >= 1");
  if (smoothing < 0) Fail("smoothing", "must be >= 0 (0: off)");
  if (!(residual >= 0.0) || !std::isfinite(residual))
    Fail("residual", "must be >= 0 (0: off); use e.g. 1e-6");
}

NewtonSolver::NewtonSolver(const NewtonOptions& options) { set_options(options); }

void NewtonSolver::set_options(const NewtonOptions& options) {
  options.Validate();
  options_ = options;
}

double NewtonSolver::Residual(const BlockProblem& p, const std::vector<Vec3>& R, bool jacobian,
                              bool reuse_WR) {
  const int n = p.size();
  if (!reuse_WR) MultiplyWhole(p, R, U_);
  double phi = 0.0;
  for (int a = 0; a < n; ++a) {
    const Law& law = p.laws[a];
    const Vec3 U = U_[a] + p.B[a];
    Vec3 C = Vec3::Zero();
    Mat3 Dr = Mat3::Zero(), Du = Mat3::Zero();
    switch (law.kind) {
      case LawKind::kEquality:
        C = U - law.target;
        Du.setIdentity();
        break;
      case LawKind::kNormalEquality:
        C = Vec3(R[a].x(), R[a].y(), U.z() - law.target.z());
        Dr(0, 0) = Dr(1, 1) = 1.0;
        Du(2, 2) = 1.0;
        break;
      case LawKind::kSpring: {
        // d = R_N - f - s (U_N - U0) is the stop force; with stroke stops the normal row is
        // C_N = rho (U_N - mid(U_lo, U_N - d / rho, U_hi)) (d <= 0 at U_hi, >= 0 at U_lo,
        // else 0; 1/rho ~ W_NN maps force to velocity), which is C_N = d inside the stops:
        // dC = dR - s e_N e_N^T dU.
        const double d =
            R[a].z() - law.spring_force - law.spring_slope * (U.z() - law.spring_U0);
        const double rho = rho_[a], y = U.z() - d / rho;
        C = Vec3(R[a].x(), R[a].y(), d);
        Dr.setIdentity();
        Du(2, 2) = -law.spring_slope;
        if (y > law.spring_U_hi || y < law.spring_U_lo) {
          const double bound = y > law.spring_U_hi ? law.spring_U_hi : law.spring_U_lo;
          C.z() = rho * (U.z() - bound);
          Dr(2, 2) = 0.0;
          Du(2, 2) = rho;
        }
        break;
      }
      case LawKind::kSignoriniCoulomb: {
        const double rho = rho_[a], mu = law.friction;
        Vec3 Rs = R[a];
        if (law.cohesive) Rs.z() += law.cohesion;
        Vec3 Ub = U;
        Ub.z() += law.restitution * std::min(0.0, law.UN_prev);
        // Normal part: C_N = R_N - max(0, R_N - rho U_N).
        const double sN = Rs.z() - rho * Ub.z();
        if (sN > 0.0) {
          C.z() = rho * Ub.z();
          Du(2, 2) = rho;
        } else {
          C.z() = Rs.z();
          Dr(2, 2) = 1.0;
        }
        // Tangential part: C_T = R_T - proj_{disk(mu max(0, sN))}(R_T - rho U_T).
        const double r = mu * std::max(0.0, sN);
        const Eigen::Vector2d z(Rs.x() - rho * Ub.x(), Rs.y() - rho * Ub.y());
        const double nz = z.norm();
        if (nz <= r) {
          C.x() = rho * Ub.x();
          C.y() = rho * Ub.y();
          Du(0, 0) = Du(1, 1) = rho;
        } else {
          const Eigen::Vector2d t = z / nz;
          C.x() = Rs.x() - r * t.x();
          C.y() = Rs.y() - r * t.y();
          const Eigen::Matrix2d K = (r / nz) * (Eigen::Matrix2d::Identity() - t * t.transpose());
          Dr.topLeftCorner<2, 2>() = Eigen::Matrix2d::Identity() - K;
          Du.topLeftCorner<2, 2>() = rho * K;
          if (r > 0.0) {
            Dr.block<2, 1>(0, 2) = -mu * t;
            Du.block<2, 1>(0, 2) = mu * rho * t;
          }
        }
        break;
      }
    }
    C_[a] = C;
    phi += C.squaredNorm();
    if (!jacobian) continue;
    Dr_[a] = Dr;
    Du_[a] = Du;
    const double sigma = prox_ / rho_[a];
    const Mat3 J = Dr + Du * (p.W[p.row_ptr[a]] + sigma * Mat3::Identity()) +
                   options_.delta * Mat3::Identity();
    bool ok = false;
    Mat3 inv;
    J.computeInverseWithCheck(inv, ok, 1e-14 * std::max(1.0, J.cwiseAbs().maxCoeff()));
    M_[a] = ok ? inv : Mat3::Identity();
  }
  return 0.5 * coupling_->Sum(phi);
}

void NewtonSolver::MultiplyWhole(const BlockProblem& p, const std::vector<Vec3>& x,
                                 std::vector<Vec3>& y) {
  p.MultiplyW(x, y);
  coupling_->AddCrossProduct(p, x, y);
}

double NewtonSolver::Dot(const BlockProblem& p, Eigen::Ref<const VecX> a,
                         Eigen::Ref<const VecX> b) const {
  const double d = a.dot(b);
  return coupling_->Sum(d);
}

double NewtonSolver::Merit(BlockProblem& problem, double denominator) {
  problem.ComputeU();  // U = B + W R, plus the part of the other processes' rows
  coupling_->AddCrossProduct(problem, problem.R, problem.U);
  return coupling_->Sum(MeritFromU(problem, W_inv_, denominator));
}

double NewtonSolver::Relative(BlockProblem& problem) const {
  const std::array<double, 4> s = RelativeResidualSums(problem);
  std::vector<double> v(s.begin(), s.end());
  coupling_->Sum(v);
  return RelativeResidualOfSums({v[0], v[1], v[2], v[3]});
}

void NewtonSolver::MultiplyJ(const BlockProblem& p, const VecX& x, VecX& y) {
  const int n = p.size();
  work_.resize(n);
  for (int a = 0; a < n; ++a) work_[a] = Get(x, a);
  MultiplyWhole(p, work_, work2_);
  y.resize(3 * n);
  for (int a = 0; a < n; ++a)
    y.segment<3>(3 * a) = Dr_[a] * work_[a] +
                          Du_[a] * (work2_[a] + (prox_ / rho_[a]) * work_[a]) +
                          options_.delta * work_[a];
}

void NewtonSolver::Precondition(const VecX& x, VecX& y) const {
  y.resize(x.size());
  for (size_t a = 0; a < M_.size(); ++a) y.segment<3>(3 * a) = M_[a] * Get(x, a);
}

int NewtonSolver::Gmres(const BlockProblem& p, VecX& dR) {
  const int n = 3 * p.size(), m = options_.linmaxiter;
  VecX rhs(n);
  for (int a = 0; a < p.size(); ++a) rhs.segment<3>(3 * a) = -C_[a];
  const double rnorm0 = std::sqrt(Dot(p, rhs, rhs));
  dR.setZero(n);
  if (rnorm0 == 0.0) return 0;
  const double tol = options_.resdec * rnorm0;
  MatX V(n, m + 1), H = MatX::Zero(m + 1, m);
  VecX g(m + 1), cs(m), sn(m), w, z, r;
  int total = 0;
  double beta_prev = 0.0;
  for (int cycle = 0; cycle < kMaxCycles; ++cycle) {
    if (cycle == 0) {
      r = rhs;  // dR = 0: no product
    } else {
      MultiplyJ(p, dR, r);
      r = rhs - r;
    }
    double beta = std::sqrt(Dot(p, r, r));
    // A restart cycle that did not lower the residual: J is (nearly) singular on it.
    if (cycle > 0 && beta >= beta_prev) break;
    beta_prev = beta;
    if (beta <= tol && total >= options_.linminiter) break;
    if (beta <= 1e-15 * rnorm0) break;
    V.col(0) = r / beta;
    g.setZero();
    g(0) = beta;
    H.setZero();
    int k = 0;
    for (; k < m; ++k) {
      Precondition(V.col(k), z);
      MultiplyJ(p, z, w);
      for (int i = 0; i <= k; ++i) {  // modified Gram-Schmidt
        H(i, k) = Dot(p, V.col(i), w);
        w -= H(i, k) * V.col(i);
      }
      H(k + 1, k) = std::sqrt(Dot(p, w, w));
      if (H(k + 1, k) > 0.0) V.col(k + 1) = w / H(k + 1, k);
      for (int i = 0; i < k; ++i) {  // apply the earlier Givens rotations
        const double t = cs(i) * H(i, k) + sn(i) * H(i + 1, k);
        H(i + 1, k) = -sn(i) * H(i, k) + cs(i) * H(i + 1, k);
        H(i, k) = t;
      }
      const double den = std::hypot(H(k, k), H(k + 1, k));
      cs(k) = den > 0.0 ? H(k, k) / den : 1.0;
      sn(k) = den > 0.0 ? H(k + 1, k) / den : 0.0;
      H(k, k) = den;
      H(k + 1, k) = 0.0;
      g(k + 1) = -sn(k) * g(k);
      g(k) = cs(k) * g(k);
      ++total;
      const double res = std::abs(g(k + 1));
      if (res <= 1e-15 * rnorm0 || (res <= tol && total >= options_.linminiter) ||
          den == 0.0) {
        ++k;
        break;
      }
    }
    // y = H^-1 g on the k x k triangle; dR += M^-1 V y.
    VecX y = g.head(k);
    for (int i = k - 1; i >= 0; --i) {
      for (int j = i + 1; j < k; ++j) y(i) -= H(i, j) * y(j);
      y(i) = H(i, i) != 0.0 ? y(i) / H(i, i) : 0.0;
    }
    Precondition(V.leftCols(k) * y, z);
    dR += z;
    const double res = std::abs(g(k));
    if (res <= 1e-15 * rnorm0 || (res <= tol && total >= options_.linminiter)) break;
  }
  return total;
}

void NewtonSolver::RaiseProximal() {
  prox_ = prox_ == 0.0 ? options_.proximal
                       : std::min(prox_ * kProxUp, kProxMax * options_.proximal);
}

bool NewtonSolver::Smooth(BlockProblem& problem, SolverStats& stats, double& merit) {
  const int sweeps = std::min(smoothing_next_, options_.maxiter - stats.iters);
  smoothing_next_ = std::min(2 * smoothing_next_, options_.maxiter);  // doubles per round
  if (sweeps < 1) return false;
  GaussSeidelOptions o;
  o.meritval = options_.meritval;
  o.epsilon = 1e-14;  // stop on the merit (or the sweep count) only
  o.stopping = GaussSeidelOptions::Stopping::kEither;
  o.diagepsilon = std::min(options_.meritval, 1e-4) / 100.0;
  o.maxiter = sweeps;
  o.residual = options_.residual;
  GaussSeidelSolver gs(o);
  const SolverStats g = GaussSeidel(gs, problem);
  problem.B = B0_;  // (solfec-mpi: its exchanges moved the others' R into B)
  smoothing_sweeps_ += g.iters;
  stats.iters += g.iters;
  stats.merhist.insert(stats.merhist.end(), g.merhist.begin(), g.merhist.end());
  stats.mvhist.insert(stats.mvhist.end(), g.iters, 0);  // no GMRES products in a sweep
  merit = Merit(problem, denominator_);
  return g.iters > 0;
}

SolverStats NewtonSolver::GaussSeidel(GaussSeidelSolver& gs, BlockProblem& problem) {
  return coupled_ ? gs.SolveCoupled(problem, *coupling_) : gs.Solve(problem);
}

SolverStats NewtonSolver::Solve(BlockProblem& problem) {
  coupling_ = &serial_;
  coupled_ = false;
  return Run(problem);
}

SolverStats NewtonSolver::SolveCoupled(BlockProblem& problem, ProcessCoupling& coupling) {
  coupling_ = &coupling;
  coupled_ = true;
  try {
    const SolverStats stats = Run(problem);
    coupling_ = &serial_;
    coupled_ = false;
    return stats;
  } catch (...) {
    coupling_ = &serial_;
    coupled_ = false;
    throw;
  }
}

SolverStats NewtonSolver::Run(BlockProblem& problem) {
  problem.Validate("NEWTON_SOLVER");
  const int n = problem.size();
  for (int a = 0; a < n; ++a)
    if (problem.laws[a].kind == LawKind::kSignoriniCoulomb && problem.laws[a].spring_dashpot)
      throw InputError("NEWTON_SOLVER: a contact has SURFACE_MATERIAL model 'SPRING_DASHPOT' "
                       "(argument 'solver'); use PENALTY_SOLVER or model 'SIGNORINI_COULOMB'");
  if (static_cast<int>(problem.R.size()) != n) problem.R.assign(n, Vec3::Zero());
  fell_back_ = false;
  linear_iters_ = 0;
  smoothing_sweeps_ = 0;
  smoothing_next_ = options_.smoothing;
  SolverStats stats;
  // Only linear equality rows: the Newton step is that linear system, solved exactly (one
  // iteration; GMRES took hundreds on stiff supported FE bodies). Newton goes on from its
  // R if the merit is still above meritval (e.g. contradicting targets).
  if (!coupled_ && SolveEqualitiesDirectly(problem)) {  // (not per process)
    InvertDiagonalBlocks(problem, W_inv_);
    const double merit = ComputeMerit(problem, W_inv_, MeritDenominator(problem.B, W_inv_));
    if (merit <= options_.meritval ||
        (options_.residual > 0.0 && RelativeResidual(problem) <= options_.residual)) {
      stats.iters = 1;
      stats.merit = merit;
      stats.residual = RelativeResidual(problem);
      stats.converged = true;
      stats.merhist.push_back(merit);
      stats.mvhist.push_back(0);
      stats.row_merit = problem.merit;
      last_stats_ = stats;
      RecordIters(stats.iters);
      return stats;
    }
  }
  // locdyn 'OFF' (FE bodies): equality rows beside others (supports beside contacts) are
  // eliminated by their Schur complement (EqualityElimination) and the iterations run on
  // the other rows alone (the reduced problem has no equality rows, so it is not reduced
  // again). Newton goes on over all rows from the expanded R if the whole merit is still
  // above meritval.
  if (!coupled_ && problem.W_operator) {
    EqualityElimination elimination;
    BlockProblem reduced;
    if (elimination.Reduce(problem, reduced)) {
      SolverStats s = Run(reduced);
      elimination.Expand(reduced, problem);
      InvertDiagonalBlocks(problem, W_inv_);
      const double merit = ComputeMerit(problem, W_inv_, MeritDenominator(problem.B, W_inv_));
      if (merit <= options_.meritval) {
        s.merit = merit;
        s.residual = RelativeResidual(problem);
        s.converged = true;
        s.error = "OK";
        s.row_merit = problem.merit;
        last_stats_ = s;
        return s;
      }
    }
  }
  InvertDiagonalBlocks(problem, W_inv_);
  B0_ = problem.B;
  denominator_ = MeritDenominatorOfSum(coupling_->Sum(MeritDenominatorSum(problem.B, W_inv_)));
  const double denominator = denominator_;
  rho_.assign(n, 1.0);
  for (int a = 0; a < n; ++a) {
    const double tr = problem.W[problem.row_ptr[a]].trace();
    rho_[a] = tr > 0.0 ? 3.0 / tr : 1.0;
  }
  C_.resize(n);
  Dr_.resize(n);
  Du_.resize(n);
  M_.resize(n);
  std::vector<Vec3> trial(n);
  prox_ = 0.0;
  VecX dR;
  bool no_progress = false;
  // Stopping test: g(R) <= meritval or (residual on) RelativeResidual <= residual, on the
  // iterate whose U ComputeMerit has just set.
  auto met = [&](double merit) {
    return merit <= options_.meritval ||
           (options_.residual > 0.0 && Relative(problem) <= options_.residual);
  };
  for (int pass = 0; pass < kMaxCohesionPasses; ++pass) {
    double merit = Merit(problem, denominator);
    bool done = met(merit);
    double phi = Residual(problem, problem.R, true);
    std::deque<double> memory{phi};
    no_progress = false;
    double best = merit;  // stall test of the smoothing
    int stalled = 0;
    // Smoothing restarts Newton from the Gauss-Seidel iterate (plain matrix, fresh memory).
    auto smooth = [&]() {
      if (!Smooth(problem, stats, merit)) return false;
      done = met(merit);
      prox_ = 0.0;
      phi = Residual(problem, problem.R, true);
      memory.assign(1, phi);
      best = merit;
      stalled = 0;
      return true;
    };
    while (!done && stats.iters < options_.maxiter) {
      const int gmres_iters = Gmres(problem, dR);
      linear_iters_ += gmres_iters;
      const double ref = *std::max_element(memory.begin(), memory.end());
      double alpha = 1.0, phi_new = 0.0;
      for (;;) {
        for (int a = 0; a < n; ++a) trial[a] = problem.R[a] + alpha * Get(dR, a);
        phi_new = Residual(problem, trial, false);
        if (std::isfinite(phi_new) && phi_new <= ref - kArmijo * alpha * 2.0 * phi) break;
        alpha *= 0.5;
        if (alpha < kMinStep) break;
      }
      if (alpha < kMinStep) {
        // No progress: retry from the same iterate with a larger proximal factor.
        if (options_.proximal > 0.0 && prox_ < kProxMax * options_.proximal) {
          RaiseProximal();
          phi = Residual(problem, problem.R, true);
          continue;
        }
        if (options_.smoothing > 0 && smooth()) continue;
        no_progress = true;
        break;
      }
      problem.R.swap(trial);
      // Levenberg-Marquardt-like update of the proximal factor: larger after a damped step
      // or one that did not lower |C| (accepted by the nonmonotone rule; the regular matrix
      // keeps the steps in W's null space short), smaller after a full step that lowered |C|
      // (back to plain semismooth Newton and its fast local rate).
      if (alpha < 1.0 || phi_new >= phi) {
        RaiseProximal();
      } else {
        prox_ *= kProxDown;
        if (prox_ < kProxMin * options_.proximal) prox_ = 0.0;
      }
      ++stats.iters;
      merit = Merit(problem, denominator);
      done = met(merit);
      stats.merhist.push_back(merit);
      stats.mvhist.push_back(gmres_iters);
      // U_ = W R from the accepted trial of the line search: no new product with W.
      phi = Residual(problem, problem.R, true, true);
      memory.push_back(phi);
      if (static_cast<int>(memory.size()) > options_.nonmonlength) memory.pop_front();
      if (merit <= 0.5 * best) {
        best = merit;
        stalled = 0;
      } else if (++stalled >= kStallWindow && options_.smoothing > 0 && !done) {
        smooth();
      }
    }
    stats.merit = merit;
    // Cohesive contacts separating at R_N = -cohesion break; solve again without them.
    bool broken = false;
    for (int a = 0; a < n; ++a) {
      Law& law = problem.laws[a];
      if (law.kind != LawKind::kSignoriniCoulomb || !law.cohesive) continue;
      if (problem.R[a].z() + law.cohesion <= 1e-12 * std::max(1.0, law.cohesion)) {
        law.cohesive = false;
        broken = true;
      }
    }
    broken = coupling_->Sum(broken ? 1.0 : 0.0) > 0.0;  // (over all processes)
    if (!broken || no_progress || stats.iters >= options_.maxiter) break;
  }
  stats.merit = Merit(problem, denominator);
  stats.converged = met(stats.merit);
  stats.error = stats.converged ? "OK" : "DIVERGED";
  stats.row_merit = problem.merit;
  if (!stats.converged) {
    stats.message = std::string("NEWTON_SOLVER: ") +
                    (no_progress ? "no progress in the line search" : "no convergence") +
                    " after " + std::to_string(stats.iters) + " iterations (merit " +
                    std::to_string(stats.merit) + ")";
    if (options_.gsflag) {
      GaussSeidelOptions o;
      o.meritval = options_.meritval;
      o.epsilon = 1e-12;
      o.stopping = GaussSeidelOptions::Stopping::kEither;
      o.residual = options_.residual;
      o.maxiter = std::max(options_.maxiter, 1000);  // GS default at least
      GaussSeidelSolver gs(o);
      const SolverStats g = GaussSeidel(gs, problem);
      fell_back_ = true;
      stats.iters += g.iters;
      stats.merit = g.merit;
      stats.converged = g.converged;
      stats.error = g.error;
      stats.relative_error = g.relative_error;
      stats.rerhist = g.rerhist;
      stats.merhist.insert(stats.merhist.end(), g.merhist.begin(), g.merhist.end());
      stats.row_merit = g.row_merit;
      stats.message += "; continued by GAUSS_SEIDEL_SOLVER (gsflag 'ON'): " + g.error;
    }
  }
  coupling_->Exchange(problem);  // (solfec-mpi) B, U consistent with R
  problem.ComputeU();
  // Serial runs: the relative residual of the returned R (solfec-mpi: NaN, no extra sums).
  if (!coupled_) stats.residual = RelativeResidual(problem);
  last_stats_ = stats;
  RecordIters(stats.iters);
  return stats;
}

}  // namespace solfec::solvers
