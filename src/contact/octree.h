// Octree over body bounding boxes: the first stage of the node-to-face contact search
// (paper section 5.1), giving the pairs of bodies whose boxes overlap.
#pragma once

#include <utility>
#include <vector>

#include "geometry/aabb.h"

namespace solfec::contact {

struct OctreeOptions {
  int max_items = 3;  // an octant holding more boxes than this is split ...
  int max_depth = 3;  // ... unless it lies this deep (the root has depth 0); paper: 3, 3
};

// All pairs (i, j), i < j, of overlapping boxes, sorted. The root octant is the box of all
// boxes; an octant is split into its eight children while it holds more than max_items boxes
// and is shallower than max_depth (a child overlapped by all its parent's boxes is a leaf:
// no progress); a box is stored in every child octant it overlaps (so a
// large box, e.g. a ground plate, reaches many leaves); pairs sharing a leaf are tested for
// overlap, and a pair sharing several is reported by one: the leaf holding the lowest corner
// of the two boxes' intersection (Octree::Octant). Empty octants are never
// created (the pointer-based tree of the paper keeps only non-empty octants).
std::vector<std::pair<int, int>> OctreePairs(const std::vector<geometry::Aabb>& boxes,
                                             const OctreeOptions& options = {});

// The same octree, rebuilt every call in work lists kept between calls (no allocation per
// step once they have grown): the per-step form of OctreePairs used by the search.
class Octree {
 public:
  OctreeOptions options;
  // Overwrites `pairs` with the result of OctreePairs(boxes, options).
  void Pairs(const std::vector<geometry::Aabb>& boxes, std::vector<std::pair<int, int>>& pairs);

 private:
  // Octant holding items_[begin, end) (its children's items are appended after `end`); bit k
  // of `closed`: its upper face along axis k is the root's (closed, not half open).
  void Octant(const geometry::Aabb& cell, size_t begin, size_t end, int depth, unsigned closed);

  const std::vector<geometry::Aabb>* boxes_ = nullptr;
  std::vector<std::pair<int, int>>* pairs_ = nullptr;
  std::vector<int> items_;  // a stack of the item lists of the octants being split
  std::vector<unsigned> masks_;  // per entry of items_ being split: its children (bit set)
};

}  // namespace solfec::contact
