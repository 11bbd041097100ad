// Recursive octant subdivision of a set of boxes and the overlap pairs of its leaves.
#include "contact/octree.h"

#include <algorithm>

namespace solfec::contact {

using geometry::Aabb;

namespace {

// The children of an octant (child c: upper half along axis k iff bit k of c) that box b
// overlaps, as a bit set: b overlaps its parent, so it overlaps the lower half along k iff
// b.lo_k <= mid_k and the upper half iff b.hi_k >= mid_k (closed cells, as Aabb::Overlaps).
inline unsigned ChildMask(const Aabb& b, const Vec3& mid) {
  constexpr unsigned kLower[3] = {0x55, 0x33, 0x0F}, kUpper[3] = {0xAA, 0xCC, 0xF0};
  unsigned mask = 0xFF;
  for (int k = 0; k < 3; ++k)
    mask &= (b.lo[k] <= mid[k] ? kLower[k] : 0u) | (b.hi[k] >= mid[k] ? kUpper[k] : 0u);
  return mask;
}

}  // namespace

void Octree::Octant(const Aabb& cell, size_t begin, size_t end, int depth, unsigned closed) {
  const std::vector<Aabb>& boxes = *boxes_;
  const size_t count = end - begin;
  if (static_cast<int>(count) <= options.max_items || depth >= options.max_depth) {
    // Two overlapping boxes share every leaf their intersection meets: the pair is reported
    // by one of them, the leaf holding the intersection's lowest corner p (cells half open,
    // [lo, hi), but along the root's upper faces: `closed`). Every octant holding p holds
    // both boxes, so the descent along p ends in a leaf with both: each overlapping pair
    // once, with no repeats to drop.
    for (size_t a = begin; a < end; ++a) {
      const Aabb& A = boxes[items_[a]];
      for (size_t b = a + 1; b < end; ++b) {
        const Aabb& B = boxes[items_[b]];
        if (!A.Overlaps(B)) continue;
        bool mine = true;
        for (int k = 0; k < 3; ++k) {
          const double p = std::max(A.lo[k], B.lo[k]);
          mine = mine && p >= cell.lo[k] && (p < cell.hi[k] || ((closed >> k) & 1u));
        }
        if (mine)
          pairs_->emplace_back(std::min(items_[a], items_[b]), std::max(items_[a], items_[b]));
      }
    }
    return;
  }
  const Vec3 mid = 0.5 * (cell.lo + cell.hi);
  // Each box's children at once (one pass, 6 comparisons a box), then the children's lists.
  masks_.resize(std::max(masks_.size(), end));
  for (size_t i = begin; i < end; ++i) masks_[i] = ChildMask(boxes[items_[i]], mid);
  for (int c = 0; c < 8; ++c) {
    Aabb child;
    for (int k = 0; k < 3; ++k) {
      const bool upper = (c >> k) & 1;
      child.lo[k] = upper ? mid[k] : cell.lo[k];
      child.hi[k] = upper ? cell.hi[k] : mid[k];
    }
    // The child's items go on top of the stack (items_ may reallocate: indices only).
    const size_t first = items_.size();
    for (size_t i = begin; i < end; ++i)
      if ((masks_[i] >> c) & 1u) items_.push_back(items_[i]);
    const size_t last = items_.size();
    if (last - first >= 2) {
      // A child that every box overlaps would repeat its parent down to max_depth (8^depth
      // octants where many boxes share a corner): it becomes a leaf instead.
      // Its upper face along k is the root's if its parent's is and it is the upper half.
      Octant(child, first, last, last - first == count ? options.max_depth : depth + 1,
             closed & static_cast<unsigned>(c));
    }
    items_.resize(first);
  }
}

void Octree::Pairs(const std::vector<Aabb>& boxes, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  if (boxes.size() < 2) return;
  boxes_ = &boxes;
  pairs_ = &pairs;
  items_.clear();
  Aabb root;
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (boxes[i].empty()) continue;
    root.Extend(boxes[i]);
    items_.push_back(static_cast<int>(i));
  }
  Octant(root, 0, items_.size(), 0, 7u);
  std::sort(pairs.begin(), pairs.end());
}

std::vector<std::pair<int, int>> OctreePairs(const std::vector<Aabb>& boxes,
                                             const OctreeOptions& options) {
  Octree tree;
  tree.options = options;
  std::vector<std::pair<int, int>> pairs;
  tree.Pairs(boxes, pairs);
  return pairs;
}

}  // namespace solfec::contact
