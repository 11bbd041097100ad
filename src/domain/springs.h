// PUT_SPRING spring-dashpot constraints: creation (initial length, axis) and the per-step
// update of their points, axis and stroke at q(t+h/2).
#pragma once

#include <optional>

#include "base/types.h"
#include "body/body.h"
#include "contact/constraint.h"

namespace solfec::domain {

// Builds a SPRING constraint between point p1 (referential on body1, or spatial if body1 is
// null) and p2 (likewise on body2). Without `direction` the spring is a follower (axis along
// p1 -> p2, stroke = length - initial length); with it the axis is minus the given
// direction d, kept fixed or convected with body1/body2 (`update`), and the stroke is the
// change of (x1 - x2) . d as in Solfec-1.0. Throws InputError on bad input.
contact::Constraint MakeSpring(body::Body* body1, const Vec3& p1, body::Body* body2,
                               const Vec3& p2, contact::SpringFunction f,
                               const std::optional<Vec3>& direction,
                               contact::SpringUpdate update);

// Current spring axis (unit, from point 1 towards point 2 for followers) at the bodies'
// current configuration.
Vec3 SpringAxis(const contact::Constraint& c, const Vec3& x1, const Vec3& x2);

// Updates point, point2, base (N oriented so that U_N = d stroke/dt) and stroke, and records
// whether the step is QUASI_STATIC (q(t+h) = q(t) + h u instead of the split midpoint).
void UpdateSpring(contact::Constraint& c, bool quasi_static = false);

// Stroke [m] at the bodies' current configuration (at the end of a step: s(t+h)).
double CurrentStroke(const contact::Constraint& c);

// Stored elastic energy [J] of the spring at its current stroke s: the potential of the
// velocity-independent force, E(s) = -int_0^s f(x, 0) dx (Gauss-Legendre, exact for
// polynomial f(., 0) up to degree 9); 0 without a function (restored from a file).
double SpringPotential(const contact::Constraint& c);

// Work [J] of the velocity-dependent (dashpot) part of the spring force over the last step
// of length h: h (R_N - f(s_f, 0)) (U_N(t) + U_N(t+h)) / 2, s_f the stroke at which the
// step's force was evaluated (implicit midpoint; QUASI_STATIC s(t) + h U_N). <= 0 for a
// dissipative dashpot; for a linear spring-dashpot the step's total work h R_N U_mid is
// exactly this plus -(E(s(t+h)) - E(s(t))).
double SpringDashpotWork(const contact::Constraint& c, double h);

}  // namespace solfec::domain
