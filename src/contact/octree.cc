// Recursive octant subdivision of a set of boxes and the overlap pairs of its leaves.
#include "contact/octree.h"

#include <algorithm>

#include "base/counting_sort.h"

namespace solfec::contact {

using geometry::Aabb;

void Octree::Octant(const Aabb& cell, size_t begin, size_t end, int depth) {
  const std::vector<Aabb>& boxes = *boxes_;
  const size_t count = end - begin;
  if (static_cast<int>(count) <= options.max_items || depth >= options.max_depth) {
    for (size_t a = begin; a < end; ++a)
      for (size_t b = a + 1; b < end; ++b)
        if (boxes[items_[a]].Overlaps(boxes[items_[b]]))
          pairs_->emplace_back(std::min(items_[a], items_[b]), std::max(items_[a], items_[b]));
    return;
  }
  const Vec3 mid = 0.5 * (cell.lo + cell.hi);
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
      if (boxes[items_[i]].Overlaps(child)) items_.push_back(items_[i]);
    const size_t last = items_.size();
    if (last - first >= 2) {
      // A child that every box overlaps would repeat its parent down to max_depth (8^depth
      // octants where many boxes share a corner): it becomes a leaf instead.
      Octant(child, first, last, last - first == count ? options.max_depth : depth + 1);
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
  Octant(root, 0, items_.size(), 0);
  // Sorted and unique: the pairs bucketed by their first box (a counting sort), each bucket
  // (a box's few neighbours, repeated once per shared leaf) sorted by the second box and its
  // repeats dropped; O(pairs + boxes) but for the small sorts.
  const int n = static_cast<int>(boxes.size());
  CountingSortBy(pairs, n, [](const std::pair<int, int>& p) { return p.first; }, end_,
                 scratch_);
  pairs.clear();
  for (int i = 0, begin = 0; i < n; begin = end_[i++]) {
    const auto first = scratch_.begin() + begin, last = scratch_.begin() + end_[i];
    std::sort(first, last);
    for (auto it = first; it != last; ++it)
      if (it == first || it->second != (it - 1)->second) pairs.push_back(*it);
  }
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
