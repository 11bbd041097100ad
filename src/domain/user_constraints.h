// The user constraints of manual 4.1.13 as constraint rows: FIX_POINT, FIX_DIRECTION,
// SET_VELOCITY / SET_DISPLACEMENT / SET_ACCELERATION and PUT_RIGID_LINK (PUT_SPRING:
// springs.h). Each function reads the bodies' current configuration to fix the row's
// spatial origin, base and length; the caller adds the row to the Domain.
#pragma once

#include "base/time_series.h"
#include "base/types.h"
#include "body/body.h"
#include "contact/constraint.h"

namespace solfec::domain {

// FIX_POINT: the referential point X of `body` kept at its current spatial place; the row
// is deleted once |R| > strength (strength < 0: never).
contact::Constraint MakeFixPoint(body::Body& body, const Vec3& X, double strength = -1.0);

// FIX_DIRECTION: the motion of X along the spatial direction (normalised) fixed; with
// body2, the relative motion n . (x2 - x1) of X on `body` and X2 on body2 stays as it
// starts.
contact::Constraint MakeFixDirection(body::Body& body, const Vec3& X, const Vec3& direction,
                                     body::Body* body2 = nullptr, const Vec3& X2 = Vec3::Zero());

// SET_VELOCITY: the velocity of X along the spatial direction (normalised) prescribed.
contact::Constraint MakeSetVelocity(body::Body& body, const Vec3& X, const Vec3& direction,
                                    ScalarOrSeries velocity);

// SET_DISPLACEMENT: the displacement history of X along the direction prescribed (its
// velocity is the series' derivative; the displacement corrects drift).
contact::Constraint MakeSetDisplacement(body::Body& body, const Vec3& X, const Vec3& direction,
                                        TimeSeries displacement);

// SET_ACCELERATION: the velocity is the integral of the acceleration series from its first
// time.
contact::Constraint MakeSetAcceleration(body::Body& body, const Vec3& X, const Vec3& direction,
                                        const TimeSeries& acceleration);

// PUT_RIGID_LINK: the distance between X1 on body1 and X2 on body2 kept; a missing body's
// point is fixed in space (the row is normalised so that body2 always moves). Coincident
// points (the given ones, or the spatial ones, within `geometric_epsilon`) glue the bodies:
// length 0, a 3-row equality. Deleted once |R| > strength (< 0: never).
contact::Constraint MakeRigidLink(body::Body* body1, const Vec3& X1, body::Body* body2,
                                  const Vec3& X2, double geometric_epsilon, double strength = -1.0);

}  // namespace solfec::domain
