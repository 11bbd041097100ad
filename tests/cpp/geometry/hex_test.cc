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
  // Surface ids in Solfec-1.0's order (z-min, x-min, y-max, x-max, y-min, z-max). Nodes per
  // face: z-min/z-max (i+1)(j+1) = 12, y-min/y-max (i+1)(k+1) = 15, x-min/x-max (j+1)(k+1) = 20.
  EXPECT_EQ(m.NodesOnSurface(11).size(), 12u);
  EXPECT_EQ(m.NodesOnSurface(12).size(), 20u);
  EXPECT_EQ(m.NodesOnSurface(13).size(), 15u);
  EXPECT_EQ(m.NodesOnSurface(14).size(), 20u);
  EXPECT_EQ(m.NodesOnSurface(15).size(), 15u);
  EXPECT_EQ(m.NodesOnSurface(16).size(), 12u);
  for (int n : m.NodesOnSurface(12)) EXPECT_DOUBLE_EQ(m.nodes[n].x(), 0.0);  // x-min
  for (int n : m.NodesOnSurface(13)) EXPECT_DOUBLE_EQ(m.nodes[n].y(), 2.0);  // y-max
  for (int n : m.NodesOnSurface(14)) EXPECT_DOUBLE_EQ(m.nodes[n].x(), 1.0);  // x-max
  for (int n : m.NodesOnSurface(15)) EXPECT_DOUBLE_EQ(m.nodes[n].y(), 0.0);  // y-min
  for (int n : m.NodesOnSurface(16)) EXPECT_DOUBLE_EQ(m.nodes[n].z(), 3.0);  // z-max
}

TEST(HexTest, SurfaceIdsFollowSolfec1FaceOrderByOutwardNormals) {
  // Solfec-1.0's msh.c (MESH_Hex): surfids [1..6] go on z-min, x-min, y-max, x-max, y-min,
  // z-max. Every boundary face's outward normal (from its node order) must be the axis of its id.
  const Mesh m = Hex(MakeBox(Vec3::Zero(), Vec3(1, 2, 3)).vertices, 2, 3, 4, 1, {1, 2, 3, 4, 5, 6});
  const Vec3 normal_of_id[7] = {Vec3::Zero(),    Vec3(0, 0, -1), Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                Vec3(1, 0, 0),   Vec3(0, -1, 0), Vec3(0, 0, 1)};
  int count[7] = {0, 0, 0, 0, 0, 0, 0};
  for (const MeshFace& f : m.surface_faces) {
    ASSERT_EQ(f.nodes.size(), 4u);
    ASSERT_GE(f.surfid, 1);
    ASSERT_LE(f.surfid, 6);
    const Vec3& a = m.nodes[f.nodes[0]];
    const Vec3 n = (m.nodes[f.nodes[1]] - a).cross(m.nodes[f.nodes[2]] - a).normalized();
    EXPECT_LT((n - normal_of_id[f.surfid]).norm(), 1e-12) << "surfid " << f.surfid;
    ++count[f.surfid];
  }
  // i x j = 6 faces on z-min/z-max, j x k = 12 on x-min/x-max, i x k = 8 on y-min/y-max.
  const int expected[7] = {0, 6, 12, 8, 12, 8, 6};
  for (int id = 1; id <= 6; ++id) EXPECT_EQ(count[id], expected[id]) << "surfid " << id;
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
