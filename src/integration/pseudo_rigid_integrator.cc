// DEF_EXP and DEF_LIM time stepping of pseudo-rigid bodies (corotated reduced-order paper,
// section 3, in total Lagrangian form; the split-midpoint form of manual eqs. 1.5-1.7).
//
// Both schemes move the body by q(t+h/2) = q(t) + h/2 u(t), evaluate forces at q(t+h/2)
// and finish with q(t+h) = q(t+h/2) + h/2 u(t+h). With f = f_ext - V P(F) - eta K Fdot(t):
//   DEF_EXP: u_free = u + h M^-1 f; conditionally stable (h < 2/w_max).
//   DEF_LIM: linearising f_int about q(t+h/2) along the step increment h/4 (u(t+h) - u(t))
//     and the damping about the mean velocity gives A (u(t+h) - u(t)) = h f with
//     A = M + (eta h/2 + h^2/4) K; unconditionally stable for linear elasticity.
// Constraint impulses enter as u(t+h) = u_free + A^-1 H^T R h with the same A.
#include "integration/pseudo_rigid_integrator.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <Eigen/Eigenvalues>

#include "base/errors.h"

namespace solfec::integration {

using body::Mat9;
using body::PseudoRigidBody;
using body::Scheme;

namespace {

std::string BodyName(const PseudoRigidBody& b) {
  std::string s = std::to_string(b.id());
  if (!b.label().empty()) s += " ('" + b.label() + "')";
  return s;
}

Scheme PseudoRigidScheme(const PseudoRigidBody& b) {
  switch (b.scheme) {
    case Scheme::kDefault:
    case Scheme::kDefExp:
      return Scheme::kDefExp;
    case Scheme::kDefLim:
      return Scheme::kDefLim;
    default:
      throw InputError(std::string("RUN: scheme '") + body::SchemeName(b.scheme) +
                       "' is not available for PSEUDO_RIGID body " + BodyName(b) +
                       " (argument 'scheme'); use 'DEF_EXP' or 'DEF_LIM'");
  }
}

void HalfStep(PseudoRigidBody& b, double h) {
  b.mutable_q() += (0.5 * h) * b.u();
}

}  // namespace

double PseudoRigidCriticalStep(const PseudoRigidBody& b) {
  const Mat9 K = b.Stiffness();
  const Mat9 Ks = 0.5 * (K + K.transpose());
  Eigen::GeneralizedSelfAdjointEigenSolver<Mat9> es(Ks, b.MassFF(), Eigen::EigenvaluesOnly);
  const double w2 = es.eigenvalues().maxCoeff();
  if (!(w2 > 0.0)) return std::numeric_limits<double>::infinity();
  const double w = std::sqrt(w2), xi = 0.5 * b.damping * w;
  return 2.0 / w * (std::sqrt(1.0 + xi * xi) - xi);
}

void CheckPseudoRigidStep(const PseudoRigidBody& b, double h) {
  if (PseudoRigidScheme(b) != Scheme::kDefExp) return;
  const double hc = PseudoRigidCriticalStep(b);
  if (h > hc) {
    std::ostringstream msg;
    msg << "RUN: time step h = " << h << " exceeds the critical step " << hc
        << " of PSEUDO_RIGID body " << BodyName(b)
        << " (scheme 'DEF_EXP'); use scheme 'DEF_LIM' or a smaller step";
    throw InputError(msg.str());
  }
}

void BeginPseudoRigidStep(PseudoRigidBody& b, double t, double h) {
  CheckPseudoRigidStep(b, h);
  b.step_state().u0 = b.u();
  HalfStep(b, h);
  b.UpdateShape();
}

void PseudoRigidFreeVelocity(PseudoRigidBody& b, double t, double h, const Vec3& gravity) {
  const Scheme scheme = PseudoRigidScheme(b);
  PseudoRigidBody::StepState& s = b.step_state();
  b.impulse().setZero(PseudoRigidBody::kNumDofs);
  const VecX fext = b.ExternalForce(t + 0.5 * h, h, gravity);
  s.external = fext;
  const Mat9 K = b.Stiffness();
  VecX f = fext;
  f.head<9>() += b.InternalForce() - b.damping * (K * s.u0.head<9>());

  if (scheme == Scheme::kDefExp) {
    b.ResetInertiaOperator();
  } else {
    b.SetInertiaOperator(b.MassFF() + (0.5 * b.damping * h + 0.25 * h * h) * K);
  }
  MatX du = h * f;
  b.ApplyInverseInertia(du);
  b.u_free() = b.u() + du.col(0);
}

void EndPseudoRigidStep(PseudoRigidBody& b, double t, double h) {
  PseudoRigidBody::StepState& s = b.step_state();
  MatX du = b.impulse();
  if (du.rows() != PseudoRigidBody::kNumDofs) du = MatX::Zero(PseudoRigidBody::kNumDofs, 1);
  b.ApplyInverseInertia(du);
  b.mutable_u() = b.u_free() + du.col(0);
  HalfStep(b, h);
  // Work of the external forces over the step: h f(t+h/2) . (u(t) + u(t+h)) / 2.
  b.external_work += 0.5 * h * s.external.dot(s.u0 + b.u());
  b.UpdateShape();
}

}  // namespace solfec::integration
