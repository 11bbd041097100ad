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
// p1 -> p2, stroke = length - initial length); with it the axis is the given direction,
// kept fixed or convected with body1/body2 (`update`), and the stroke is the change of the
// projection of (x2 - x1) on the axis. Throws InputError on bad input.
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

}  // namespace solfec::domain
