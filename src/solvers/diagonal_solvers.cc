// Diagonal block solvers: closed forms for separation, sticking and equality laws, and
// semismooth Newton / projected gradient / De Saxce-Feng iterations for sliding contacts.
#include "solvers/diagonal_solvers.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solvers/friction_cone.h"

namespace solfec::solvers {

namespace {

using Vec2 = Eigen::Vector2d;
using Mat23 = Eigen::Matrix<double, 2, 3>;

constexpr double kArmijo = 1e-4;      // sufficient decrease of the line search
constexpr int kMaxHalvings = 30;      // line search step 2^-30 at the least
constexpr double kSingularRel = 1e-13;  // |det J| / prod(row norms) below this is singular
constexpr double kConeSlack = 1e-8;   // relative tolerance of "R in FC" after Newton
constexpr double kRoundOff = 1e-12;   // relative fixed-point residual at round-off level

// Converged when the step is small relative to the reaction (at least round-off small).
bool SmallChange(double change, const Vec3& R, double epsilon) {
  constexpr double kMachine = 4.0 * std::numeric_limits<double>::epsilon();
  return change <= std::max(epsilon, kMachine) * R.norm() || change == 0.0;
}

// Residual of eq. 7.3 with d = R - rho Ubar (eqs. 7.4-7.5) and, if J is given, an element
// of its generalised Jacobian (dd/dR = I - rho W). b_N carries the restitution term.
void AlartCurnierResidual(const Mat3& W, const Vec3& b, double mu, double rho, const Vec3& R,
                          Vec3& C, Mat3* J) {
  const Vec3 U = b + W * R;
  const double dN = R.z() - rho * U.z();
  const Vec2 dT(R.x() - rho * U.x(), R.y() - rho * U.y());
  const Vec2 RT(R.x(), R.y());
  const double ndT = dT.norm();
  if (dN <= 0.0) {
    // Separation branch: R_N = 0 and ||d_T|| R_T = 0.
    C << ndT * R.x(), ndT * R.y(), R.z();
    if (J) {
      J->setZero();
      (*J)(0, 0) = (*J)(1, 1) = ndT;
      (*J)(2, 2) = 1.0;
      if (ndT > 0.0) {
        const Mat23 DT = Mat3::Identity().topRows<2>() - rho * W.topRows<2>();
        J->topRows<2>() += RT * (dT / ndT).transpose() * DT;
      }
    }
    return;
  }
  C.z() = rho * U.z();  // R_N - max(0, d_N) with d_N > 0
  const Vec2 UT(U.x(), U.y());
  if (ndT <= mu * dN) {
    // Sticking branch: C_T = mu d_N (R_T - d_T) = mu d_N rho U_T.
    C.head<2>() = mu * dN * rho * UT;
    if (J) {
      const Eigen::RowVector3d DN = Eigen::RowVector3d::UnitZ() - rho * W.row(2);
      J->topRows<2>() = mu * rho * (UT * DN + dN * W.topRows<2>());
      J->row(2) = rho * W.row(2);
    }
    return;
  }
  // Sliding branch: C_T = ||d_T|| R_T - mu d_N d_T.
  C.head<2>() = ndT * RT - mu * dN * dT;
  if (J) {
    const Mat23 DT = Mat3::Identity().topRows<2>() - rho * W.topRows<2>();
    const Eigen::RowVector3d DN = Eigen::RowVector3d::UnitZ() - rho * W.row(2);
    J->topRows<2>() = RT * (dT / ndT).transpose() * DT - mu * dT * DN - (mu * dN) * DT;
    (*J)(0, 0) += ndT;
    (*J)(1, 1) += ndT;
    J->row(2) = rho * W.row(2);
  }
}

// |R - proj_FC(R - rho [U_T; U_N + mu ||U_T||])|: zero exactly at solutions (eq. 8.6).
double FixedPointResidual(const Mat3& W, const Vec3& b, double mu, double rho, const Vec3& R) {
  const Vec3 U = b + W * R;
  return (R - ProjectOnCone(R - rho * DeSaxceVelocity(U, mu), mu)).norm();
}

// Accepts a converged Newton point unless it is one of the spurious roots of eq. 7.3
// outside the cone (R_N = 0, d_T = 0); removes the round-off distance from FC.
DiagResult Finish(double mu, int iters, Vec3& R) {
  if (!R.allFinite() ||
      TangentNorm(R) > mu * R.z() * (1.0 + kConeSlack) + kConeSlack * std::abs(R.z())) {
    return {DiagStatus::kFailed, iters};
  }
  R = ProjectOnCone(R, mu);
  return {DiagStatus::kOk, iters};
}

// The sliding branch at slip direction t = (cos th, sin th), see detail::SlidingByDirection.
struct SlidingPoint {
  double F = 0.0;   // w_N (t x U_T)
  double G = 0.0;   // w_N (t . U_T)
  double wN = 0.0;  // (W [-mu t; 1])_N
};

SlidingPoint EvalSliding(const Mat3& W, const Vec3& b, double mu, double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  const Vec3 w = W * Vec3(-mu * c, -mu * s, 1.0);
  SlidingPoint p;
  p.wN = w.z();
  p.F = p.wN * (c * b.y() - s * b.x()) - b.z() * (c * w.y() - s * w.x());
  p.G = p.wN * (c * b.x() + s * b.y()) - b.z() * (c * w.x() + s * w.y());
  return p;
}

// Starting point of the sliding kernels: the warm start projected on FC, else the
// projected sticking reaction, else the frictionless normal reaction.
Vec3 SlidingStart(const Mat3& W, const Vec3& b, double mu, const Vec3& R, const Vec3& Rstick) {
  Vec3 R0 = ProjectOnCone(R, mu);
  if (R0.z() > 0.0) return R0;
  R0 = ProjectOnCone(Rstick, mu);
  if (R0.z() > 0.0) return R0;
  return Vec3(0.0, 0.0, -b.z() / W(2, 2));
}

}  // namespace

namespace detail {

// Fixed point R = proj_FC(R - rho [U_T; U_N + mu ||U_T||]) (eq. 8.6), from R in FC.
DiagResult ProjectionIteration(const Mat3& W, const Vec3& b, double mu, double rho,
                               const DiagOptions& options, Vec3& R) {
  for (int it = 1; it <= options.maxiter; ++it) {
    const Vec3 U = b + W * R;
    const Vec3 next = ProjectOnCone(R - rho * DeSaxceVelocity(U, mu), mu);
    const double change = (next - R).norm();
    R = next;
    if (!std::isfinite(change)) return {DiagStatus::kFailed, it};
    if (SmallChange(change, R, options.epsilon)) return {DiagStatus::kOk, it};
  }
  return {DiagStatus::kDiverged, options.maxiter};
}

// Semismooth Newton on eq. 7.3 with an Armijo line search on |C|^2 / 2. Returns kFailed
// on a singular Jacobian, a failed line search or a point outside FC (caller falls back).
DiagResult SemismoothNewton(const Mat3& W, const Vec3& b, double mu, const DiagOptions& options,
                            Vec3& R, bool project) {
  const double rho = 3.0 / W.trace();
  Vec3 C, Ct;
  Mat3 J, Jt;
  AlartCurnierResidual(W, b, mu, rho, R, C, &J);
  double phi = 0.5 * C.squaredNorm();
  for (int it = 1; it <= options.maxiter; ++it) {
    // d = -J^-1 C by cofactors: the columns of J^-T are cross products of J's rows.
    const Vec3 r0 = J.row(0), r1 = J.row(1), r2 = J.row(2);
    const Vec3 c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1);
    const double det = r0.dot(c0);
    if (!(std::abs(det) > kSingularRel * r0.norm() * r1.norm() * r2.norm())) {
      return {DiagStatus::kFailed, it};
    }
    const Vec3 d = -(c0 * C.x() + c1 * C.y() + c2 * C.z()) / det;
    // A step below the tolerance is taken in full: converged (no line search at round-off).
    if (SmallChange(d.norm(), R, options.epsilon)) {
      R += d;
      return Finish(mu, it, R);
    }
    // Backtracking until sufficient decrease of phi; the full step also yields J.
    double t = 1.0, phit = 0.0;
    Vec3 trial;
    int halvings = 0;
    for (;; ++halvings, t *= 0.5) {
      if (halvings > kMaxHalvings) {
        // No decrease left: accept R if it is a fixed point of eq. 8.6 to round-off.
        if (FixedPointResidual(W, b, mu, rho, R) <= kRoundOff * R.norm()) {
          return Finish(mu, it, R);
        }
        return {DiagStatus::kFailed, it};
      }
      trial = R + t * d;
      if (project) trial = ProjectOnCone(trial, mu);
      AlartCurnierResidual(W, b, mu, rho, trial, Ct, halvings == 0 ? &Jt : nullptr);
      phit = 0.5 * Ct.squaredNorm();
      if (phit <= (1.0 - 2.0 * kArmijo * t) * phi) break;
    }
    R = trial;
    phi = phit;
    if (!R.allFinite()) return {DiagStatus::kFailed, it};
    if (phi == 0.0) return Finish(mu, it, R);
    if (halvings == 0) {
      C = Ct;
      J = Jt;
    } else {
      AlartCurnierResidual(W, b, mu, rho, R, C, &J);
    }
  }
  return {DiagStatus::kDiverged, options.maxiter};
}

// Roots of F(th) are bracketed on a uniform scan and refined by bisection; the valid one
// nearest to the warm start direction is kept.
DiagResult SlidingByDirection(const Mat3& W, const Vec3& b, double mu, Vec3& R) {
  constexpr int kScan = 64, kBisections = 60;
  constexpr double kTwoPi = 6.283185307179586;
  const double theta_warm = std::atan2(-R.y(), -R.x());  // R_T = -mu R_N t
  double best_theta = 0.0, best_distance = std::numeric_limits<double>::infinity();
  bool found = false;
  SlidingPoint lo = EvalSliding(W, b, mu, 0.0);
  for (int i = 0; i < kScan; ++i) {
    const double t0 = kTwoPi * i / kScan, t1 = kTwoPi * (i + 1) / kScan;
    const SlidingPoint hi = EvalSliding(W, b, mu, t1);
    if ((lo.F <= 0.0) != (hi.F <= 0.0)) {
      double a = t0, Fa = lo.F, z = t1;
      for (int k = 0; k < kBisections && z - a > 1e-16 * kTwoPi; ++k) {
        const double m = 0.5 * (a + z);
        const double Fm = EvalSliding(W, b, mu, m).F;
        if ((Fm <= 0.0) == (Fa <= 0.0)) {
          a = m;
          Fa = Fm;
        } else {
          z = m;
        }
      }
      const double root = 0.5 * (a + z);
      const SlidingPoint pr = EvalSliding(W, b, mu, root);
      const double distance = std::abs(std::remainder(root - theta_warm, kTwoPi));
      if (pr.wN > 0.0 && pr.G >= 0.0 && distance < best_distance) {
        best_theta = root;
        best_distance = distance;
        found = true;
      }
    }
    lo = hi;
  }
  if (!found) return {DiagStatus::kFailed, kScan};
  const double RN = -b.z() / EvalSliding(W, b, mu, best_theta).wN;
  R = Vec3(-mu * RN * std::cos(best_theta), -mu * RN * std::sin(best_theta), RN);
  return {DiagStatus::kOk, kScan};
}

// Newton on F(th) = 0 (the smooth sliding branch of eq. 7.3, see SlidingByDirection) from
// a slip direction t; t is kept a unit vector and turned by atan(dth) ~ dth, so there is
// no trigonometry. Converges quadratically from a nearby warm start; returns kFailed when
// it leaves the valid branch (w_N <= 0 or slip against t) so the caller can fall back.
DiagResult SlidingNewton(const Mat3& W, const Vec3& b, double mu, const DiagOptions& options,
                         Vec2 t, Vec3& R) {
  constexpr int kMaxIterations = 12;
  for (int it = 1; it <= kMaxIterations; ++it) {
    const Vec2 tp(-t.y(), t.x());  // dt/dth
    const Vec3 w = W * Vec3(-mu * t.x(), -mu * t.y(), 1.0);
    const Vec3 wp = -mu * (W.col(0) * tp.x() + W.col(1) * tp.y());  // dw/dth
    const double cross_b = t.x() * b.y() - t.y() * b.x(), dot_b = t.x() * b.x() + t.y() * b.y();
    const double cross_w = t.x() * w.y() - t.y() * w.x(), dot_w = t.x() * w.x() + t.y() * w.y();
    const double cross_wp = t.x() * wp.y() - t.y() * wp.x();
    const double F = w.z() * cross_b - b.z() * cross_w;
    const double dF = wp.z() * cross_b - w.z() * dot_b - b.z() * (cross_wp - dot_w);
    const double step = -F / dF;
    if (!std::isfinite(step) || !(w.z() > 0.0)) return {DiagStatus::kFailed, it};
    t = (t + step * tp).normalized();
    if (std::abs(step) <= std::max(options.epsilon, 1e-15)) {
      const Vec3 wt = W * Vec3(-mu * t.x(), -mu * t.y(), 1.0);
      const double RN = -b.z() / wt.z();
      const double slip = wt.z() * (t.x() * b.x() + t.y() * b.y()) -
                          b.z() * (t.x() * wt.x() + t.y() * wt.y());  // w_N (t . U_T)
      if (!(wt.z() > 0.0 && RN > 0.0 && slip >= 0.0)) return {DiagStatus::kFailed, it};
      R = Vec3(-mu * RN * t.x(), -mu * RN * t.y(), RN);
      return {DiagStatus::kOk, it};
    }
  }
  return {DiagStatus::kFailed, kMaxIterations};
}

}  // namespace detail

