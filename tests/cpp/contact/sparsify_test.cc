// Sparsification (manual Algorithm 6.1): adjacency/area, coincidence, minarea, old contacts.
#include "contact/sparsify.h"

#include <gtest/gtest.h>

namespace solfec::contact {
namespace {

// Pieces i and i + 1 of every body are topologically adjacent.
bool Chain(const void* context, int body, int a, int b) { return a - b == 1 || b - a == 1; }

SparsifyItem Item(int b1, int p1, int b2, int p2, const Vec3& x, double area, bool is_new) {
  SparsifyItem it;
  it.body1 = b1, it.piece1 = p1, it.body2 = b2, it.piece2 = p2;
  it.point = x;
  it.area = area;
  it.is_new = is_new;
  return it;
}

TEST(Sparsify, RemovesSmallNewContactAdjacentToLargeOne) {
  SparsifyOptions opt;  // threshold 0.01
  const std::vector<SparsifyItem> items = {
      Item(0, 0, 1, 0, Vec3(0, 0, 0), 1.0, true),
      Item(0, 1, 1, 5, Vec3(1, 0, 0), 0.005, true),  // adjacent through body 0 (pieces 0, 1)
      Item(0, 7, 1, 9, Vec3(2, 0, 0), 0.005, true),  // not adjacent through either body
      Item(0, 3, 1, 1, Vec3(3, 0, 0), 0.02, true),   // adjacent through body 1, ratio 0.02
  };
  EXPECT_EQ(Sparsify(items, opt, Chain, nullptr), (std::vector<bool>{true, false, true, true}));
}

TEST(Sparsify, AdjacencyIsFoundWhenBodyOrderIsSwapped) {
  SparsifyOptions opt;
  const std::vector<SparsifyItem> items = {
      Item(0, 4, 1, 0, Vec3(0, 0, 0), 1.0, false),
      Item(1, 8, 0, 5, Vec3(1, 0, 0), 0.001, true),  // body 0 pieces 4 and 5 are adjacent
  };
  EXPECT_EQ(Sparsify(items, opt, Chain, nullptr), (std::vector<bool>{true, false}));
}

TEST(Sparsify, KeepsOldContactsAndZeroThresholdDisablesAreaTest) {
  SparsifyOptions opt;
  std::vector<SparsifyItem> items = {
      Item(0, 0, 1, 0, Vec3(0, 0, 0), 1.0, true),
      Item(0, 1, 1, 0, Vec3(1, 0, 0), 0.001, false),
  };
  EXPECT_EQ(Sparsify(items, opt, Chain, nullptr), (std::vector<bool>{true, true}));
  items[1].is_new = true;
  opt.threshold = 0.0;
  EXPECT_EQ(Sparsify(items, opt, Chain, nullptr), (std::vector<bool>{true, true}));
}

TEST(Sparsify, RemovesLaterOfCoincidentNewContactsAndNewCoincidentWithOld) {
  SparsifyOptions opt;
  opt.mindist = 1e-6;
  const std::vector<SparsifyItem> items = {
      Item(0, 0, 1, 0, Vec3(0, 0, 0), 1.0, true),
      Item(0, 5, 1, 9, Vec3(0, 0, 5e-7), 1.0, true),    // coincides with item 0
      Item(0, 2, 1, 2, Vec3(4, 0, 0), 1.0, true),       // coincides with old item 3
      Item(0, 3, 1, 3, Vec3(4, 0, 1e-7), 1.0, false),
      Item(2, 0, 1, 0, Vec3(0, 0, 0), 1.0, true),       // other body pair: independent
      Item(0, 9, 1, 20, Vec3(0, 0, 2e-6), 1.0, true),   // 2e-6 from item 0: distinct
  };
  EXPECT_EQ(Sparsify(items, opt, Chain, nullptr),
            (std::vector<bool>{true, false, false, true, true, true}));
}

TEST(Sparsify, MinAreaDropsOnlyNewContacts) {
  SparsifyOptions opt;
  opt.minarea = 0.1;
  const std::vector<SparsifyItem> items = {
      Item(0, 0, 1, 0, Vec3(0, 0, 0), 0.05, true),
      Item(0, 9, 1, 9, Vec3(1, 0, 0), 0.05, false),
      Item(2, 0, 3, 0, Vec3(2, 0, 0), 0.5, true),
  };
  EXPECT_EQ(Sparsify(items, opt, nullptr, nullptr), (std::vector<bool>{false, true, true}));
}

// A removed contact no longer removes others: a chain of areas 1, 0.005, 2.5e-5 where the
// middle contact is removed by the first and then the last is still removed by the first only
// if adjacent to it; here it is adjacent to the (removed) middle one only, so it stays.
TEST(Sparsify, RemovedContactsNoLongerCount) {
  SparsifyOptions opt;
  const std::vector<SparsifyItem> items = {
      Item(0, 0, 1, 0, Vec3(0, 0, 0), 1.0, true),
      Item(0, 1, 1, 10, Vec3(1, 0, 0), 0.005, true),
      Item(0, 2, 1, 20, Vec3(2, 0, 0), 2.5e-5, true),
  };
  EXPECT_EQ(Sparsify(items, opt, Chain, nullptr), (std::vector<bool>{true, false, true}));
}

}  // namespace
}  // namespace solfec::contact
