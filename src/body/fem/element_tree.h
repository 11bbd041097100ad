// Bounding-volume hierarchy over element boxes: point queries and nearest-box search in
// O(log n) for FeBody point location.
#pragma once

#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"

namespace solfec::body::fem {

// Binary tree built by median split along the longest extent of the box centres; leaves
// hold up to kLeafSize items. Refit keeps the topology and recomputes the boxes bottom-up
// (the deformed mesh: neighbouring elements stay neighbours, so queries stay O(log n)).
class ElementTree {
 public:
  static constexpr int kLeafSize = 4;

  void Build(const std::vector<geometry::Aabb>& boxes);
  // Same item count as Build; boxes[i] is the new box of item i.
  void Refit(const std::vector<geometry::Aabb>& boxes);
  bool empty() const { return nodes_.empty(); }

  // Items whose box contains p, appended to `out` (cleared first).
  void Query(const Vec3& p, std::vector<int>& out) const;
  // Item whose box is nearest to p (distance 0 inside a box; ties: the lower tree order);
  // -1 for an empty tree.
  int Nearest(const Vec3& p) const;

 private:
  struct Node {
    geometry::Aabb box;
    int left = -1, right = -1;  // children (internal nodes)
    int first = 0, count = 0;   // items_[first, first + count) (leaves)
  };
  int BuildRange(int first, int count);
  void RefitNode(int n);

  std::vector<Node> nodes_;
  std::vector<int> items_;            // item indices in leaf order
  std::vector<geometry::Aabb> boxes_;  // item boxes
};

}  // namespace solfec::body::fem