DiagResult SolveContactBlock(const Mat3& W, const Mat3& W_inv, const Vec3& b, double mu,
                             const DiagOptions& options, Vec3& R) {
  // Separation: R = 0 already gives Ubar_N >= 0 (eq. 7.1).
  if (b.z() >= 0.0) {
    R.setZero();
    return {};
  }
  // Sticking: U = 0 with R inside the cone (eq. 7.2).
  const Vec3 Rstick = -(W_inv * b);
  if (Rstick.z() > 0.0 && TangentNorm(Rstick) <= mu * Rstick.z()) {
    R = Rstick;
    return {};
  }
  if (!b.allFinite()) return {DiagStatus::kFailed, 0};
  // Frictionless: R_T = 0 and U_N = 0.
  if (mu == 0.0) {
    R = Vec3(0.0, 0.0, -b.z() / W(2, 2));
    return {};
  }
  // Sliding: iterate.
  R = SlidingStart(W, b, mu, R, Rstick);
  switch (options.kind) {
    case DiagSolver::kSemismoothNewton: {
      const Vec3 start = R;
      // Fast path: Newton on the smooth sliding branch from the start's slip direction.
      const double RT = TangentNorm(start);
      if (RT > 0.0) {
        const DiagResult sliding =
            detail::SlidingNewton(W, b, mu, options, Vec2(-start.x() / RT, -start.y() / RT), R);
        if (sliding.status == DiagStatus::kOk) return sliding;
        R = start;
      }
      const DiagResult newton = detail::SemismoothNewton(W, b, mu, options, R);
      if (newton.status == DiagStatus::kOk) return newton;
      // Fallbacks: the sliding direction root, then the projection iteration.
      R = start;
      DiagResult fallback = detail::SlidingByDirection(W, b, mu, R);
      if (fallback.status != DiagStatus::kOk) {
        R = start;
        fallback = detail::ProjectionIteration(W, b, mu, 1.0 / W.norm(), options, R);
      }
      fallback.iters += newton.iters;
      return fallback;
    }
    case DiagSolver::kProjectedGradient:
      return detail::ProjectionIteration(W, b, mu, 1.0 / W.norm(), options, R);
    case DiagSolver::kDeSaxceFeng:
      return detail::ProjectionIteration(W, b, mu, 3.0 / W.trace(), options, R);
    case DiagSolver::kProjectedNewton: {
      const Vec3 start = R;
      const DiagResult newton = detail::SemismoothNewton(W, b, mu, options, R, true);
      if (newton.status == DiagStatus::kOk) return newton;
      R = start;
      DiagResult fallback = detail::ProjectionIteration(W, b, mu, 3.0 / W.trace(), options, R);
      fallback.iters += newton.iters;
      return fallback;
    }
  }
  return {DiagStatus::kFailed, 0};
}

