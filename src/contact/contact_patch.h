// Contact patches: up to four points spanning the contact polygon of a convex-convex
// overlap, so that a face-to-face contact resists rocking and comes to rest.
#pragma once

#include <vector>

#include "contact/narrow_phase.h"
#include "geometry/convex.h"

namespace solfec::contact {

// The contact of a and b (as ConvexConvexContact: closer than epsilon) as 1 to max_points
// contact points: the overlap
// polytope is projected on the contact plane through its centroid and the points are the
// corners of that polygon that span the largest area (2 for an edge-like patch, 1 for a
// patch smaller than a twentieth of the smaller piece's bounding-box diagonal). Every point shares the normal, gap and surface pair; the area is split
// evenly. Empty when the pieces do not overlap.
// face_centroid with max_points 1: the point is the area centroid of the contact polygon (the
// overlap projected on the contact plane) instead of the overlap's volume centroid, which
// for a thin wedge (two touching mesh faces a little out of parallel) sits up to a sixth of
// the face width off the face centre.
std::vector<ContactGeometry> ConvexConvexPatch(const geometry::Convex& a,
                                               const geometry::Convex& b, double epsilon,
                                               int max_points = 4, bool face_centroid = false);

}  // namespace solfec::contact
