// DEF_EXP and DEF_LIM time stepping of finite-element bodies (corotated reduced-order paper,
// section 3, total Lagrangian form, eqs. 10-17, in the split-midpoint form of manual eqs.
// 1.5-1.7). With f = f_ext + f_int(q(t+h/2)) - eta K u(t):
//   DEF_EXP: u_free = u + h M^-1 f (lumped M); stable for h < 2/w_max.
//   DEF_LIM: linearising f_int about q(t+h/2) along h/4 (u(t+h) - u(t)) and the damping
//     about the mean velocity gives A (u(t+h) - u(t)) = h f, A = M + (eta h/2 + h^2/4) K.
// Constraint impulses enter as u(t+h) = u_free + A^-1 H^T R h with the same A.
#include "integration/fe_integrator.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "base/errors.h"
#include "integration/semi_explicit_integrator.h"

namespace solfec::integration {

using body::FeBody;
using body::Scheme;

namespace {

std::string BodyName(const FeBody& b) {
  std::string s = std::to_string(b.id());
  if (!b.label().empty()) s += " ('" + b.label() + "')";
  return s;
}

Scheme FeScheme(const FeBody& b) {
  switch (b.scheme) {
    case Scheme::kDefault:  // Solfec-1.0's default (bod.c BODY_Create)
    case Scheme::kDefExp:
      return Scheme::kDefExp;
    case Scheme::kDefLim:
      return Scheme::kDefLim;
    case Scheme::kDefSemiExplicit:  // semi_explicit_integrator.h
      return Scheme::kDefSemiExplicit;
    default:
      throw InputError(std::string("RUN: scheme '") + body::SchemeName(b.scheme) +
                       "' is not available for FINITE_ELEMENT body " + BodyName(b) +
                       " (argument 'scheme'); use 'DEF_EXP' (default), 'DEF_LIM' or "
                       "'DEF_SEMI_EXPLICIT'");
  }
}

}  // namespace

double FeCriticalStep(const FeBody& b) {
  const double w2 = b.MaxFrequencySquared();
  if (!(w2 > 0.0)) return std::numeric_limits<double>::infinity();
  const double w = std::sqrt(w2), xi = 0.5 * b.damping * w;
  return 2.0 / w * (std::sqrt(1.0 + xi * xi) - xi);
}

void CheckFeStep(const FeBody& b, double h) {
  if (FeScheme(b) != Scheme::kDefExp) return;
  const double hc = FeCriticalStep(b);
  if (h > hc) {
    std::ostringstream msg;
    msg << "RUN: time step h = " << h << " exceeds the critical step " << hc
        << " of FINITE_ELEMENT body " << BodyName(b)
        << " (scheme 'DEF_EXP'); use scheme 'DEF_LIM' or a smaller step";
    throw InputError(msg.str());
  }
}

void BeginFeStep(FeBody& b, double t, double h) {
  CheckFeStep(b, h);
  if (b.scheme == Scheme::kDefSemiExplicit) return BeginSemiExplicitStep(b, t, h);
  b.step_state().u0 = b.u();
  b.mutable_q() += (0.5 * h) * b.u();
  b.UpdateShape();
}

void FeFreeVelocity(FeBody& b, double t, double h, const Vec3& gravity) {
  const Scheme scheme = FeScheme(b);
  if (scheme == Scheme::kDefSemiExplicit) return SemiExplicitFreeVelocity(b, t, h, gravity);
  FeBody::StepState& s = b.step_state();
  if (s.u0.size() != b.num_dofs()) s.u0 = b.u();
  b.impulse().setZero(b.num_dofs());
  s.external = b.ExternalForce(t + 0.5 * h, h, gravity);
  VecX f = s.external + b.InternalForce();
  if (scheme == Scheme::kDefExp) {
    if (b.damping > 0.0) f -= b.damping * (b.Stiffness() * s.u0);
    b.ResetInertiaOperator();
  } else {
    const body::SparseMat K = b.Stiffness();
    if (b.damping > 0.0) f -= b.damping * (K * s.u0);
    b.SetStiffnessOperator(K, 0.5 * b.damping * h + 0.25 * h * h);
  }
  MatX du = h * f;
  b.ApplyInverseInertia(du);
  b.u_free() = b.u() + du.col(0);
}

void EndFeStep(FeBody& b, double t, double h) {
  if (b.scheme == Scheme::kDefSemiExplicit) return EndSemiExplicitStep(b, t, h);
  EndFeMotion(b, h);
  b.UpdateShape();
}

void EndFeMotion(FeBody& b, double h) {
  FeBody::StepState& s = b.step_state();
  MatX du = b.impulse();
  if (du.rows() != b.num_dofs()) du = MatX::Zero(b.num_dofs(), 1);
  b.ApplyInverseInertia(du);
  b.mutable_u() = b.u_free() + du.col(0);
  b.mutable_q() += (0.5 * h) * b.u();
  if (s.external.size() == b.num_dofs())
    b.external_work += 0.5 * h * s.external.dot(s.u0 + b.u());
}

}  // namespace solfec::integration
