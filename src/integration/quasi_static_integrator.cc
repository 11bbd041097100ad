// QUASI_STATIC stepping: one regularised Newton step of the equilibrium per time step for
// finite-element, pseudo-rigid and rigid bodies (see quasi_static_integrator.h).
#include "integration/quasi_static_integrator.h"

#include "integration/corotated_integrator.h"
#include "integration/rigid_rotation.h"

namespace solfec::integration {

using body::FeBody;
using body::PseudoRigidBody;
using body::RigidBody;

namespace {

// Mean external force over the step, (f(t) + f(t+h)) / 2, for the work; f(t+h) returned.
VecX EndForce(const body::Body& b, double t, double h, const Vec3& g, VecX& mean) {
  VecX f1 = b.ExternalForce(t + h, h, g);
  mean = 0.5 * (b.ExternalForce(t, h, g) + f1);
  return f1;
}

// u_free = h A^-1 f with the body's inertia operator A (no velocity memory).
void SetFreeVelocity(body::Body& b, double h, const VecX& f) {
  MatX du = h * f;
  b.ApplyInverseInertia(du);
  b.u_free() = du.col(0);
}

// u(t+h) = u_free + A^-1 impulse.
VecX SolvedVelocity(body::Body& b) {
  MatX du = b.impulse();
  if (du.rows() != b.num_dofs()) du = MatX::Zero(b.num_dofs(), 1);
  b.ApplyInverseInertia(du);
  return b.u_free() + du.col(0);
}

}  // namespace

void QuasiStaticFreeVelocity(FeBody& b, double t, double h, const Vec3& g) {
  FeBody::StepState& s = b.step_state();
  b.impulse().setZero(b.num_dofs());
  if (b.form() == body::FeForm::kBC)  // co-rotated K0 (corotated_integrator.h)
    return CorotatedQuasiStaticFree(b, h, EndForce(b, t, h, g, s.external));
  const VecX f = EndForce(b, t, h, g, s.external) + b.InternalForce();
  b.SetStiffnessOperator(b.Stiffness(), h * h);
  SetFreeVelocity(b, h, f);
}

void QuasiStaticFreeVelocity(PseudoRigidBody& b, double t, double h, const Vec3& g) {
  PseudoRigidBody::StepState& s = b.step_state();
  b.impulse().setZero(PseudoRigidBody::kNumDofs);
  VecX mean;
  VecX f = EndForce(b, t, h, g, mean);
  s.external = mean;
  f.head<9>() += b.InternalForce();
  b.SetInertiaOperator(b.MassFF() + (h * h) * b.Stiffness());
  SetFreeVelocity(b, h, f);
}

void QuasiStaticFreeVelocity(RigidBody& b, double t, double h, const Vec3& g) {
  RigidBody::StepState& s = b.step_state();
  b.impulse().setZero(RigidBody::kNumDofs);
  if (b.is_obstacle()) {
    s.force.setZero();
    b.u_free() = b.u();  // prescribed motion
    return;
  }
  VecX mean;
  MatX du = h * EndForce(b, t, h, g, mean);
  s.force = mean;
  b.ApplyInverseInertia(du);  // A = diag(J, m I)
  b.u_free() = du.col(0);
}

void EndQuasiStaticStep(FeBody& f, double h) {
  f.mutable_u() = SolvedVelocity(f);
  f.mutable_q() += h * f.u();
  if (f.step_state().external.size() == f.num_dofs())
    f.external_work += h * f.step_state().external.dot(f.u());
  if (f.form() == body::FeForm::kBC) f.UpdateCorotation();
  f.UpdateShape();
}

void EndQuasiStaticStep(PseudoRigidBody& p, double h) {
  p.mutable_u() = SolvedVelocity(p);
  p.mutable_q() += h * p.u();
  p.external_work += h * p.step_state().external.dot(p.u());
  p.UpdateShape();
}

void EndQuasiStaticStep(RigidBody& r, double h) {
  if (!r.is_obstacle()) {
    r.mutable_u() = SolvedVelocity(r);
    r.external_work += h * r.step_state().force.dot(r.u());
  }
  r.set_rotation(RotateOrthonormal(r.rotation(), r.angular_velocity(), h));
  r.set_position(r.position() + h * r.linear_velocity());
  r.UpdateShape();
}

}  // namespace solfec::integration
