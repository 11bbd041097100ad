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
    // Sum of the box's edge lengths (set by Refit for internal nodes: the traversal compares
    // it only when both nodes are internal), which of two nodes to descend: float keeps a
    // node in 64 bytes and the choice does not change the pairs found.
    float extent = 0.0f;
  };
  // Traversal stack size: a median split gives depth <= ceil(log2 n) <= 31 per tree, and a
  // traversal holds at most 7/3 (depth(a) + depth(b)) + 1 <= 146 pairs (TraverseTrees).
  static constexpr int kMaxStack = 256;
  // Largest leaf size (Build clamps to it; the traversal keeps a leaf's hits on the stack).
  static constexpr int kMaxLeafSize = 32;

  void Build(const std::vector<geometry::Aabb>& boxes, int leaf_size = 1);
  // Same number of boxes as at Build (otherwise Build is called with the same leaf size).
  void Refit(const std::vector<geometry::Aabb>& boxes);
  // Refit for point primitives: primitive i is the point points[index[i]] (a box of zero
  // size), read straight into the leaves (a hierarchy built over as many point boxes).
  void RefitPoints(const std::vector<Vec3>& points, const std::vector<int>& index);

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
  // The bottom-up sweep of both refits: leaf(node) sets a leaf's box (and its entries'),
  // internal nodes get the union of their children's and its extent.
  template <class LeafBox>
  void Sweep(LeafBox&& leaf);

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

// Whether point y lies in box b (closed; as BoxesOverlap of b and the box {y, y}, no branch).
inline bool PointInBox(const Vec3& y, const geometry::Aabb& b) {
  return (b.lo[0] <= y[0]) & (y[0] <= b.hi[0]) & (b.lo[1] <= y[1]) & (y[1] <= b.hi[1]) &
         (b.lo[2] <= y[2]) & (y[2] <= b.hi[2]);
}

// A traversal of hierarchy a against b with a's boxes moved by d and grown by r on every
// side (TraversePairs with a shift): boxes are compared as a.lo + d - r <= b.hi and
// b.lo <= a.hi + d + r, i.e. either box taken into the other's frame.
struct TreeShift {
  Vec3 d = Vec3::Zero();
  double r = 0.0;
};

