// Penalty solver: spring-dashpot contacts (Alg. 7.1) and Gauss-Seidel bilateral rows (Alg. 9.4).
#include "solvers/penalty_solver.h"

#include <cmath>
#include <sstream>
#include <string>

#include "base/errors.h"

namespace solfec::solvers {

namespace {

[[noreturn]] void ThrowNoSpring(const Law& law, int row) {
  std::ostringstream msg;
  msg << "PENALTY_SOLVER: contact row " << row << " has SURFACE_MATERIAL spring = " << law.spring
      << (law.spring_dashpot ? "" : " (a 'SIGNORINI_COULOMB' interface, treated as "
                                    "'SPRING_DASHPOT' by the penalty solver)")
      << " (argument 'spring'); give every SURFACE_MATERIAL used with PENALTY_SOLVER a "
         "spring > 0 [N/m]";
  throw InputError(msg.str());
}

bool IsContact(const Law& law) { return law.kind == LawKind::kSignoriniCoulomb; }

}  // namespace

double CriticalDashpot(double stiffness, const Mat3& W, double h) {
  const double WNN = W(2, 2);
  if (!(WNN > 0.0) || !(stiffness > 0.0)) return 0.0;
  return 2.0 * std::sqrt(stiffness * h / WNN);
}

void SpringDashpotReaction(Law& law, const Mat3& W, const Vec3& B, double h,
                           PenaltyVariant variant, int row, Vec3& R) {
  if (!(law.spring > 0.0) || !std::isfinite(law.spring)) ThrowNoSpring(law, row);
  const double g = law.gap, p = law.hpow, s = law.spring;
  const double ag = std::abs(g);
  // Spring force f(g) = -s sgn(g) |g|^p and its stiffness k = -f'(g) = s p |g|^(p-1).
  const double f = p == 1.0 ? -s * g : -s * std::copysign(std::pow(ag, p), g);
  double k = s;
  if (p != 1.0) k = ag > 0.0 ? s * p * std::pow(ag, p - 1.0) : 0.0;
  const double d = law.dashpot < 0.0 ? CriticalDashpot(k, W, h) : law.dashpot;
  const double V = law.UN_prev;

  double RN;
  if (variant == PenaltyVariant::kImplicit) {
    const double BN = B.z() + W(2, 0) * R.x() + W(2, 1) * R.y();  // eq. 7.13
    RN = (f - k * 0.25 * h * (BN - V) - 0.5 * d * (BN + V)) /
         (1.0 + (k * 0.25 * h + 0.5 * d) * W(2, 2));  // eq. 7.14
  } else {
    RN = f - d * V;
  }
  if (!law.cohesive && RN < 0.0) {
    R.setZero();
    return;
  }
  // Sticking tangential reaction, eq. 7.15.
  Vec3 Rn(0.0, 0.0, RN);
  const Eigen::Matrix2d WTT = W.topLeftCorner<2, 2>();
  const double det = WTT.determinant();
  Eigen::Vector2d RT = Eigen::Vector2d::Zero();
  if (law.friction > 0.0 && det > 1e-14 * WTT.trace() * WTT.trace()) {
    const Eigen::Vector2d BT(B.x() + W(0, 2) * RN, B.y() + W(1, 2) * RN);
    RT = -WTT.inverse() * BT;
  }
  if (law.cohesive && RN < -law.cohesion) {
    law.cohesive = false;
    RN = -law.cohesion;
  }
  const double len = RT.norm(), cap = law.friction * std::abs(RN);
  if (len > cap) {
    // Sliding: against the slip velocity U_T = B_T + W_TN R_N + W_TT R_T estimated with the
    // previous R_T (at a fixed point of the sweeps: Coulomb's R_T = -mu R_N U_T / |U_T|).
    // Alg. 7.1 scales the sticking R_T instead, whose direction differs when W_TT is not
    // isotropic (4-point box faces: ~4 % less friction than mu m g).
    const Eigen::Vector2d UT = Eigen::Vector2d(B.x() + W(0, 2) * RN, B.y() + W(1, 2) * RN) +
                               WTT * Eigen::Vector2d(R.x(), R.y());
    const double un = UT.norm();
    RT = un > 0.0 ? Eigen::Vector2d(-cap / un * UT) : Eigen::Vector2d(RT * (cap / len));
    law.cohesive = false;
  }
  R = Vec3(RT.x(), RT.y(), RN);
}

PenaltySolver::PenaltySolver(PenaltyVariant variant) : variant_(variant) {
  GaussSeidelOptions o;
  o.epsilon = 1e-9;
  o.meritval = 1e-14;
  o.stopping = GaussSeidelOptions::Stopping::kEither;
  o.maxiter = 1000;
  bilateral_.set_options(o);
}

void PenaltySolver::set_sweeps(double epsilon, int max_sweeps) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon))
    throw InputError("PENALTY_SOLVER: invalid epsilon = " + std::to_string(epsilon) +
                     " (argument 'epsilon'); pass a relative accuracy > 0");
  if (max_sweeps < 1)
    throw InputError("PENALTY_SOLVER: invalid maxiter = " + std::to_string(max_sweeps) +
                     " (argument 'maxiter'); pass an iteration limit >= 1");
  epsilon_ = epsilon;
  max_sweeps_ = max_sweeps;
}

