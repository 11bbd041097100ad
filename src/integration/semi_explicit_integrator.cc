// DEF_SEMI_EXPLICIT stepping of finite-element bodies (Peng, Feng & Joli, IJNLM 103, 2018).
// Eqs. 27-30 are u(t+h) = u(t) + h M^-1 (F_ext - F_int(q) - A u(t) + H^T r(t+h)),
// q_next = q + h u(t+h): symplectic Euler. Labelling the paper's configuration q with our
// mid-step configuration q(t+h/2) = q(t) + h/2 u(t) makes them exactly the split-midpoint
// (leapfrog) update below, q(t+3h/2) = q(t+h/2) + h u(t+h); contact detection and the
// Signorini-Coulomb solve happen at q(t+h/2) as in the paper. Internal forces are evaluated
// element by element with a lumped (diagonal) M, so nothing is assembled or factorized; the
// damping A u = damping K u is an element-level product as well. Contact reactions stay
// implicit through the local dynamics W = H M^-1 H^T h (eqs. 33-35).
// Eq. 46 (h <= delta l / c_L) is a stability condition the paper leaves to the user (its
// table 1 shows divergence at a too large step). Here it is applied automatically: a step
// above it is sub-stepped for the internal forces (contact stays once per step) and one
// warning per body is printed.
#include "integration/semi_explicit_integrator.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

#include "material/hyperelastic.h"

namespace solfec::integration {

using body::FeBody;

double SemiExplicitCriticalStep(const FeBody& b) {
  const geometry::Mesh& mesh = b.mesh();
  double hc = std::numeric_limits<double>::infinity();
  for (int e = 0; e < b.num_elements(); ++e) {
    const geometry::MeshElement& el = mesh.elements[e];
    const auto& nodes = el.nodes;
    double l2 = std::numeric_limits<double>::infinity();
    for (int i = 0; i < el.num_nodes; ++i)
      for (int j = i + 1; j < el.num_nodes; ++j)
        l2 = std::min(l2, (b.node(nodes[i]) - b.node(nodes[j])).squaredNorm());
    const material::BulkMaterial& m = b.element_material(e);
    const double c = material::Hyperelastic(m).WaveSpeed(m.density);
    hc = std::min(hc, kSemiExplicitDelta * std::sqrt(l2) / c);
  }
  return hc;
}

int SemiExplicitSubsteps(FeBody& b, double h) {
  const double hc = SemiExplicitCriticalStep(b);
  if (!(h > hc)) return 1;
  const int n = static_cast<int>(std::ceil(h / hc));
  FeBody::StepState& s = b.step_state();
  if (!s.semi_explicit_warned) {
    s.semi_explicit_warned = true;
    std::cerr << "WARNING: DEF_SEMI_EXPLICIT: time step h = " << h
              << " exceeds the critical step " << hc << " (eq. 46, delta "
              << kSemiExplicitDelta << ") of FINITE_ELEMENT body " << b.id()
              << (b.label().empty() ? "" : " ('" + b.label() + "')")
              << "; the internal forces are sub-stepped (" << n
              << " sub-steps now; contact is solved once per step)" << std::endl;
  }
  return n;
}

void BeginSemiExplicitStep(FeBody& b, double, double h) {
  FeBody::StepState& s = b.step_state();
  s.substeps = SemiExplicitSubsteps(b, h);
  s.u0 = b.u();
  s.q_free = b.q();  // q(t) until FreeVelocity
  b.mutable_q() += (0.5 * h) * b.u();
  b.UpdateShape();
}

void SemiExplicitFreeVelocity(FeBody& b, double t, double h, const Vec3& gravity) {
  FeBody::StepState& s = b.step_state();
  const int ndofs = b.num_dofs();
  if (s.u0.size() != ndofs) s.u0 = b.u();
  if (s.q_free.size() != ndofs) s.q_free = b.q() - (0.5 * h) * s.u0;
  b.impulse().setZero(ndofs);
  b.ResetInertiaOperator();  // local dynamics with the lumped mass
  s.external = b.ExternalForce(t + 0.5 * h, h, gravity);
  const VecX& m = b.lumped_mass();
  if (s.substeps <= 1) {
    VecX f = s.external + b.InternalForce();
    if (b.damping > 0.0) f -= b.damping * b.StiffnessProduct(s.u0);
    b.u_free() = s.u0 + h * f.cwiseQuotient(m);
    s.q_free = b.q() + (0.5 * h) * b.u_free();
    return;
  }
  const VecX q_mid = b.q();
  const double sh = h / s.substeps;
  VecX v = s.u0;
  b.mutable_q() = s.q_free;
  for (int i = 0; i < s.substeps; ++i) {
    b.mutable_q() += (0.5 * sh) * v;
    VecX f = s.external + b.InternalForce();
    if (b.damping > 0.0) f -= b.damping * b.StiffnessProduct(v);
    v += sh * f.cwiseQuotient(m);
    b.mutable_q() += (0.5 * sh) * v;
  }
  s.q_free = b.q();
  b.u_free() = v;
  b.mutable_q() = q_mid;  // the shape of q(t+h/2) is unchanged
}

void EndSemiExplicitStep(FeBody& b, double, double h) {
  FeBody::StepState& s = b.step_state();
  VecX du = VecX::Zero(b.num_dofs());
  if (b.impulse().size() == b.num_dofs()) du = b.impulse().cwiseQuotient(b.lumped_mass());
  b.mutable_u() = b.u_free() + du;
  b.mutable_q() = s.q_free + (0.5 * h) * du;
  if (s.external.size() == b.num_dofs())
    b.external_work += 0.5 * h * s.external.dot(s.u0 + b.u());
  b.UpdateShape();
}

}  // namespace solfec::integration
