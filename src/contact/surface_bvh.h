// Bounding-volume hierarchy of axis-aligned boxes over surface primitives (slave nodes or
// master faces), built top down once and refitted every step (paper section 5.2).
#pragma once

#include <utility>
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
// pruning node pairs whose boxes do not overlap, descending the node with the larger box
// (sum of extents; the paper descends the first tree first: same pairs, more box tests);
// calls visit(primitive of a, primitive of b) for every pair of overlapping leaves
// (a template: the visitor is inlined). Returns the number of box-box tests (an effort
// measure).
template <class Visit>
long TraversePairs(const SurfaceBvh& a, const SurfaceBvh& b, Visit&& visit) {
  if (a.empty() || b.empty()) return 0;
  const auto& na = a.nodes();
  const auto& nb = b.nodes();
  long tests = 0;
  std::vector<std::pair<int, int>> stack;  // depth first: at most depth(a) + depth(b) + 1
  stack.reserve(64);
  stack.emplace_back(0, 0);
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    stack.pop_back();
    ++tests;
    if (!na[i].box.Overlaps(nb[j].box)) continue;
    const bool leaf_a = na[i].primitive >= 0, leaf_b = nb[j].primitive >= 0;
    if (leaf_a && leaf_b) {
      visit(na[i].primitive, nb[j].primitive);
    } else if (!leaf_a && (leaf_b || (na[i].box.hi - na[i].box.lo).sum() >=
                                          (nb[j].box.hi - nb[j].box.lo).sum())) {
      stack.emplace_back(na[i].right, j);
      stack.emplace_back(na[i].left, j);
    } else {
      stack.emplace_back(i, nb[j].right);
      stack.emplace_back(i, nb[j].left);
    }
  }
  return tests;
}

}  // namespace solfec::contact