void PenaltySolver::BuildBilateral(const BlockProblem& P) {
  const int n = P.size();
  rows_.clear();
  sub_of_.assign(n, -1);
  for (int a = 0; a < n; ++a) {
    if (!IsContact(P.laws[a])) {
      sub_of_[a] = static_cast<int>(rows_.size());
      rows_.push_back(a);
    }
  }
  const int m = static_cast<int>(rows_.size());
  sub_.Resize(m);
  sub_.step = P.step;
  sub_.row_ptr.assign(1, 0);
  for (int i = 0; i < m; ++i) {
    const int a = rows_[i];
    Vec3 B = P.B[a];
    for (int k = P.row_ptr[a]; k < P.row_ptr[a + 1]; ++k) {
      const int j = sub_of_[P.col[k]];
      if (j < 0) {
        B.noalias() += P.W[k] * P.R[P.col[k]];  // contact reaction, fixed
      } else {
        sub_.col.push_back(j);  // the diagonal block stays first
        sub_.W.push_back(P.W[k]);
      }
    }
    sub_.row_ptr.push_back(static_cast<int>(sub_.col.size()));
    sub_.B[i] = B;
    sub_.laws[i] = P.laws[a];
    sub_.R[i] = P.R[a];
  }
}

SolverStats PenaltySolver::Solve(BlockProblem& P) {
  SerialCoupling none;
  return Run(P, none);
}

SolverStats PenaltySolver::SolveCoupled(BlockProblem& P, ProcessCoupling& coupling) {
  return Run(P, coupling);
}

SolverStats PenaltySolver::Run(BlockProblem& P, ProcessCoupling& coupling) {
  P.EnsureAssembled();  // the sweeps need the off-diagonal blocks
  P.Validate("PENALTY_SOLVER");
  const int n = P.size();
  if (static_cast<int>(P.R.size()) != n) P.R.assign(n, Vec3::Zero());
  bool any_contact = false, any_bilateral = false;
  for (int a = 0; a < n; ++a) {
    if (IsContact(P.laws[a])) any_contact = true;
    else any_bilateral = true;
  }
  rows_.clear();
  SolverStats stats, bilateral;
  bilateral.converged = true;
  int iters = 0;
  double rel = 0.0;
  // solfec-mpi: sweeps see the other processes' reactions through B (refreshed before each
  // sweep) and stop on the global change; bilateral rows stay a per-process sub-solve.
  any_contact = coupling.Sum(any_contact ? 1.0 : 0.0) > 0.0;
  do {
    coupling.Exchange(P);
    // Contacts: Algorithm 7.1 on the row's velocity B_a + sum_{b != a} W_ab R_b with the
    // current reactions (max_sweeps = 1: one Gauss-Seidel pass; the manual uses B_a alone).
    double change2 = 0.0, norm2 = 0.0;
    for (int a = 0; a < n; ++a) {
      Law& law = P.laws[a];
      if (!IsContact(law)) continue;
      Vec3 B = P.B[a];
      for (int k = P.row_ptr[a] + 1; k < P.row_ptr[a + 1]; ++k)
        B.noalias() += P.W[k] * P.R[P.col[k]];
      const Vec3 old = P.R[a];
      SpringDashpotReaction(law, P.W[P.row_ptr[a]], B, P.step, variant_, a, P.R[a]);
      change2 += (P.R[a] - old).squaredNorm();
      norm2 += P.R[a].squaredNorm();
    }
    // Bilateral rows: Gauss-Seidel with the contact reactions fixed.
    if (any_bilateral) {
      BuildBilateral(P);
      bilateral = bilateral_.Solve(sub_);
      for (size_t i = 0; i < rows_.size(); ++i) {
        P.R[rows_[i]] = sub_.R[i];
        P.laws[rows_[i]] = sub_.laws[i];
      }
    }
    ++iters;
    std::vector<double> v{change2, norm2};
    coupling.Sum(v);  // (over all processes)
    change2 = v[0];
    norm2 = v[1];
    rel = norm2 > 0.0 ? std::sqrt(change2 / norm2) : 0.0;
  } while (any_contact && iters < max_sweeps_ && rel > epsilon_);
  stats.iters = iters;
  stats.relative_error = rel;
  stats.merit = bilateral.merit;
  stats.converged = bilateral.converged && (!any_contact || rel <= epsilon_);
  stats.error = bilateral.error;
  if (stats.error == "OK" && !stats.converged) stats.error = "DIVERGED";
  stats.row_merit.assign(n, 0.0);
  for (size_t i = 0; i < rows_.size() && i < bilateral.row_merit.size(); ++i)
    stats.row_merit[rows_[i]] = bilateral.row_merit[i];
  coupling.Exchange(P);  // (solfec-mpi) U consistent with the final R
  P.ComputeU();
  P.merit = stats.row_merit;
  last_stats_ = stats;
  RecordIters(stats.iters);
  return stats;
}

}  // namespace solfec::solvers
