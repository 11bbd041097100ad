// Whether two shapes overlap (OVERLAPPING, Solfec-1.0): the contact detection of every pair of
// their pieces (convexes, spheres, ellipsoids, mesh elements as convexes) with a gap bound.
#pragma once

#include "geometry/shape.h"

namespace solfec::contact {

// True if a piece of `a` and a piece of `b` make a contact (the narrow phase of manual 6.1:
// interpenetration beyond `epsilon`, GEOMETRIC_EPSILON) whose gap is <= `gap` (<= 0: minus the
// least penetration depth asked for). Mesh elements take part as convexes.
bool ShapesOverlap(const geometry::Shape& a, const geometry::Shape& b, double gap,
                   double epsilon);

}  // namespace solfec::contact
