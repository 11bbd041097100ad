// Broad phase by sort and sweep along the axis of largest spread of the box centres.
#include "contact/broad_phase.h"

#include <algorithm>

namespace solfec::contact {

namespace {

// Axis (0, 1, 2) along which the box centres have the largest variance.
int SweepAxis(const std::vector<BoxItem>& items, const std::vector<int>& live) {
  Vec3 mean = Vec3::Zero();
  for (int i : live) mean += 0.5 * (items[i].box.lo + items[i].box.hi);
  mean /= static_cast<double>(std::max<size_t>(live.size(), 1));
  Vec3 var = Vec3::Zero();
  for (int i : live) {
    const Vec3 d = 0.5 * (items[i].box.lo + items[i].box.hi) - mean;
    var += d.cwiseProduct(d);
  }
  int axis = 0;
  var.maxCoeff(&axis);
  return axis;
}

}  // namespace

std::vector<CandidatePair> OverlappingPairs(const std::vector<BoxItem>& items,
                                            const std::vector<bool>& same_body) {
  // Non-empty boxes, sorted by their lower bound along the sweep axis.
  std::vector<int> order;
  order.reserve(items.size());
  for (int i = 0; i < static_cast<int>(items.size()); ++i)
    if (!items[i].box.empty()) order.push_back(i);
  const int axis = SweepAxis(items, order);
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    const double li = items[i].box.lo[axis], lj = items[j].box.lo[axis];
    return li < lj || (li == lj && i < j);
  });

  // Sweep: every box meets the boxes that start before it ends along the axis.
  std::vector<CandidatePair> pairs;
  const int n = static_cast<int>(order.size());
  for (int k = 0; k < n; ++k) {
    const BoxItem& p = items[order[k]];
    const double end = p.box.hi[axis];
    for (int l = k + 1; l < n && items[order[l]].box.lo[axis] <= end; ++l) {
      const BoxItem& q = items[order[l]];
      if (!p.box.Overlaps(q.box)) continue;
      if (p.body == q.body) {
        const bool self = p.body >= 0 && p.body < static_cast<int>(same_body.size()) &&
                          same_body[p.body];
        if (!self) continue;
      }
      const int a = std::min(order[k], order[l]), b = std::max(order[k], order[l]);
      pairs.push_back({a, b});
    }
  }
  // Deterministic output order, independent of the sweep axis.
  std::sort(pairs.begin(), pairs.end(), [](const CandidatePair& x, const CandidatePair& y) {
    return x.a < y.a || (x.a == y.a && x.b < y.b);
  });
  return pairs;
}

}  // namespace solfec::contact