namespace detail {

// Boxes of a in b's frame and of b in a's frame: unchanged without a shift (no work), or
// moved and grown (TreeShift).
struct NoShift {
  const geometry::Aabb& ToA(const geometry::Aabb& b) const { return b; }
  const geometry::Aabb& ToB(const geometry::Aabb& a) const { return a; }
};
struct Shifted {
  Vec3 d, r;  // r: the growth in each axis
  explicit Shifted(const TreeShift& s) : d(s.d), r(Vec3::Constant(s.r)) {}
  geometry::Aabb ToA(const geometry::Aabb& b) const { return {b.lo - d - r, b.hi - d + r}; }
  geometry::Aabb ToB(const geometry::Aabb& a) const { return {a.lo + d - r, a.hi + d + r}; }
};

// The entries of a leaf: its primitives and their boxes (a hierarchy with one primitive per
// leaf: the leaf itself, whose box is the primitive's).
struct LeafEntries {
  const int* primitives;
  const geometry::Aabb* boxes;
  int count;
};
inline LeafEntries EntriesOf(const SurfaceBvh& t, const SurfaceBvh::Node& n) {
  if (t.leaf_size() == 1) return {&n.first, &n.box, 1};
  return {t.leaf_primitives().data() + n.first, t.leaf_boxes().data() + n.first, n.count};
}

// The leaf-leaf step: every entry of A against every entry of B, branch-free (a leaf's hits
// are collected before they are visited); one entry each: the leaf boxes already overlap.
// Returns the box tests made.
template <class Visit, class Shift>
inline long VisitLeaves(const LeafEntries& ea, const LeafEntries& eb, Visit& visit,
                        const Shift& shift) {
  if (ea.count == 1 && eb.count == 1) {
    visit(ea.primitives[0], eb.primitives[0]);
    return 0;
  }
  int hit[SurfaceBvh::kMaxLeafSize];
  for (int f = 0; f < eb.count; ++f) {
    const auto& box = shift.ToA(eb.boxes[f]);
    int hits = 0;
    for (int e = 0; e < ea.count; ++e) {
      hit[hits] = e;
      hits += BoxesOverlap(ea.boxes[e], box);
    }
    for (int e = 0; e < hits; ++e) visit(ea.primitives[hit[e]], eb.primitives[f]);
  }
  return static_cast<long>(ea.count) * eb.count;
}

// Levels a traversal step descends in one tree: the nodes kDescentLevels below the node (or
// the leaves above them) are tested against the other node's box, not the nodes between
// (their boxes hold those below), so a pop stands for up to 2^kDescentLevels node pairs: the
// pops, whose outcomes are hard to predict, cost more than the box tests they save.
constexpr int kDescentLevels = 3;

// Pushes (via push(node, overlaps)) the descendants of node c kLevels below it, or the
// leaves above them, with their overlap with box q; returns the box tests made.
template <int kLevels, class Push>
inline long Expand(const SurfaceBvh::Node* n, int c, const geometry::Aabb& q, Push&& push) {
  const SurfaceBvh::Node& C = n[c];
  if constexpr (kLevels > 0) {
    if (C.count == 0)
      return Expand<kLevels - 1>(n, C.right, q, push) + Expand<kLevels - 1>(n, c + 1, q, push);
  }
  push(c, BoxesOverlap(C.box, q));
  return 1;
}

// TraversePairs. The stack is written whether or not a child pair overlaps and its top
// advanced by the outcome (no branch per test: the outcomes are hard to predict).
template <class Visit, class Shift>
long TraverseTrees(const SurfaceBvh& a, const SurfaceBvh& b, Visit& visit, const Shift& shift) {
  const SurfaceBvh::Node* na = a.nodes().data();
  const SurfaceBvh::Node* nb = b.nodes().data();
  long tests = 1;
  if (!BoxesOverlap(shift.ToB(na[0].box), nb[0].box)) return tests;
  // A pop replaces a pair by k <= 2^kDescentLevels = 8 pairs log2(k) or more levels down one
  // tree: at most 7/3 (depth(a) + depth(b)) + 1 <= 146 pairs (depth <= 31 each), and one
  // written beyond the top.
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
      tests += VisitLeaves(EntriesOf(a, A), EntriesOf(b, B), visit, shift);
    } else if (!leaf_a && (leaf_b || A.extent >= B.extent)) {
      const auto with_b = [&](int c, bool overlap) { push(c, j, overlap); };
      const auto& q = shift.ToA(B.box);
      tests += Expand<kDescentLevels - 1>(na, A.right, q, with_b);
      tests += Expand<kDescentLevels - 1>(na, i + 1, q, with_b);
    } else {
      const auto with_a = [&](int c, bool overlap) { push(i, c, overlap); };
      const auto& q = shift.ToB(A.box);
      tests += Expand<kDescentLevels - 1>(nb, B.right, q, with_a);
      tests += Expand<kDescentLevels - 1>(nb, j + 1, q, with_a);
    }
  }
  return tests;
}

}  // namespace detail

// Algorithm 1 of the paper (elementary searching): simultaneous descent of two hierarchies,
// pruning node pairs whose boxes do not overlap, descending the node with the larger box
// (sum of extents; the paper descends the first tree first: same pairs, more box tests);
// calls visit(primitive of a, primitive of b) for every pair of overlapping primitive boxes
// (a template: the visitor is inlined). A pair is tested before it is stacked (the stack
// holds overlapping pairs only; fixed size: the trees are balanced, depth <= 31 each); a step
// descends up to kDescentLevels levels of one tree at once.
// Either hierarchy may hold several primitives per leaf (two leaves that meet test their
// entries' boxes pairwise). Returns the number of box-box tests (an effort measure).
template <class Visit>
long TraversePairs(const SurfaceBvh& a, const SurfaceBvh& b, Visit&& visit) {
  if (a.empty() || b.empty()) return 0;
  return detail::TraverseTrees(a, b, visit, detail::NoShift());
}
// The same with a's boxes moved by shift.d and grown by shift.r (the pairs whose boxes
// overlap so: the skin's kept pairs, NodeToFace).
template <class Visit>
long TraversePairs(const SurfaceBvh& a, const SurfaceBvh& b, const TreeShift& shift,
                   Visit&& visit) {
  if (a.empty() || b.empty()) return 0;
  return detail::TraverseTrees(a, b, visit, detail::Shifted(shift));
}

}  // namespace solfec::contact
