// CountingSortBy: order by key, stability within a key, the key ranges, reuse of the buffers.
#include "base/counting_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace solfec {
namespace {

TEST(CountingSort, OrdersByKeyStablyAndGivesTheKeyRanges) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> key(0, 9);
  std::vector<int> end;
  std::vector<std::pair<int, int>> out;
  for (int trial = 0; trial < 3; ++trial) {  // the same buffers, inputs of other sizes
    std::vector<std::pair<int, int>> in;  // (key, input position)
    for (int i = 0; i < 200 + 50 * trial; ++i) in.emplace_back(key(rng), i);
    CountingSortBy(in, 10, [](const std::pair<int, int>& p) { return p.first; }, end, out);
    // Stable by key = sorted by (key, input position).
    std::vector<std::pair<int, int>> expected = in;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(out, expected);
    ASSERT_EQ(end.size(), 11u);
    for (int k = 0; k < 10; ++k) {
      const int begin = k == 0 ? 0 : end[k - 1];
      for (int i = begin; i < end[k]; ++i) EXPECT_EQ(out[i].first, k);
      EXPECT_EQ(end[k] - begin, std::count_if(in.begin(), in.end(), [k](const auto& p) {
                  return p.first == k;
                }));
    }
  }
  // Keys with no entries and an empty input.
  CountingSortBy(std::vector<std::pair<int, int>>{}, 4,
                 [](const std::pair<int, int>& p) { return p.first; }, end, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(end, std::vector<int>(5, 0));
}

}  // namespace
}  // namespace solfec
