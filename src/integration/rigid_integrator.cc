// RIG_POS / RIG_NEG / RIG_IMP time stepping of rigid bodies and the motion of obstacles
// (Koziara & Bicanic, IJNME 81(9), 2009).
//
// Every scheme moves the body by
//   Lambda(t+h/2) = Lambda(t) exp[(h/2) Omega(t)],      x(t+h/2) = x(t) + (h/2) v(t),
//   Lambda(t+h)   = Lambda(t+h/2) exp[(h/2) Omega*],    x(t+h)   = x(t+h/2) + (h/2) v(t+h),
// where Omega* = u_free + J^-1 tau is the angular velocity the constraint solver sees
// (tau = referential torque part of the constraint impulse H^T R h, A = diag(J, m I)), and
// v(t+h) = v_free + f_impulse / m with v_free = v(t) + (h/m) F(t+h/2). Forces are evaluated
// at q(t+h/2) and t+h/2; T(t+h/2) is the referential torque.
//
// With P = exp[-(h/2) Omega(t)] J Omega(t) (the momentum of time t in the frame of t+h/2):
//
// RIG_POS (NEW1): u_free = Omega + h J^-1 (T - W05 x J W05), W05 = J^-1 (P + h/2 T);
//   Omega(t+h) = Omega*. Explicit, second order, energy drifts upward (measured in tests);
//   spatial angular momentum is conserved only approximately (O(h^2) per unit time), with
//   or without constraints.
// RIG_NEG (NEW2): the same Omega* drives the rotation, then the stored velocity is
//   Omega(t+h) = J^-1 exp[-(h/2) Omega*] (P + h T + tau), so that
//   Lambda(t+h) J Omega(t+h) = Lambda(t) J Omega(t) + Lambda(t+h/2) (h T + tau)
//   EXACTLY (to round-off), with or without constraints: Lambda(t+h/2) tau is the spatial
//   torque of the contact impulses about the mass centre, whose H uses q(t+h/2), so the total
//   angular momentum balance about any point is exact. The solver's velocity Omega* is what
//   moves the body (positions are consistent with the solved constraints), but the stored
//   Omega(t+h) differs from Omega* by O(h^2) in free flight and by a rotation of the impulse
//   of order (h/2)|Omega| |J^-1 tau| with contacts. Energy drifts downward (measured).
// RIG_IMP (NEW3): u_free = W solves exp[(h/2) W] J W = P + h T (3x3 Newton); Omega(t+h) =
//   W + J^-1 tau, LINEAR in the impulse as the local dynamics W = H A^-1 H^T assumes.
//   Without constraints (tau = 0): exact spatial momentum balance and a time-reversible step
//   (no energy drift; energy oscillates boundedly). With constraints the momentum balance
//   and reversibility hold up to the O(h |Omega| |tau|) rotation of the impulse.
//
// Linear motion is the midpoint/leapfrog rule for all schemes: exact for constant forces.
#include "integration/rigid_integrator.h"

#include "base/math.h"
#include "integration/rigid_rotation.h"

namespace solfec::integration {

using body::RigidBody;
using body::Scheme;

namespace {

// DEFAULT (and deformable schemes, which the bindings reject for rigid bodies) -> RIG_NEG.
Scheme RigidScheme(Scheme s) {
  return (s == Scheme::kRigPos || s == Scheme::kRigImp) ? s : Scheme::kRigNeg;
}

// Lambda := Lambda exp[a W] (re-orthonormalised, see rigid_rotation.h).
void RotateBy(RigidBody& b, const Vec3& W, double a) {
  b.set_rotation(RotateOrthonormal(b.rotation(), W, a));
}

// The common half-step motion q := q + (h/2) u (rotation by the exponential map).
void HalfStep(RigidBody& b, const Vec3& W, const Vec3& v, double h) {
  RotateBy(b, W, 0.5 * h);
  b.set_position(b.position() + 0.5 * h * v);
}

}  // namespace

void BeginRigidStep(RigidBody& r, double, double h) {
  r.step_state().u0 = r.u();
  HalfStep(r, r.angular_velocity(), r.linear_velocity(), h);
  r.UpdateShape();
}

void RigidFreeVelocity(RigidBody& r, double t, double h, const Vec3& gravity) {
  RigidBody::StepState& s = r.step_state();
  r.impulse().setZero(RigidBody::kNumDofs);
  if (r.is_obstacle()) {
    s.force.setZero();
    r.u_free() = r.u();  // infinite inertia: loads do not change the velocity
    return;
  }
  s.force = r.ExternalForce(t + 0.5 * h, h, gravity);
  const Vec3 T = s.force.head<3>(), F = s.force.tail<3>();
  const Mat3& J = r.tensor();
  const Mat3& J_inv = r.inverse_tensor();
  const Vec3 W = r.angular_velocity();

  VecX& u_free = r.u_free();
  u_free.resize(RigidBody::kNumDofs);
  u_free.tail<3>() = r.linear_velocity() + (h / r.mass()) * F;  // eq. 1.6, linear part
  const Vec3 W1 = ExplicitAngularVelocity(J, J_inv, W, T, h);  // NEW1 predictor
  switch (RigidScheme(r.scheme)) {
    case Scheme::kRigImp: {
      const Vec3 P = MidFrameMomentum(J, W, h) + h * T;
      u_free.head<3>() = SolveRotatedMomentum(J, J_inv, P, 0.5 * h, W1);
      break;
    }
    case Scheme::kRigNeg:
      s.momentum = MidFrameMomentum(J, W, h) + h * T;
      u_free.head<3>() = W1;
      break;
    default:
      u_free.head<3>() = W1;
      break;
  }
}

void EndRigidStep(RigidBody& r, double, double h) {
  RigidBody::StepState& s = r.step_state();
  if (r.is_obstacle()) {
    // Velocity unaffected by loads and contact impulses: finish the motion with u(t), or
    // with the velocity the obstacle's own constraints gave it (Domain::GuideObstacles).
    if (r.guided()) {
      r.set_angular_velocity(r.u_free().head<3>());
      r.set_linear_velocity(r.u_free().tail<3>());
    }
    HalfStep(r, r.angular_velocity(), r.linear_velocity(), h);
    r.UpdateShape();
    return;
  }
  // u* = u_free + A^-1 impulse: the velocity the constraint solver has enforced.
  VecX du = r.impulse();
  if (du.size() != RigidBody::kNumDofs) du = VecX::Zero(RigidBody::kNumDofs);
  const Vec3 tau = du.head<3>();
  r.ApplyInverseInertia(du);
  const Vec3 W_star = r.u_free().head<3>() + du.head<3>();
  const Vec3 v = r.u_free().tail<3>() + du.tail<3>();

  r.set_linear_velocity(v);
  HalfStep(r, W_star, v, h);
  if (RigidScheme(r.scheme) == Scheme::kRigNeg) {
    // Exact momentum map: Lambda(t+h) J Omega(t+h) = Lambda(t+h/2) (P + h T + tau).
    const Vec3 M = ExpMap(-0.5 * h * W_star) * (s.momentum + tau);
    r.set_angular_velocity(r.inverse_tensor() * M);
  } else {
    r.set_angular_velocity(W_star);
  }

  // Work of the external forces over the step: h f(t+h/2) . (u(t) + u(t+h)) / 2.
  r.external_work += 0.5 * h * s.force.dot(s.u0 + r.u());
  r.UpdateShape();
}

}  // namespace solfec::integration
