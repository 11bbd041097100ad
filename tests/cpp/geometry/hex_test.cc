// Tests of the structured HEX mesh generator: counts, surfaces, grading and input errors.
#include <gtest/gtest.h>

#include "geometry/geometry_test_util.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

using testing::ExpectInputError;
using testing::MakeBox;

const std::vector<int> kSurfids = {11, 12, 13, 14, 15, 16};

TEST(HexTest, TwoByThreeByFourBoxHas24ElementsAnd52BoundaryFaces) {
  const Mesh m = Hex(MakeBox(Vec3::Zero(), Vec3(1, 2, 3)).vertices, 2, 3, 4, 7, kSurfids);
  EXPECT_EQ(m.nodes.size(), 3u * 4u * 5u);
  EXPECT_EQ(m.elements.size(), 24u);
  EXPECT_EQ(m.elements[0].volid, 7);
  EXPECT_EQ(m.default_surfid, 11);
  // 2 (ij + jk + ik) = 2 (6 + 12 + 8) outer faces, all listed with explicit ids.
  EXPECT_EQ(m.BoundaryFaces().size(), 52u);
  EXPECT_EQ(m.surface_faces.size(), 52u);
  const MassProperties mp = m.ComputeMassProperties();
  EXPECT_NEAR(mp.volume, 6.0, 1e-13);
  EXPECT_TRUE(mp.center.isApprox(Vec3(0.5, 1.0, 1.5), 1e-14));
  // Nodes per face: z-min/z-max (i+1)(j+1) = 12, y-min/y-max (i+1)(k+1) = 15,
  // x-min/x-max (j+1)(k+1) = 20.
  EXPECT_EQ(m.NodesOnSurface(11).size(), 12u);
  EXPECT_EQ(m.NodesOnSurface(12).size(), 15u);
  EXPECT_EQ(m.NodesOnSurface(13).size(), 20u);
  EXPECT_EQ(m.NodesOnSurface(14).size(), 15u);
  EXPECT_EQ(m.NodesOnSurface(15).size(), 20u);
  EXPECT_EQ(m.NodesOnSurface(16).size(), 12u);
  for (int n : m.NodesOnSurface(13)) EXPECT_DOUBLE_EQ(m.nodes[n].x(), 1.0);  // x-max
  for (int n : m.NodesOnSurface(14)) EXPECT_DOUBLE_EQ(m.nodes[n].y(), 2.0);  // y-max
  for (int n : m.NodesOnSurface(16)) EXPECT_DOUBLE_EQ(m.nodes[n].z(), 3.0);  // z-max
}

TEST(HexTest, GradingListIsNormalisedRatios) {
  const Mesh m =
      Hex(MakeBox(Vec3::Zero(), Vec3(14, 1, 1)).vertices, 6, 1, 1, 1, kSurfids, {1, 1, 5, 5, 1, 1});
  // Widths 1:1:5:5:1:1 of a length-14 edge.
  const double expected[7] = {0, 1, 2, 7, 12, 13, 14};
  for (int a = 0; a <= 6; ++a) EXPECT_NEAR(m.nodes[a].x(), expected[a], 1e-13);
}

TEST(HexTest, AffineCornersGiveParallelepipedVolume) {
  std::vector<Vec3> corners = MakeBox(Vec3::Zero(), Vec3::Ones()).vertices;
  Mat3 A;
  A << 2, 0.5, 0, 0, 1, 0.3, 0.1, 0, 3;
  for (Vec3& c : corners) c = A * c + Vec3(1, 2, 3);
  const Mesh m = Hex(corners, 3, 2, 2, 1, kSurfids, {}, {1, 3});
  EXPECT_NEAR(m.ComputeMassProperties().volume, A.determinant(), 1e-13);
}

TEST(HexTest, BadArgumentsNameTheArgument) {
  const std::vector<Vec3> cube = MakeBox(Vec3::Zero(), Vec3::Ones()).vertices;
  ExpectInputError([&] { Hex(cube, 0, 1, 1, 1, kSurfids); }, {"HEX: ", "(argument 'i')"});
  ExpectInputError([&] { Hex(cube, 1, 1, -2, 1, kSurfids); }, {"(argument 'k')"});
  ExpectInputError(
      [&] {
        Hex({cube.begin(), cube.end() - 1}, 1, 1, 1, 1, kSurfids);
      },
      {"HEX: 7 corner nodes", "(argument 'nodes')"});
  ExpectInputError([&] { Hex(cube, 1, 1, 1, 1, {1, 2, 3}); }, {"(argument 'surfids')"});
  ExpectInputError(
      [&] {
        Hex(cube, 2, 1, 1, 1, kSurfids, {1, 2, 3});
      },
      {"3 entries but i = 2", "(argument 'dx')"});
  ExpectInputError([&] { Hex(cube, 1, 2, 1, 1, kSurfids, {}, {1, -1}); }, {"(argument 'dy')"});
  // Top and bottom swapped: left-handed corner order gives inverted elements.
  std::vector<Vec3> flipped(cube.begin() + 4, cube.end());
  flipped.insert(flipped.end(), cube.begin(), cube.begin() + 4);
  ExpectInputError([&] { Hex(flipped, 1, 1, 1, 1, kSurfids); }, {"HEX: element 0 is inverted"});
}

}  // namespace
}  // namespace solfec::geometry
