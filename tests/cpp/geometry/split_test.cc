// Tests of SPLIT: plane clipping of convexes, cut-face surface ids, neighbours and spheres.
#include <gtest/gtest.h>

#include <random>

#include "geometry/geometry_test_util.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

using testing::ExpectInputError;
using testing::MakeBox;
using testing::MakeUnitCube;

Shape Single(Convex c) {
  Shape s;
  s.convexes.push_back(std::move(c));
  return s;
}

// Index of the face whose outward normal is n (or -1).
int FaceAlong(const Convex& c, const Vec3& n) {
  for (int f = 0; f < static_cast<int>(c.faces.size()); ++f) {
    if ((c.FaceNormal(f) - n).norm() < 1e-12) return f;
  }
  return -1;
}

// Volumes of halves of a unit cube are exact up to round-off.
constexpr double kTol = 1e-14;

TEST(SplitTest, CubeThroughCentreGivesTwoHalvesWithCutSurfaceIds) {
  auto [below, above] = Split(Single(MakeUnitCube()), Vec3::Constant(0.5), Vec3(0, 0, 2), {3, 4});
  ASSERT_EQ(below.convexes.size(), 1u);
  ASSERT_EQ(above.convexes.size(), 1u);
  const Convex& lo = below.convexes[0];
  const Convex& hi = above.convexes[0];
  EXPECT_NO_THROW(lo.Validate("SPLIT"));
  EXPECT_NO_THROW(hi.Validate("SPLIT"));
  EXPECT_EQ(lo.faces.size(), 6u);
  EXPECT_EQ(lo.vertices.size(), 8u);
  EXPECT_NEAR(lo.ComputeMassProperties().volume, 0.5, kTol);
  EXPECT_NEAR(hi.ComputeMassProperties().volume, 0.5, kTol);
  EXPECT_NEAR(lo.ComputeMassProperties().center.z(), 0.25, kTol);
  EXPECT_NEAR(hi.ComputeMassProperties().center.z(), 0.75, kTol);
  // The cut face is the +z face of the lower half (surfid 3) and the -z face of the upper
  // half (surfid 4); the trimmed side faces keep surfid 1.
  EXPECT_EQ(lo.faces[FaceAlong(lo, Vec3::UnitZ())].surfid, 3);
  EXPECT_EQ(hi.faces[FaceAlong(hi, -Vec3::UnitZ())].surfid, 4);
  EXPECT_EQ(lo.faces[FaceAlong(lo, Vec3::UnitX())].surfid, 1);
  EXPECT_EQ(lo.volid, 1);
}

TEST(SplitTest, ObliqueCutThroughCentreGivesHexagonAndEqualHalves) {
  auto [below, above] = Split(Single(MakeUnitCube()), Vec3::Constant(0.5), Vec3(1, 1, 1));
  const Convex& lo = below.convexes.at(0);
  const Convex& hi = above.convexes.at(0);
  EXPECT_NO_THROW(lo.Validate("SPLIT"));
  EXPECT_NO_THROW(hi.Validate("SPLIT"));
  const int cut = FaceAlong(lo, Vec3::Ones().normalized());
  ASSERT_GE(cut, 0);
  EXPECT_EQ(lo.faces[cut].vertices.size(), 6u);               // the regular hexagonal section
  EXPECT_NEAR(lo.ComputeMassProperties().volume, 0.5, kTol);  // central symmetry
  EXPECT_NEAR(hi.ComputeMassProperties().volume, 0.5, kTol);
}

TEST(SplitTest, PlaneThroughThreeVerticesCutsOffACornerTetra) {
  auto [below, above] = Split(Single(MakeUnitCube()), Vec3::UnitX(), Vec3(1, 1, 1), {8, 9});
  const Convex& corner = below.convexes.at(0);
  EXPECT_NO_THROW(corner.Validate("SPLIT"));
  EXPECT_EQ(corner.vertices.size(), 4u);
  EXPECT_EQ(corner.faces.size(), 4u);
  EXPECT_NEAR(corner.ComputeMassProperties().volume, 1.0 / 6.0, kTol);
  EXPECT_NEAR(above.convexes.at(0).ComputeMassProperties().volume, 5.0 / 6.0, kTol);
  EXPECT_EQ(above.convexes[0].faces.size(), 7u);  // 6 trimmed faces and the triangle
}

