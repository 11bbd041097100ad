// Bounding-volume hierarchy of axis-aligned boxes over surface primitives (slave nodes or
// master faces), built top down once and refitted every step (paper section 5.2).
#pragma once

#include <functional>
#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"

namespace solfec::contact {

// Binary tree with one primitive per leaf. Build splits the primitive set by the plane
// orthogonal to the longest axis of the box of the primitive centres, through the median
// centre (a balanced tree of depth ceil(log2 n)). Refit recomputes the boxes bottom up for
// new primitive boxes with the same count and keeps the topology.
class SurfaceBvh {
 public:
  struct Node {
    geometry::Aabb box;
    int left = -1, right = -1;  // children (internal nodes)
    int primitive = -1;         // leaf: index of the primitive, -1 for internal nodes
  };

  void Build(const std::vector<geometry::Aabb>& boxes);
  // Same number of boxes as at Build (otherwise Build is called).
  void Refit(const std::vector<geometry::Aabb>& boxes);

  bool empty() const { return nodes_.empty(); }
  int size() const { return num_primitives_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const geometry::Aabb& bounds() const { return nodes_.front().box; }

 private:
  int BuildRange(std::vector<int>& order, const std::vector<Vec3>& centres, int begin, int end);

  std::vector<Node> nodes_;  // nodes_[0] is the root; children follow their parent
  int num_primitives_ = 0;
};

// Algorithm 1 of the paper (elementary searching): simultaneous descent of two hierarchies,
// pruning node pairs whose boxes do not overlap, descending the first tree before the
// second; calls visit(primitive of a, primitive of b) for every pair of overlapping leaves.
// Returns the number of box-box tests (an effort measure).
long TraversePairs(const SurfaceBvh& a, const SurfaceBvh& b,
                   const std::function<void(int, int)>& visit);

}  // namespace solfec::contact