DiagResult SolveDiagonalBlock(Law& law, const Mat3& W, const Mat3& W_inv, const Vec3& rhs,
                              const DiagOptions& options, Vec3& R) {
  switch (law.kind) {
    case LawKind::kEquality:
      // U = rhs + W R = target.
      R.noalias() = W_inv * (law.target - rhs);
      return {};
    case LawKind::kNormalEquality:
      // U_N = target_N with R_T = 0.
      R = Vec3(0.0, 0.0, (law.target.z() - rhs.z()) / W(2, 2));
      return {};
    case LawKind::kSpring: {
      // R_T = 0, U_N = rhs_N + W_NN R_N and R_N = f + s (U_N - U0), linear in R_N:
      // R_N (1 - s W_NN) = f + s (rhs_N - U0).
      const double s = law.spring_slope, den = 1.0 - s * W(2, 2);
      if (!(den > kSingularRel)) {
        R.setZero();
        return {DiagStatus::kFailed, 0};
      }
      R = Vec3(0.0, 0.0, (law.spring_force + s * (rhs.z() - law.spring_U0)) / den);
      // Stroke stops: if the spring alone would carry U_N out of [U_lo, U_hi], the stop
      // holds U_N at the bound it crosses (W_NN > 0: R_N moves the right way).
      const double UN = rhs.z() + W(2, 2) * R.z();
      if (UN > law.spring_U_hi) R.z() = (law.spring_U_hi - rhs.z()) / W(2, 2);
      else if (UN < law.spring_U_lo) R.z() = (law.spring_U_lo - rhs.z()) / W(2, 2);
      return {};
    }
    case LawKind::kSignoriniCoulomb:
      break;
  }
  // Ubar_N = U_N + eta min(0, U_N^t) (eq. 7.1) folded into b.
  Vec3 b = rhs;
  b.z() += law.restitution * std::min(0.0, law.UN_prev);
  if (law.cohesive) {
    // Shifted unknown R' = R + c e_N lives in FC: R_N >= -c, ||R_T|| <= mu (R_N + c).
    const double c = law.cohesion;
    const Vec3 b_shift = b - c * W.col(2);
    if (b_shift.z() <= 0.0) {
      Vec3 R_shift = R;
      R_shift.z() += c;
      const DiagResult result = SolveContactBlock(W, W_inv, b_shift, law.friction, options,
                                                  R_shift);
      R = R_shift;
      R.z() -= c;
      return result;
    }
    // Still separating at R_N = -c: the bond breaks, plain Signorini-Coulomb from now on.
    law.cohesive = false;
  }
  return SolveContactBlock(W, W_inv, b, law.friction, options, R);
}

}  // namespace solfec::solvers
