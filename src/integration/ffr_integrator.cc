// Floating frame of reference time stepping (Lozovskiy & Dubois, EJM A/Solids 58, 2016,
// eqs. 15-24) in the split-midpoint form of the domain step (manual eqs. 1.5-1.7).
//
// Translation (eq. 15): v_C(t+h) = v_C + (h/m) F(t+h/2) + impulse / m.
// Rotation (eqs. 13, 16, 24): the rigid-body RIG_IMP step on the referential angular
//   velocity, O(t+h) = O(t) exp[(h/2) Omega(t)] exp[(h/2) Omega(t+h)] (the trapezoidal rule on
//   SO(3); exactly orthonormal, unlike the Cayley product of eq. 24 with two different
//   angular velocities), spatial angular momentum conserved exactly in free flight, contact
//   torques enter linearly through J^-1 as the local dynamics assumes.
// Deformation (eqs. 17-19): the trapezoidal rule for M lambda' = -K psi - eta K lambda +
//   P^T (f_ext + f_c), written as A_e (lambda(t+h) - lambda(t)) = h (...) with psi at t+h/2
//   (algebraically identical to eq. 19). The fictitious forces are those of eq. 18 (psi and
//   lambda neglected): the centrifugal force averaged over Omega(t) and Omega_free; the Euler
//   force -m_a Omega' x Xbar_a and the translational inertia force -m_a O^T a_C are rigid-
//   mode fields and P^T removes them exactly, as it removes the resultant and the moment of
//   the external and contact forces (the mean-axis frame absorbs them).
// Contacts (Algorithm 1): H is evaluated at O(t+h/2), psi(t+h/2), which are known before the
//   contact solve, so W = H A^-1 H^T and B = H u_free do not depend on u(t+h) and one
//   constraint solve per step is exact for this linearised body; the paper's outer
//   fixed-point loop is needed only because its H_+ uses O(t+h). The remaining coupling,
//   Omega(t+h) in the centrifugal average, is taken at Omega_free (the contact torque's
//   effect on the centrifugal force over one step is O(h |Omega| |dOmega|) and acts on
//   modes that are ~ (h w_elastic)^-2 stiffer than the rigid motion).
#include "integration/ffr_integrator.h"

#include <string>

#include "base/errors.h"
#include "integration/rigid_rotation.h"

namespace solfec::integration {

using body::FfrBody;
using body::Scheme;

void CheckFfrStep(const FfrBody& b, double) {
  if (b.scheme == Scheme::kDefault || b.scheme == Scheme::kDefLim) return;
  throw InputError(std::string("RUN: scheme '") + body::SchemeName(b.scheme) +
                   "' is not available for FINITE_ELEMENT body " + std::to_string(b.id()) +
                   " of form 'FFR' (argument 'scheme'); use 'DEFAULT' (the trapezoidal rule)");
}

void BeginFfrStep(FfrBody& b, double, double h, bool quasi_static) {
  b.step_state().u0 = b.u();
  if (quasi_static) return;
  CheckFfrStep(b, h);
  b.set_position(b.position() + 0.5 * h * b.linear_velocity());
  b.set_rotation(RotateOrthonormal(b.rotation(), b.angular_velocity(), 0.5 * h));
  b.displacements() += (0.5 * h) * b.elastic_velocities();
  b.UpdateShape();
}

void FfrFreeVelocity(FfrBody& b, double t, double h, const Vec3& gravity, bool quasi_static) {
  FfrBody::StepState& s = b.step_state();
  const int nd = b.num_dofs(), ne = 3 * b.num_nodes();
  if (s.u0.size() != nd) s.u0 = b.u();
  b.impulse().setZero(nd);
  s.external = b.ExternalForce(quasi_static ? t + h : t + 0.5 * h, h, gravity);
  const VecX& f = s.external;
  VecX& u_free = b.u_free();
  u_free.resize(nd);
  const VecX psi = b.displacements();
  if (quasi_static) {
    b.SetElasticOperator(h * h);
    MatX g = h * f;
    g.col(0).tail(ne) -= h * (b.stiffness() * psi);
    b.ApplyInverseInertia(g);
    u_free = g.col(0);
    return;
  }
  const Mat3& J = b.frame_inertia();
  const Mat3& J_inv = b.frame_inverse_inertia();
  const Vec3 W = b.angular_velocity(), T = f.segment<3>(3);
  u_free.head<3>() = b.linear_velocity() + (h / b.frame_mass()) * Vec3(f.head<3>());
  const Vec3 W1 = ExplicitAngularVelocity(J, J_inv, W, T, h);
  const Vec3 P = MidFrameMomentum(J, W, h) + h * T;
  const Vec3 W_free = SolveRotatedMomentum(J, J_inv, P, 0.5 * h, W1);
  u_free.segment<3>(3) = W_free;

  const VecX lambda = b.elastic_velocities();
  VecX fe = f.tail(ne) + 0.5 * (b.CentrifugalForce(W) + b.CentrifugalForce(W_free));
  fe -= b.stiffness() * (psi + b.damping * lambda);
  b.SetElasticOperator(0.5 * b.damping * h + 0.25 * h * h);
  MatX g = MatX::Zero(nd, 1);
  g.col(0).tail(ne) = h * fe;
  b.ApplyInverseInertia(g);
  u_free.tail(ne) = lambda + g.col(0).tail(ne);
}

void EndFfrStep(FfrBody& b, double, double h, bool quasi_static) {
  FfrBody::StepState& s = b.step_state();
  MatX du = b.impulse();
  if (du.rows() != b.num_dofs()) du = MatX::Zero(b.num_dofs(), 1);
  b.ApplyInverseInertia(du);
  b.mutable_u() = b.u_free() + du.col(0);
  const double a = quasi_static ? h : 0.5 * h;
  b.set_position(b.position() + a * b.linear_velocity());
  b.set_rotation(RotateOrthonormal(b.rotation(), b.angular_velocity(), a));
  b.displacements() += a * b.elastic_velocities();
  if (s.external.size() == b.num_dofs()) {
    b.external_work += quasi_static ? h * s.external.dot(b.u())
                                    : 0.5 * h * s.external.dot(s.u0 + b.u());
  }
  b.UpdateShape();
}

}  // namespace solfec::integration
