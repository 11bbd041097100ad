// InverseColumnCache: blocked solves of missing node columns and least-recently-used eviction.
#include "body/fem/inverse_column_cache.h"

#include <algorithm>
#include <utility>

namespace solfec::body {

int InverseColumnCache::capacity_nodes(int rows) const {
  const std::size_t per_node = static_cast<std::size_t>(std::max(rows, 1)) * 3 * sizeof(double);
  return static_cast<int>(std::max<std::size_t>(1, capacity_bytes_ / per_node));
}

void InverseColumnCache::Clear() {
  map_.clear();
  order_.clear();
}

void InverseColumnCache::Touch(Slot& slot) {
  order_.splice(order_.begin(), order_, slot.position);
}

InverseColumnCache::Slot& InverseColumnCache::Insert(int node, MatX columns, int rows) {
  // Evict from the least recently used end; the nodes touched by the caller are in front.
  while (!order_.empty() && static_cast<int>(map_.size()) >= capacity_nodes(rows)) {
    map_.erase(order_.back());
    order_.pop_back();
    ++stats_.evictions;
  }
  order_.push_front(node);
  Slot& slot = map_[node];
  slot.columns = std::move(columns);
  slot.position = order_.begin();
  return slot;
}

void InverseColumnCache::Prefetch(const std::vector<int>& nodes, const SparseSpdSolver& A,
                                  int rows) {
  // Hits first (so that eviction spares them), then the misses in blocked solves.
  std::vector<int> missing;
  int listed_hits = 0;
  for (int a : nodes) {
    auto it = map_.find(a);
    if (it != map_.end()) {
      Touch(it->second), ++listed_hits;
    } else if (std::find(missing.begin(), missing.end(), a) == missing.end()) {
      missing.push_back(a);
    }
  }
  // Misses beyond the capacity left after the listed hits are solved later, one by one.
  const int budget = std::min(static_cast<int>(missing.size()),
                              std::max(0, capacity_nodes(rows) - listed_hits));
  for (int first = 0; first < budget; first += kBlockNodes) {
    const int count = std::min(kBlockNodes, budget - first);
    MatX E = MatX::Zero(rows, 3 * count);
    for (int k = 0; k < count; ++k)
      for (int j = 0; j < 3; ++j) E(3 * missing[first + k] + j, 3 * k + j) = 1.0;
    A.Solve(E);
    ++stats_.solves;
    for (int k = 0; k < count; ++k) {
      Insert(missing[first + k], E.middleCols(3 * k, 3), rows);
      ++stats_.misses;
    }
  }
}

const MatX& InverseColumnCache::Columns(int node, const SparseSpdSolver& A, int rows) {
  auto it = map_.find(node);
  if (it != map_.end()) {
    ++stats_.hits;
    Touch(it->second);
    return it->second.columns;
  }
  MatX E = MatX::Zero(rows, 3);
  for (int j = 0; j < 3; ++j) E(3 * node + j, j) = 1.0;
  A.Solve(E);
  ++stats_.solves;
  ++stats_.misses;
  return Insert(node, std::move(E), rows).columns;
}

}  // namespace solfec::body
