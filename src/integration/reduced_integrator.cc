// DEF_LIM time stepping of reduced-order co-rotated finite-element bodies (forms 'BC-RO',
// 'BC-MODAL'); equations numbered as in the co-rotated reduced-order report (section 5,
// appendix B). Full-space x, v live inside the body; the solver sees u_bar, H_bar, A_bar^-1.
#include "integration/reduced_integrator.h"

#include <string>

#include "base/errors.h"

namespace solfec::integration {

using body::ReducedFeBody;
using body::Scheme;

namespace {

std::string BodyName(const ReducedFeBody& b) {
  std::string s = std::to_string(b.id());
  if (!b.label().empty()) s += " ('" + b.label() + "')";
  return s;
}

}  // namespace

void CheckReducedStep(const ReducedFeBody& b, bool quasi_static) {
  const std::string form = body::FeFormName(b.form());
  if (quasi_static)
    throw InputError("RUN: QUASI_STATIC analysis is not available for form '" + form +
                     "' (FINITE_ELEMENT body " + BodyName(b) + ", argument 'analysis'); use "
                     "form 'TL' or 'BC' for quasi-static runs");
  switch (b.scheme) {
    case Scheme::kDefault:
    case Scheme::kDefLim:
    case Scheme::kDefLim2:
    case Scheme::kDefImp:
      return;
    default:
      throw InputError(std::string("RUN: scheme '") + body::SchemeName(b.scheme) +
                       "' is not available for form '" + form + "' (FINITE_ELEMENT body " +
                       BodyName(b) + ", argument 'scheme'); reduced forms always integrate "
                       "with 'DEF_LIM'");
  }
}

void BeginReducedStep(ReducedFeBody& b, double, double h, bool quasi_static) {
  CheckReducedStep(b, quasi_static);
  ReducedFeBody::ReducedStep& s = b.reduced_step();
  s.u0 = b.velocities();
  s.ubar0 = b.u();
  b.mutable_coordinates() += (0.5 * h) * b.velocities();                 // eq. 37
  s.lambda1 = b.corotation_fit().Update(b.coordinates(), b.rotation());      // eq. 38
  b.set_rotation(s.lambda1);
  b.UpdateShape();
}

void ReducedFreeVelocity(ReducedFeBody& b, double t, double h, const Vec3& gravity,
                         bool quasi_static) {
  CheckReducedStep(b, quasi_static);
  ReducedFeBody::ReducedStep& s = b.reduced_step();
  const int n = b.num_modes();
  if (s.u0.size() != b.velocities().size()) s.u0 = b.velocities();
  if (s.ubar0.size() != n) s.ubar0 = b.u();
  b.impulse().setZero(n);
  const Mat3& L1 = s.lambda1;
  s.force = b.FullExternalForce(t + 0.5 * h, gravity);
  const VecX d = b.Deformation(L1);       // eq. 39
  const VecX qbar = b.Project(L1, d);      // eq. 40 / 85
  const VecX vbar = b.Project(L1, s.u0);   // eq. 48 / 89
  const VecX bbar = h * (b.ProjectForce(L1, s.force) + b.CallbackForce(t + 0.5 * h, h) -
                         b.reduced_stiffness() * (qbar + b.damping * vbar));  // eq. 47 / 88
  b.SetReducedOperator(0.5 * b.damping * h + 0.25 * h * h);                   // eq. 45 / 87
  MatX du = bbar;
  b.ApplyInverseInertia(du);
  b.u_free() = s.ubar0 + du.col(0);
}

void EndReducedStep(ReducedFeBody& b, double, double h, bool quasi_static) {
  CheckReducedStep(b, quasi_static);
  ReducedFeBody::ReducedStep& s = b.reduced_step();
  const int n = b.num_modes();
  MatX du = b.impulse();
  if (du.rows() != n) du = MatX::Zero(n, 1);
  b.ApplyInverseInertia(du);
  VecX ubar = b.u_free() + du.col(0);                                // eq. 44
  const Mat3 L1 = s.lambda1;
  VecX u1 = s.u0 + b.Expand(L1, ubar - s.ubar0);                     // eq. 51
  const VecX x_half = b.coordinates();
  const Mat3 L2 = b.corotation_fit().Update(x_half + (0.5 * h) * u1, L1);  // eqs. 52-53
  const VecX vbar = b.Project(L2, u1);                               // eq. 54 / 90
  if (b.modal()) {
    const int r = b.num_rigid_modes();                                // eq. 91
    ubar.tail(n - r) = vbar.tail(n - r);
  } else {
    ubar = vbar;
  }
  u1 = b.Expand(L2, ubar);                                           // eq. 55
  b.mutable_coordinates() = x_half + (0.5 * h) * u1;                 // eq. 56
  b.mutable_velocities() = u1;
  b.set_rotation(L2);
  b.StoreReducedState(ubar);                                         // eq. 57 / 92
  if (s.force.size() == u1.size()) b.external_work += 0.5 * h * s.force.dot(s.u0 + u1);
  b.UpdateShape();
}

}  // namespace solfec::integration
