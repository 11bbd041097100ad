// DEF_SEMI_EXPLICIT time stepping of finite-element bodies (Peng, Feng & Joli 2018, eqs.
// 26-35 and 46): explicit element-level internal forces, lumped mass, implicit contact.
#pragma once

#include "base/types.h"
#include "body/fem/fe_body.h"

namespace solfec::integration {

// Reduction factor delta of eq. 46 (the paper: 0.2 < delta < 0.9, chosen empirically).
constexpr double kSemiExplicitDelta = 0.5;

// Eq. 46: h_c = delta * l_min / c with l_min the shortest current element edge (smallest
// distance between two nodes of one element) and c = sqrt((lambda + 2 mu) / rho) the
// dilatational wave speed of the element's material (>= the paper's sqrt(E / rho)).
// Minimum over the elements; infinity for a body without elements.
double SemiExplicitCriticalStep(const body::FeBody& b);

// Number of sub-steps n = ceil(h / h_c) of the internal forces for step h (1 when h <= h_c).
// When n > 1 for the first time for this body, prints one warning to stderr naming the body,
// h and h_c.
int SemiExplicitSubsteps(body::FeBody& b, double h);

// Stores q(t), u(t) and the sub-step count; q(t+h/2) = q(t) + h/2 u(t); updates the shape.
void BeginSemiExplicitStep(body::FeBody& b, double t, double h);

// Free motion over [t, t+h] from q(t), u(t) in n leapfrog sub-steps of s = h/n:
//   q += s/2 v;  v += s M^-1 (f_ext(t+h/2) + f_int(q) - damping K(q) v);  q += s/2 v,
// K v element by element (no assembly), M lumped. u_free = v, q_free = q (kept in the step
// state; the current q stays q(t+h/2) for the constraint solve). The body's inertia
// operator is the lumped mass, so the local dynamics uses W = H M^-1 H^T h.
// With n = 1 this is exactly u_free = u + h M^-1 f(q(t+h/2)), q_free = q(t+h/2) + h/2 u_free.
void SemiExplicitFreeVelocity(body::FeBody& b, double t, double h, const Vec3& gravity);

// du = M^-1 impulse (impulse = H^T R h), u(t+h) = u_free + du, q(t+h) = q_free + h/2 du;
// external work; shape.
void EndSemiExplicitStep(body::FeBody& b, double t, double h);

}  // namespace solfec::integration
