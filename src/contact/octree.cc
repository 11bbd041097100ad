// Recursive octant subdivision of a set of boxes and the overlap pairs of its leaves.
#include "contact/octree.h"

#include <algorithm>

namespace solfec::contact {

using geometry::Aabb;

namespace {

struct OctreeBuilder {
  const std::vector<Aabb>& boxes;
  const OctreeOptions& options;
  std::vector<std::pair<int, int>>& pairs;

  void Octant(const Aabb& cell, const std::vector<int>& items, int depth) {
    if (static_cast<int>(items.size()) <= options.max_items || depth >= options.max_depth) {
      for (size_t a = 0; a < items.size(); ++a)
        for (size_t b = a + 1; b < items.size(); ++b)
          if (boxes[items[a]].Overlaps(boxes[items[b]]))
            pairs.emplace_back(std::min(items[a], items[b]), std::max(items[a], items[b]));
      return;
    }
    const Vec3 mid = 0.5 * (cell.lo + cell.hi);
    std::vector<int> child_items;
    child_items.reserve(items.size());
    for (int c = 0; c < 8; ++c) {
      Aabb child;
      for (int k = 0; k < 3; ++k) {
        const bool upper = (c >> k) & 1;
        child.lo[k] = upper ? mid[k] : cell.lo[k];
        child.hi[k] = upper ? cell.hi[k] : mid[k];
      }
      child_items.clear();
      for (int i : items)
        if (boxes[i].Overlaps(child)) child_items.push_back(i);
      if (child_items.size() < 2) continue;
      // A child that every box overlaps would repeat its parent down to max_depth (8^depth
      // octants where many boxes share a corner): it becomes a leaf instead.
      Octant(child, child_items, child_items.size() == items.size() ? options.max_depth
                                                                      : depth + 1);
    }
  }
};

}  // namespace

std::vector<std::pair<int, int>> OctreePairs(const std::vector<Aabb>& boxes,
                                             const OctreeOptions& options) {
  std::vector<std::pair<int, int>> pairs;
  if (boxes.size() < 2) return pairs;
  Aabb root;
  std::vector<int> items;
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (boxes[i].empty()) continue;
    root.Extend(boxes[i]);
    items.push_back(static_cast<int>(i));
  }
  OctreeBuilder builder{boxes, options, pairs};
  builder.Octant(root, items, 0);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace solfec::contact
