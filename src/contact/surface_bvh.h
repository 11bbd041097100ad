// Bounding-volume hierarchy of axis-aligned boxes over surface primitives (slave nodes or
// master faces), built top down once and refitted every step (paper section 5.2).
#pragma once

#include <utility>
#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"

namespace solfec::contact {

// Binary tree with up to leaf_size primitives per leaf (1: one per leaf, as the face
// hierarchies; slave-node hierarchies keep a few points per leaf). Build splits the
// primitive set by the plane orthogonal to the longest axis of the box of the primitive
// centres, through the median centre (a balanced tree of depth <= ceil(log2 n)), until a
// range holds at most leaf_size primitives. Refit recomputes the boxes bottom up for new
// primitive boxes with the same count and keeps the topology.
class SurfaceBvh {
 public:
  struct Node {
    geometry::Aabb box;
    int right = -1;  // internal node: right child (the left child is the next node)
    // Leaf: entries [first, first + count) of leaf_primitives() / leaf_boxes(); with
    // leaf_size 1, first is the primitive itself. count = 0 for internal nodes.
    int first = -1, count = 0;
    // Sum of the box's edge lengths (set by Refit), which of two nodes to descend: float
    // keeps a node in 64 bytes and the choice does not change the pairs found.
    float extent = 0.0f;
  };
  // Traversal stack size: a median split gives depth <= ceil(log2 n) <= 31 per tree.
  static constexpr int kMaxStack = 64;
  // Largest leaf size (Build clamps to it; the traversal keeps a leaf's hits on the stack).
  static constexpr int kMaxLeafSize = 32;

  void Build(const std::vector<geometry::Aabb>& boxes, int leaf_size = 1);
  // Same number of boxes as at Build (otherwise Build is called with the same leaf size).
  void Refit(const std::vector<geometry::Aabb>& boxes);

  bool empty() const { return nodes_.empty(); }
  int size() const { return num_primitives_; }
  int leaf_size() const { return leaf_size_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const geometry::Aabb& bounds() const { return nodes_.front().box; }
  // Leaf entries (leaf_size > 1 only): primitive and its box, leaf after leaf.
  const std::vector<int>& leaf_primitives() const { return leaf_primitives_; }
  const std::vector<geometry::Aabb>& leaf_boxes() const { return leaf_boxes_; }

 private:
  int BuildRange(std::vector<int>& order, const std::vector<Vec3>& centres, int begin, int end);

  std::vector<Node> nodes_;  // nodes_[0] is the root; children follow their parent
  std::vector<int> leaf_primitives_;
  std::vector<geometry::Aabb> leaf_boxes_;
  int num_primitives_ = 0;
  int leaf_size_ = 1;
};

// Whether two boxes overlap (closed boxes; as geometry::Aabb::Overlaps). The six
// comparisons are combined with & (no branch each): the traversal's outcomes are hard to
// predict and one mispredicted branch costs more than the comparisons.
inline bool BoxesOverlap(const geometry::Aabb& a, const geometry::Aabb& b) {
  return (a.lo[0] <= b.hi[0]) & (b.lo[0] <= a.hi[0]) & (a.lo[1] <= b.hi[1]) &
         (b.lo[1] <= a.hi[1]) & (a.lo[2] <= b.hi[2]) & (b.lo[2] <= a.hi[2]);
}

namespace detail {

// TraversePairs for a hierarchy `a` with several primitives per leaf (kBucketsA) or one.
// The stack is written whether or not a child pair overlaps and its top advanced by the
// outcome (no branch per test: the outcomes are hard to predict).
template <bool kBucketsA, class Visit>
long TraverseTrees(const SurfaceBvh& a, const SurfaceBvh& b, Visit& visit) {
  const SurfaceBvh::Node* na = a.nodes().data();
  const SurfaceBvh::Node* nb = b.nodes().data();
  long tests = 1;
  if (!BoxesOverlap(na[0].box, nb[0].box)) return tests;
  // At most depth(a) + depth(b) + 1 pairs, and one written beyond the top.
  int stack_a[SurfaceBvh::kMaxStack + 1], stack_b[SurfaceBvh::kMaxStack + 1];  // not zeroed
  int top = 0;
  const auto push = [&](int i, int j, bool overlap) {
    stack_a[top] = i, stack_b[top] = j;
    top += overlap;
  };
  push(0, 0, true);
  while (top > 0) {
    --top;
    const int i = stack_a[top], j = stack_b[top];
    const SurfaceBvh::Node& A = na[i];
    const SurfaceBvh::Node& B = nb[j];
    const bool leaf_a = A.count > 0, leaf_b = B.count > 0;
    if (leaf_a && leaf_b) {
      if constexpr (kBucketsA) {
        const int* prim = a.leaf_primitives().data() + A.first;
        if (A.count == 1) {
          visit(prim[0], B.first);
        } else {  // the leaf's own boxes against B's (one primitive: its box)
          const geometry::Aabb* box = a.leaf_boxes().data() + A.first;
          tests += A.count;
          int hit[SurfaceBvh::kMaxLeafSize], hits = 0;
          for (int e = 0; e < A.count; ++e) {
            hit[hits] = e;
            hits += BoxesOverlap(box[e], B.box);
          }
          for (int e = 0; e < hits; ++e) visit(prim[hit[e]], B.first);
        }
      } else {
        visit(A.first, B.first);
      }
    } else if (!leaf_a && (leaf_b || A.extent >= B.extent)) {
      tests += 2;
      push(A.right, j, BoxesOverlap(na[A.right].box, B.box));
      push(i + 1, j, BoxesOverlap(na[i + 1].box, B.box));
    } else {
      tests += 2;
      push(i, B.right, BoxesOverlap(A.box, nb[B.right].box));
      push(i, j + 1, BoxesOverlap(A.box, nb[j + 1].box));
    }
  }
  return tests;
}

}  // namespace detail

// Algorithm 1 of the paper (elementary searching): simultaneous descent of two hierarchies,
// pruning node pairs whose boxes do not overlap, descending the node with the larger box
// (sum of extents; the paper descends the first tree first: same pairs, more box tests);
// calls visit(primitive of a, primitive of b) for every pair of overlapping primitive boxes
// (a template: the visitor is inlined). A child pair is tested before it is stacked (the
// stack holds overlapping pairs only; fixed size: the trees are balanced, depth <= 31 each).
// `a` may hold several primitives per leaf (a leaf meeting a leaf of b tests its own boxes
// against b's); b must hold one per leaf. Returns the number of box-box tests (an effort
// measure).
template <class Visit>
long TraversePairs(const SurfaceBvh& a, const SurfaceBvh& b, Visit&& visit) {
  if (a.empty() || b.empty()) return 0;
  if (a.leaf_size() > 1) return detail::TraverseTrees<true>(a, b, visit);
  return detail::TraverseTrees<false>(a, b, visit);
}

}  // namespace solfec::contact
