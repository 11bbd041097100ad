// Time stepping of pseudo-rigid bodies: DEF_EXP (explicit) and DEF_LIM (linearly implicit)
// in the split-midpoint form BeginStep / FreeVelocity / EndStep of integrator.h.
#pragma once

#include "base/types.h"
#include "body/pseudo_rigid_body.h"

namespace solfec::integration {

// Throws InputError for a scheme other than DEFAULT/DEF_EXP/DEF_LIM, and for DEF_EXP when
// h exceeds PseudoRigidCriticalStep at the current configuration (message names the body,
// h and the critical step). Changes nothing.
void CheckPseudoRigidStep(const body::PseudoRigidBody& b, double h);

// CheckPseudoRigidStep, then q(t+h/2) = q(t) + h/2 u(t); updates the current shape.
void BeginPseudoRigidStep(body::PseudoRigidBody& b, double t, double h);

// f = f_ext(t+h/2) - V P(F(t+h/2)) - damping K u(t) on the F dofs;
// DEF_EXP (and DEFAULT): u_free = u + h M^-1 f;
// DEF_LIM: A = M + (damping h/2 + h^2/4) K(q(t+h/2)), u_free = u + h A^-1 f, and A is set
//   as the body's inertia operator so that the local dynamics uses A^-1 consistently.
// Other schemes throw InputError.
void PseudoRigidFreeVelocity(body::PseudoRigidBody& b, double t, double h, const Vec3& gravity);

// u(t+h) = u_free + A^-1 impulse, q(t+h) = q(t+h/2) + h/2 u(t+h); external work; shape.
void EndPseudoRigidStep(body::PseudoRigidBody& b, double t, double h);

// Stability limit of the explicit scheme at the current configuration:
// 2/w (sqrt(1 + xi^2) - xi), w^2 = largest eigenvalue of K x = w^2 M_FF x (K symmetrised,
// negative eigenvalues ignored), xi = damping w / 2. Infinity when K vanishes.
double PseudoRigidCriticalStep(const body::PseudoRigidBody& b);

}  // namespace solfec::integration
