// Communicator collectives on 2 and 3 ranks: values are known sums of the ranks.
#include "parallel/communicator.h"

#include <gtest/gtest.h>

namespace solfec::parallel {
namespace {

TEST(Communicator, RunsOnSeveralRanksWithConsistentRankAndSize) {
  Communicator world;
  EXPECT_GE(world.size(), 2);  // ctest launches this binary under mpirun -np 2 and -np 3
  EXPECT_GE(world.rank(), 0);
  EXPECT_LT(world.rank(), world.size());
  EXPECT_EQ(world.AllReduceMax(static_cast<std::int64_t>(world.size())), world.size());
}

TEST(Communicator, ReductionsOfRanksGiveTriangularNumberAndExtremes) {
  Communicator world;
  const int n = world.size();
  // Integers below 2^53 are exact in double, so the comparisons are exact.
  EXPECT_EQ(world.AllReduceSum(static_cast<double>(world.rank())), n * (n - 1) / 2.0);
  EXPECT_EQ(world.AllReduceMax(static_cast<double>(world.rank())), n - 1.0);
  EXPECT_EQ(world.AllReduceMin(static_cast<double>(world.rank())), 0.0);
  EXPECT_EQ(world.AllReduceSum(static_cast<std::int64_t>(1)), n);
  std::vector<double> v = world.AllReduceSum(std::vector<double>{1.0, double(world.rank())});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], n);
  EXPECT_EQ(v[1], n * (n - 1) / 2.0);
}

TEST(Communicator, AllGatherConcatenatesInRankOrderIncludingEmptyBuffers) {
  Communicator world;
  // Rank r contributes r copies of r: rank 0 contributes nothing.
  std::vector<std::int64_t> mine(static_cast<size_t>(world.rank()), world.rank());
  std::vector<int> counts;
  std::vector<std::int64_t> all = world.AllGather(mine, &counts);
  const int n = world.size();
  ASSERT_EQ(static_cast<int>(all.size()), n * (n - 1) / 2);
  ASSERT_EQ(static_cast<int>(counts.size()), n);
  size_t k = 0;
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(counts[r], r);
    for (int j = 0; j < r; ++j) EXPECT_EQ(all[k++], r);
  }
  std::vector<double> d = world.AllGather(std::vector<double>{0.5 * world.rank()});
  ASSERT_EQ(static_cast<int>(d.size()), n);
  for (int r = 0; r < n; ++r) EXPECT_EQ(d[r], 0.5 * r);
}

TEST(Communicator, PersonalisedExchangeDeliversEachRanksMessageToItsDestination) {
  Communicator world;
  const int n = world.size(), me = world.rank();
  // Rank r sends to rank q the q + 1 values 100 r + q (rank 0 sends nothing to itself).
  std::vector<std::vector<double>> send(n);
  for (int q = 0; q < n; ++q)
    if (!(me == 0 && q == 0)) send[q].assign(q + 1, 100.0 * me + q);
  const auto recv = world.AllToAll(send);
  for (int r = 0; r < n; ++r) {
    const size_t expected = (r == 0 && me == 0) ? 0u : static_cast<size_t>(me + 1);
    ASSERT_EQ(recv[r].size(), expected);
    for (double x : recv[r]) EXPECT_EQ(x, 100.0 * r + me);
  }
  // The counts alone (what RankCoupling::Plan agrees on before its point-to-point sends).
  std::vector<int> scount(n);
  for (int q = 0; q < n; ++q) scount[q] = static_cast<int>(send[q].size());
  const std::vector<int> rcount = world.AllToAllCounts(scount);
  for (int r = 0; r < n; ++r) EXPECT_EQ(static_cast<size_t>(rcount[r]), recv[r].size());
}

TEST(Communicator, ConsistentSumGivesTheSameBitsOnEveryRank) {
  Communicator world;
  // Values whose sum depends on the order of addition: every rank must still see one answer.
  std::vector<double> v{1e16 * (world.rank() % 2 ? -1.0 : 1.0) + 1.0 + world.rank(), 0.1 * world.rank()};
  world.ConsistentSum(v);
  const std::vector<double> lo = world.AllReduceMax(std::vector<double>{-v[0], -v[1]});
  const std::vector<double> hi = world.AllReduceMax(v);
  EXPECT_EQ(-lo[0], hi[0]);  // min == max over ranks: bit-identical
  EXPECT_EQ(-lo[1], hi[1]);
  const int n = world.size();
  EXPECT_NEAR(v[1], 0.1 * n * (n - 1) / 2.0, 1e-12);
}

}  // namespace
}  // namespace solfec::parallel
