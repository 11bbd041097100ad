// Bounded least-recently-used cache of the three columns of A^-1 that belong to one mesh node,
// for an operator A factorized once (the co-rotated A0 = M + c K0 of form 'BC').
#pragma once

#include <cstddef>
#include <list>
#include <unordered_map>
#include <vector>

#include "base/types.h"
#include "body/fem/sparse_spd_solver.h"

namespace solfec::body {

// Columns(a) = A^-1 [e_3a, e_3a+1, e_3a+2] (rows x 3, rows = 3 N). A miss solves with the
// factor (Prefetch solves all misses of a node list in blocks of up to kBlockNodes nodes, so
// CHOLMOD works on many right-hand sides at once). The cache holds at most
// capacity_nodes() = max(1, capacity_bytes / (24 rows)) nodes and evicts the least recently
// used node beyond that. Clear() must follow every refactorization of A.
class InverseColumnCache {
 public:
  // Default bound: 256 MB, e.g. ~530 nodes of a 20k-dof mesh (480 kB per node).
  static constexpr std::size_t kDefaultBytes = std::size_t{256} << 20;
  static constexpr int kBlockNodes = 64;  // nodes per blocked solve (3 x 64 right-hand sides)

  struct Stats {
    long hits = 0;    // node columns found in the cache
    long misses = 0;  // node columns computed by a solve
    long solves = 0;  // calls of SparseSpdSolver::Solve (each with 3 .. 3 kBlockNodes columns)
    long evictions = 0;
  };

  void set_capacity_bytes(std::size_t bytes) { capacity_bytes_ = bytes; }
  std::size_t capacity_bytes() const { return capacity_bytes_; }
  int capacity_nodes(int rows) const;
  int size() const { return static_cast<int>(map_.size()); }
  const Stats& stats() const { return stats_; }
  void Clear();  // drops every column (keeps the statistics)

  // Solves the columns of the nodes of `nodes` not yet cached (at most capacity_nodes of
  // them, in list order), marking all listed nodes as recently used.
  void Prefetch(const std::vector<int>& nodes, const SparseSpdSolver& A, int rows);
  // The columns of `node` (rows x 3), solved on a miss. The reference is valid until the
  // next call of Columns, Prefetch or Clear.
  const MatX& Columns(int node, const SparseSpdSolver& A, int rows);

 private:
  struct Slot {
    MatX columns;
    std::list<int>::iterator position;  // in order_
  };
  Slot& Insert(int node, MatX columns, int rows);
  void Touch(Slot& slot);

  std::size_t capacity_bytes_ = kDefaultBytes;
  std::list<int> order_;  // most recently used first
  std::unordered_map<int, Slot> map_;
  Stats stats_;
};

}  // namespace solfec::body
