// Broad phase: candidate pairs of shape pieces whose bounding boxes overlap, in
// sub-quadratic time (sort and sweep along the axis of largest spread).
#pragma once

#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"

namespace solfec::contact {

struct BoxItem {
  geometry::Aabb box;
  int body = 0;   // index of the body in the caller's list
  int piece = 0;  // piece index within the body's shape (convexes first, then spheres)
};

struct CandidatePair {
  int a = 0, b = 0;  // indices into the item list, a < b
};

// All pairs (a, b) of items whose boxes overlap. Pairs within the same body are reported
// only if `same_body` is true for that body (self-contact); filtering beyond that is the
// caller's.
std::vector<CandidatePair> OverlappingPairs(const std::vector<BoxItem>& items,
                                            const std::vector<bool>& same_body);

}  // namespace solfec::contact
