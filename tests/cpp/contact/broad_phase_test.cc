// Broad phase: sort and sweep equals brute force on random boxes.
#include "contact/broad_phase.h"

#include <gtest/gtest.h>

#include <random>

namespace solfec::contact {
namespace {

std::vector<std::pair<int, int>> BruteForce(const std::vector<BoxItem>& items,
                                            const std::vector<bool>& same_body) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < static_cast<int>(items.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(items.size()); ++j) {
      if (items[i].box.empty() || items[j].box.empty()) continue;
      if (!items[i].box.Overlaps(items[j].box)) continue;
      if (items[i].body == items[j].body && !same_body[items[i].body]) continue;
      pairs.emplace_back(i, j);
    }
  return pairs;
}

std::vector<std::pair<int, int>> AsPairs(const std::vector<CandidatePair>& c) {
  std::vector<std::pair<int, int>> pairs;
  for (const CandidatePair& p : c) pairs.emplace_back(p.a, p.b);
  return pairs;
}

// `stretch` scales the domain per axis so that the sweep axis varies between runs.
std::vector<BoxItem> RandomBoxes(int n, int bodies, const Vec3& stretch, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<BoxItem> items(n);
  for (BoxItem& it : items) {
    const Vec3 c(10 * stretch.x() * u(rng), 10 * stretch.y() * u(rng), 10 * stretch.z() * u(rng));
    const Vec3 h(0.05 + 0.4 * u(rng), 0.05 + 0.4 * u(rng), 0.05 + 0.4 * u(rng));
    it.box.lo = c - h;
    it.box.hi = c + h;
    it.body = static_cast<int>(bodies * u(rng));
    it.piece = 0;
  }
  return items;
}

TEST(OverlappingPairs, EqualsBruteForceOnRandomBoxes) {
  const int kBodies = 400;
  std::vector<bool> same_body(kBodies);
  for (int b = 0; b < kBodies; ++b) same_body[b] = b % 3 == 0;
  const Vec3 stretches[] = {Vec3(1, 1, 1), Vec3(0.3, 2, 0.5), Vec3(0.5, 0.5, 3)};
  unsigned seed = 1;
  for (const Vec3& s : stretches) {
    const std::vector<BoxItem> items = RandomBoxes(2000, kBodies, s, seed++);
    const auto expected = BruteForce(items, same_body);
    const auto got = AsPairs(OverlappingPairs(items, same_body));
    EXPECT_GT(expected.size(), 1000u);  // the sample is dense enough to be meaningful
    EXPECT_EQ(got, expected);           // identical sets, both in (a, b) order
  }
}

TEST(OverlappingPairs, TouchingBoxesOverlapAndSameBodyIsFiltered) {
  std::vector<BoxItem> items(4);
  items[0].box.lo = Vec3(0, 0, 0), items[0].box.hi = Vec3(1, 1, 1), items[0].body = 0;
  items[1].box.lo = Vec3(1, 0, 0), items[1].box.hi = Vec3(2, 1, 1), items[1].body = 1;
  items[2].box.lo = Vec3(0.5, 0, 0), items[2].box.hi = Vec3(1.5, 1, 1), items[2].body = 1;
  items[3].body = 2;  // empty box: never a candidate
  auto pairs = AsPairs(OverlappingPairs(items, {false, false, false}));
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 1}, {0, 2}}));
  pairs = AsPairs(OverlappingPairs(items, {false, true, false}));
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 2}}));
}

}  // namespace
}  // namespace solfec::contact
