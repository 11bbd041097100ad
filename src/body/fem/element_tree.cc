// Bounding-volume hierarchy over element boxes (median split, bottom-up refit).
#include "body/fem/element_tree.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace solfec::body::fem {

namespace {

double BoxDistanceSquared(const geometry::Aabb& b, const Vec3& p) {
  const Vec3 d = (b.lo - p).cwiseMax(p - b.hi).cwiseMax(Vec3::Zero());
  return d.squaredNorm();
}

}  // namespace

void ElementTree::Build(const std::vector<geometry::Aabb>& boxes) {
  nodes_.clear();
  boxes_ = boxes;
  items_.resize(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) items_[i] = static_cast<int>(i);
  if (boxes.empty()) return;
  nodes_.reserve(2 * boxes.size() / kLeafSize + 2);
  BuildRange(0, static_cast<int>(boxes.size()));
}

int ElementTree::BuildRange(int first, int count) {
  const int n = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  geometry::Aabb box, centres;
  for (int k = first; k < first + count; ++k) {
    box.Extend(boxes_[items_[k]]);
    centres.Extend(Vec3(0.5 * (boxes_[items_[k]].lo + boxes_[items_[k]].hi)));
  }
  nodes_[n].box = box;
  if (count <= kLeafSize) {
    nodes_[n].first = first;
    nodes_[n].count = count;
    return n;
  }
  int axis = 0;
  (centres.hi - centres.lo).maxCoeff(&axis);
  const int half = count / 2;
  auto centre = [&](int i) { return boxes_[i].lo[axis] + boxes_[i].hi[axis]; };
  std::nth_element(items_.begin() + first, items_.begin() + first + half,
                   items_.begin() + first + count,
                   [&](int a, int b) { return centre(a) < centre(b); });
  const int left = BuildRange(first, half);
  const int right = BuildRange(first + half, count - half);
  nodes_[n].left = left;
  nodes_[n].right = right;
  return n;
}

void ElementTree::Refit(const std::vector<geometry::Aabb>& boxes) {
  boxes_ = boxes;
  if (!nodes_.empty()) RefitNode(0);
}

void ElementTree::RefitNode(int n) {
  geometry::Aabb box;
  if (nodes_[n].left < 0) {
    for (int k = nodes_[n].first; k < nodes_[n].first + nodes_[n].count; ++k)
      box.Extend(boxes_[items_[k]]);
  } else {
    RefitNode(nodes_[n].left);
    RefitNode(nodes_[n].right);
    box = nodes_[nodes_[n].left].box;
    box.Extend(nodes_[nodes_[n].right].box);
  }
  nodes_[n].box = box;
}

void ElementTree::Query(const Vec3& p, std::vector<int>& out) const {
  out.clear();
  if (nodes_.empty()) return;
  thread_local std::vector<int> stack;  // a query per contact point and step: no allocation
  stack.assign(1, 0);
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (!node.box.Contains(p)) continue;
    if (node.left >= 0) {
      stack.push_back(node.right);
      stack.push_back(node.left);
      continue;
    }
    for (int k = node.first; k < node.first + node.count; ++k)
      if (boxes_[items_[k]].Contains(p)) out.push_back(items_[k]);
  }
}

int ElementTree::Nearest(const Vec3& p) const {
  if (nodes_.empty()) return -1;
  double best = std::numeric_limits<double>::infinity();
  int best_item = -1;
  std::vector<std::pair<double, int>> stack{{BoxDistanceSquared(nodes_[0].box, p), 0}};
  while (!stack.empty()) {
    const auto [d, n] = stack.back();
    stack.pop_back();
    if (d > best) continue;
    const Node& node = nodes_[n];
    if (node.left < 0) {
      for (int k = node.first; k < node.first + node.count; ++k) {
        const double dk = BoxDistanceSquared(boxes_[items_[k]], p);
        if (dk < best || (dk == best && items_[k] < best_item))
          best = dk, best_item = items_[k];
      }
      continue;
    }
    const double dl = BoxDistanceSquared(nodes_[node.left].box, p);
    const double dr = BoxDistanceSquared(nodes_[node.right].box, p);
    // Visit the nearer child first (pushed last).
    if (dl <= dr) {
      stack.push_back({dr, node.right});
      stack.push_back({dl, node.left});
    } else {
      stack.push_back({dl, node.left});
      stack.push_back({dr, node.right});
    }
  }
  return best_item;
}

}  // namespace solfec::body::fem
