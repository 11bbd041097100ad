// Contact sparsification (manual Algorithm 6.1, CONTACT_SPARSIFY).
#pragma once

#include <vector>

#include "base/types.h"

namespace solfec::contact {

struct SparsifyOptions {
  double threshold = 0.01;  // area ratio in [0, 1]; 0 disables the area test
  double minarea = 0.0;     // contacts with smaller area are dropped [m^2]
  double mindist = 1e-6;    // points closer than this are one point [m]
};

// Input view of one contact for sparsification.
struct SparsifyItem {
  int body1 = 0, body2 = 0;   // body indices
  int piece1 = 0, piece2 = 0; // shape pieces
  Vec3 point;
  double area = 0.0;
  bool is_new = true;         // only new contacts are removed; old ones are kept
};

// Adjacency test of two pieces of one body (topological adjacency of elements/convexes).
using PieceAdjacency = bool (*)(const void* context, int body, int piece_a, int piece_b);

// Returns keep[i] for every item. Removes a new contact if its area < minarea, or if it is
// topologically adjacent (through either body) to another contact between the same bodies
// with area such that area_i < threshold * area_j, or if its point coincides (within
// mindist) with another kept contact between the same bodies. Items are processed in input
// order and removed items no longer count; of two coincident new contacts the earlier one is
// kept. Old contacts (is_new == false) are always kept. `adjacent` may be null (no
// topological adjacency); it is called with the body index and the two pieces on that body.
std::vector<bool> Sparsify(const std::vector<SparsifyItem>& items, const SparsifyOptions& opt,
                           PieceAdjacency adjacent, const void* context);

}  // namespace solfec::contact
