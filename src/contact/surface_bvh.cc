// Top-down median-split AABB hierarchy and its bottom-up refit.
#include "contact/surface_bvh.h"

#include <algorithm>
#include <utility>

namespace solfec::contact {

using geometry::Aabb;

void SurfaceBvh::Build(const std::vector<Aabb>& boxes, int leaf_size) {
  nodes_.clear();
  leaf_primitives_.clear();
  leaf_boxes_.clear();
  leaf_size_ = std::clamp(leaf_size, 1, kMaxLeafSize);
  num_primitives_ = static_cast<int>(boxes.size());
  if (boxes.empty()) return;
  std::vector<Vec3> centres(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) centres[i] = 0.5 * (boxes[i].lo + boxes[i].hi);
  std::vector<int> order(boxes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  nodes_.reserve(2 * boxes.size() - 1);
  BuildRange(order, centres, 0, num_primitives_);
  // A leaf's range of `order` is final once its subtree is built: the entries in leaf order.
  if (leaf_size_ > 1) {
    leaf_primitives_ = std::move(order);
    leaf_boxes_.resize(boxes.size());
  }
  Refit(boxes);
}

int SurfaceBvh::BuildRange(std::vector<int>& order, const std::vector<Vec3>& centres, int begin,
                           int end) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  if (end - begin <= leaf_size_) {
    nodes_[id].first = leaf_size_ > 1 ? begin : order[begin];
    nodes_[id].count = end - begin;
    return id;
  }
  Aabb cb;
  for (int i = begin; i < end; ++i) cb.Extend(centres[order[i]]);
  int axis = 0;
  (cb.hi - cb.lo).maxCoeff(&axis);
  const int mid = begin + (end - begin) / 2;
  // Median of the centres along the axis (ties by index for a deterministic tree).
  std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                   [&](int a, int b) {
                     const double ca = centres[a][axis], cb2 = centres[b][axis];
                     return ca < cb2 || (ca == cb2 && a < b);
                   });
  BuildRange(order, centres, begin, mid);  // the left child is node id + 1
  nodes_[id].right = BuildRange(order, centres, mid, end);
  return id;
}

template <class LeafBox>
void SurfaceBvh::Sweep(LeafBox&& leaf) {
  // Children are stored after their parent: a reverse sweep visits them first.
  for (int i = static_cast<int>(nodes_.size()) - 1; i >= 0; --i) {
    Node& n = nodes_[i];
    if (n.count > 0) {
      leaf(n);
      continue;
    }
    n.box = nodes_[i + 1].box;
    n.box.Extend(nodes_[n.right].box);
    n.extent = static_cast<float>((n.box.hi - n.box.lo).sum());
  }
}

void SurfaceBvh::Refit(const std::vector<Aabb>& boxes) {
  if (static_cast<int>(boxes.size()) != num_primitives_) {
    Build(boxes, leaf_size_);
    return;
  }
  for (size_t e = 0; e < leaf_boxes_.size(); ++e) leaf_boxes_[e] = boxes[leaf_primitives_[e]];
  Sweep([&](Node& n) {
    if (leaf_size_ == 1) {
      n.box = boxes[n.first];
      return;
    }
    n.box = leaf_boxes_[n.first];
    for (int e = 1; e < n.count; ++e) n.box.Extend(leaf_boxes_[n.first + e]);
  });
}

void SurfaceBvh::RefitPoints(const std::vector<Vec3>& points, const std::vector<int>& index) {
  if (static_cast<int>(index.size()) != num_primitives_ || empty()) {
    std::vector<Aabb> boxes(index.size());
    for (size_t i = 0; i < index.size(); ++i) boxes[i].lo = boxes[i].hi = points[index[i]];
    Build(boxes, leaf_size_);
    return;
  }
  Sweep([&](Node& n) {
    if (leaf_size_ == 1) {
      n.box.lo = n.box.hi = points[index[n.first]];
      return;
    }
    n.box = Aabb();
    for (int e = n.first; e < n.first + n.count; ++e) {
      const Vec3& p = points[index[leaf_primitives_[e]]];
      leaf_boxes_[e].lo = leaf_boxes_[e].hi = p;
      n.box.Extend(p);
    }
  });
}

}  // namespace solfec::contact
