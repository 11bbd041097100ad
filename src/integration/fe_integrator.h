// Time stepping of finite-element bodies of form 'TL': DEF_EXP (explicit, lumped mass; the
// default, as in Solfec-1.0), DEF_LIM (linearly implicit) and DEF_SEMI_EXPLICIT
// (semi_explicit_integrator.h) in the split-midpoint form BeginStep / FreeVelocity / EndStep.
// Form 'BC' has its own functions (corotated_integrator.h); integrator.cc chooses by form.
#pragma once

#include "base/types.h"
#include "body/fem/fe_body.h"

namespace solfec::integration {

// Throws InputError for a scheme other than DEFAULT/DEF_EXP/DEF_LIM, and for DEF_EXP when
// h exceeds FeCriticalStep at the current configuration. Changes nothing.
void CheckFeStep(const body::FeBody& b, double h);

// CheckFeStep, then q(t+h/2) = q(t) + h/2 u(t); updates the current shape.
void BeginFeStep(body::FeBody& b, double t, double h);

// f = f_ext(t+h/2) + f_int(q(t+h/2)) - damping K u(t);
// DEF_EXP (and DEFAULT): u_free = u + h M^-1 f (lumped M);
// DEF_LIM: A = M + (damping h/2 + h^2/4) K(q(t+h/2)) factorized once (sparse
//   Cholesky, CHOLMOD), u_free = u + h A^-1 f; A is the body's inertia operator for the
//   local dynamics.
void FeFreeVelocity(body::FeBody& b, double t, double h, const Vec3& gravity);

// u(t+h) = u_free + A^-1 impulse, q(t+h) = q(t+h/2) + h/2 u(t+h); external work; shape.
void EndFeStep(body::FeBody& b, double t, double h);

// The part of EndFeStep shared by the TL and BC forms: velocity, configuration and external
// work; the current shape is not updated.
void EndFeMotion(body::FeBody& b, double h);

// Explicit stability limit 2/w (sqrt(1 + xi^2) - xi), xi = damping w / 2, with the element
// bound w^2 = FeBody::MaxFrequencySquared() (form 'BC': referential, computed once, as
// Solfec-1.0's BC_dynamic_critical_step; form 'TL': at the current q, recomputed when q has
// changed, so once per step however often it is asked). Infinity when K vanishes.
double FeCriticalStep(const body::FeBody& b);

}  // namespace solfec::integration
