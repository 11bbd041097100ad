// Time integration of one body over a step, split around the constraint solve
// (manual eqs. 1.5-1.7): BeginStep, FreeVelocity, then EndStep with the solved impulse.
#pragma once

#include "base/types.h"
#include "body/body.h"

namespace solfec::integration {

// kDynamic: the split-midpoint schemes below; kQuasiStatic: inertia neglected, one
// regularised equilibrium step per time step (quasi_static_integrator.h). The domain passes
// its analysis; gravity and loads are then taken at t+h instead of t+h/2.
enum class Mode { kDynamic, kQuasiStatic };

// Validates the step h for the body's kind and scheme before anything moves: throws
// InputError for a scheme the kind does not have or an explicit step above the body's
// critical step (pseudo-rigid DEF_EXP). Rigid kinds: nothing to check. Quasi-static: the
// scheme is ignored, nothing to check.
void CheckStep(const body::Body& b, double h, Mode mode = Mode::kDynamic);

// The critical step of the body's explicit dynamic scheme at its current configuration
// (PSEUDO_RIGID and FINITE_ELEMENT 'DEF_EXP' or 'DEFAULT': 2 / omega_max, lowered by
// damping); infinity
// for implicit schemes, rigid kinds and the reduced and FFR forms (those check their own).
double CriticalStep(const body::Body& b);

// q(t+h/2) = q(t) + h/2 u(t) for the body's kind and scheme; updates the current shape.
void BeginStep(body::Body& b, double t, double h, Mode mode = Mode::kDynamic);

// u_free = u(t) + h A^-1 f(t+h/2) (gravity g plus the body's loads); clears b.impulse().
void FreeVelocity(body::Body& b, double t, double h, const Vec3& gravity,
                  Mode mode = Mode::kDynamic);

// u(t+h) = u_free + A^-1 impulse; q(t+h) = q(t+h/2) + h/2 u(t+h); accumulates the
// external work; updates the current shape.
void EndStep(body::Body& b, double t, double h, Mode mode = Mode::kDynamic);

}  // namespace solfec::integration