TEST(SplitTest, WholeConvexesAndSpheresGoToTheSideOfTheirCentre) {
  Shape s;
  s.convexes.push_back(MakeBox(Vec3(0, 0, 2), Vec3(1, 1, 3)));
  s.spheres.push_back(Sphere{Vec3(0, 0, -0.5), 1.0, 1, 1});  // crosses the plane
  s.spheres.push_back(Sphere{Vec3(0, 0, 0.5), 1.0, 1, 2});
  auto [below, above] = Split(s, Vec3::Zero(), Vec3::UnitZ());
  ASSERT_EQ(above.convexes.size(), 1u);
  EXPECT_EQ(above.convexes[0].vertices, s.convexes[0].vertices);  // untouched
  EXPECT_TRUE(below.convexes.empty());
  ASSERT_EQ(below.spheres.size(), 1u);
  EXPECT_EQ(below.spheres[0].surfid, 1);
  ASSERT_EQ(above.spheres.size(), 1u);
  EXPECT_EQ(above.spheres[0].surfid, 2);
}

TEST(SplitTest, SliversAreNotCutOff) {
  // The plane is 5e-10 below the top face: above the on-plane tolerance (1.7e-10) but the
  // would-be upper part (volume 5e-10) is a sliver, so the cube goes whole below.
  auto [below, above] = Split(Single(MakeUnitCube()), Vec3(0, 0, 1.0 - 5e-10), Vec3::UnitZ());
  EXPECT_TRUE(above.empty());
  ASSERT_EQ(below.convexes.size(), 1u);
  EXPECT_EQ(below.convexes[0].vertices, MakeUnitCube().vertices);
}

TEST(SplitTest, PiecesOfAdjacentConvexesStayAdjacent) {
  Shape s;
  s.convexes.push_back(MakeBox(Vec3(0, 0, 0), Vec3(1, 1, 1)));
  s.convexes.push_back(MakeBox(Vec3(1, 0, 0), Vec3(2, 1, 1)));
  s.convexes.push_back(MakeBox(Vec3(1, 0, 1), Vec3(2, 1, 2)));  // wholly above
  s.convexes[0].neighbors = {1};
  s.convexes[1].neighbors = {0, 2};
  s.convexes[2].neighbors = {1};
  auto [below, above] = Split(s, Vec3(0, 0, 0.5), Vec3::UnitZ());
  ASSERT_EQ(below.convexes.size(), 2u);
  ASSERT_EQ(above.convexes.size(), 3u);
  EXPECT_EQ(below.convexes[0].neighbors, std::vector<int>{1});
  EXPECT_EQ(below.convexes[1].neighbors, std::vector<int>{0});
  EXPECT_EQ(above.convexes[1].neighbors, (std::vector<int>{0, 2}));
  EXPECT_EQ(above.convexes[2].neighbors, std::vector<int>{1});
}

TEST(SplitTest, RandomCutsOfAHullConserveVolumeAndCentroid) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vec3> points(40);
  for (Vec3& p : points) p = Vec3(u(rng), u(rng), u(rng));
  const Convex hull = Hull(points, 1, 1);
  const MassProperties whole = hull.ComputeMassProperties();
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 normal(u(rng), u(rng), u(rng));
    const Vec3 point = 0.5 * Vec3(u(rng), u(rng), u(rng));
    auto [below, above] = Split(Single(hull), point, normal, {2, 3});
    MassProperties sum = below.ComputeMassProperties();
    sum += above.ComputeMassProperties();
    // Exact clipping: the halves add up to the whole up to round-off.
    EXPECT_NEAR(sum.volume, whole.volume, 1e-13);
    EXPECT_LT((sum.center - whole.center).norm(), 1e-12);
    EXPECT_LT((sum.euler - whole.euler).norm(), 1e-13);
    for (const Shape* part : {&below, &above}) {
      for (const Convex& c : part->convexes) EXPECT_NO_THROW(c.Validate("SPLIT"));
    }
  }
}

TEST(SplitTest, MeshesAndZeroNormalsAreRejected) {
  Shape s;
  s.meshes.push_back(Hex(MakeUnitCube().vertices, 1, 1, 1, 1, {1, 1, 1, 1, 1, 1}));
  ExpectInputError([&] { Split(s, Vec3::Zero(), Vec3::UnitZ()); },
                   {"SPLIT: MESH shapes cannot be split (argument 'shape')"});
  ExpectInputError([] { Split(Single(MakeUnitCube()), Vec3::Zero(), Vec3::Zero()); },
                   {"SPLIT: ", "(argument 'normal')"});
}

}  // namespace
}  // namespace solfec::geometry
