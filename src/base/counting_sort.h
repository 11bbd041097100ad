// Stable counting sort by a small integer key (bucketing of pairs and passes per step).
#pragma once

#include <vector>

namespace solfec {

// Writes `in` into `out` ordered by key(e) in [0, n), keeping the input order within a key
// (stable). Afterwards end[k] is the end of key k's range in `out` (its start is end[k - 1],
// or 0); `end` has n + 1 entries. O(|in| + n), no allocation once the vectors have grown.
template <class T, class Key>
void CountingSortBy(const std::vector<T>& in, int n, Key key, std::vector<int>& end,
                    std::vector<T>& out) {
  end.assign(n + 1, 0);
  for (const T& e : in) ++end[key(e) + 1];
  for (int k = 0; k < n; ++k) end[k + 1] += end[k];
  out.resize(in.size());
  for (const T& e : in) out[end[key(e)]++] = e;  // end[k]: first free slot, then end of k
}

}  // namespace solfec
