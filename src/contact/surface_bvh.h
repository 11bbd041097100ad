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
    // Sum of the box's edge lengths (set by Refit), which of two nodes to descend: float
    // keeps a node in 64 bytes and the choice does not change the pairs found.
    float extent = 0.0f;
  };
  // Traversal stack size: a median split gives depth <= ceil(log2 n) <= 31 per tree.
  static constexpr int kMaxStack = 64;

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

// Whether two boxes overlap (closed boxes; as geometry::Aabb::Overlaps, with an early exit
// per axis for the traversal's inner loop).
inline bool BoxesOverlap(const geometry::Aabb& a, const geometry::Aabb& b) {
  return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] &&
         b.lo[1] <= a.hi[1] && a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

// Algorithm 1 of the paper (elementary searching): simultaneous descent of two hierarchies,
// pruning node pairs whose boxes do not overlap, descending the node with the larger box
// (sum of extents; the paper descends the first tree first: same pairs, more box tests);
// calls visit(primitive of a, primitive of b) for every pair of overlapping leaves
// (a template: the visitor is inlined). A child pair is tested before it is stacked (the
// stack holds overlapping pairs only; fixed size: the trees are balanced, depth <= 31 each).
// Returns the number of box-box tests (an effort measure).
template <class Visit>
long TraversePairs(const SurfaceBvh& a, const SurfaceBvh& b, Visit&& visit) {
  if (a.empty() || b.empty()) return 0;
  const SurfaceBvh::Node* na = a.nodes().data();
  const SurfaceBvh::Node* nb = b.nodes().data();
  long tests = 1;
  if (!BoxesOverlap(na[0].box, nb[0].box)) return tests;
  int stack_a[SurfaceBvh::kMaxStack], stack_b[SurfaceBvh::kMaxStack];  // not zeroed
  int top = 0;  // at most depth(a) + depth(b) + 1 pairs
  const auto push = [&](int i, int j) { stack_a[top] = i, stack_b[top++] = j; };
  push(0, 0);
  while (top > 0) {
    --top;
    const int i = stack_a[top], j = stack_b[top];
    const SurfaceBvh::Node& A = na[i];
    const SurfaceBvh::Node& B = nb[j];
    const bool leaf_a = A.primitive >= 0, leaf_b = B.primitive >= 0;
    if (leaf_a && leaf_b) {
      visit(A.primitive, B.primitive);
    } else if (!leaf_a && (leaf_b || A.extent >= B.extent)) {
      tests += 2;
      if (BoxesOverlap(na[A.right].box, B.box)) push(A.right, j);
      if (BoxesOverlap(na[A.left].box, B.box)) push(A.left, j);
    } else {
      tests += 2;
      if (BoxesOverlap(A.box, nb[B.right].box)) push(i, B.right);
      if (BoxesOverlap(A.box, nb[B.left].box)) push(i, B.left);
    }
  }
  return tests;
}

}  // namespace solfec::contact
