// Tests of Shape collections: append, bounds, mass properties and transformations.
#include "geometry/shape.h"

#include <gtest/gtest.h>

#include "base/math.h"
#include "geometry/geometry_test_util.h"

namespace solfec::geometry {
namespace {

using testing::ExpectInputError;
using testing::MakeBox;
using testing::MakeUnitCube;

Shape Mixed() {
  Shape s;
  s.convexes.push_back(MakeBox(Vec3(0, 0, 0), Vec3(1, 1, 1)));
  s.convexes.push_back(MakeBox(Vec3(1, 0, 0), Vec3(2, 1, 1)));
  s.convexes[0].neighbors = {1};
  s.convexes[1].neighbors = {0};
  s.spheres.push_back(Sphere{Vec3(5, 0, 0), 0.5, 1, 1});
  s.meshes.push_back(
      Hex(MakeBox(Vec3(0, 0, 2), Vec3(1, 1, 3)).vertices, 1, 1, 2, 1, {1, 1, 1, 1, 1, 1}));
  return s;
}

TEST(ShapeTest, AppendShiftsNeighborIndices) {
  Shape s = Mixed();
  s.Append(Mixed());
  ASSERT_EQ(s.convexes.size(), 4u);
  EXPECT_EQ(s.convexes[2].neighbors, std::vector<int>{3});
  EXPECT_EQ(s.convexes[3].neighbors, std::vector<int>{2});
  EXPECT_EQ(s.spheres.size(), 2u);
  EXPECT_EQ(s.meshes.size(), 2u);
}

TEST(ShapeTest, MassPropertiesAndBoundsCoverAllPieces) {
  const Shape s = Mixed();
  const MassProperties mp = s.ComputeMassProperties();
  const double vs = 4.0 / 3.0 * kPi * 0.125;
  EXPECT_NEAR(mp.volume, 3.0 + vs, 1e-13);
  // Centroid: boxes 2 at (1, .5, .5), mesh 1 at (.5, .5, 2.5), sphere vs at (5, 0, 0).
  const Vec3 c = (2.0 * Vec3(1, 0.5, 0.5) + Vec3(0.5, 0.5, 2.5) + vs * Vec3(5, 0, 0)) / (3.0 + vs);
  EXPECT_LT((mp.center - c).norm(), 1e-14);
  EXPECT_EQ(s.Bounds().lo, Vec3(0, -0.5, -0.5));
  EXPECT_EQ(s.Bounds().hi, Vec3(5.5, 1, 3));
}

TEST(ShapeTest, RotationFollowsTheRightHandRuleAboutAnAxisThroughAPoint) {
  Shape s;
  s.spheres.push_back(Sphere{Vec3(2, 1, 0), 1.0, 1, 1});
  s.Rotate(Vec3(1, 1, 0), Vec3(0, 0, 3), 90.0);
  // (1, 0, 0) relative to the axis turns into (0, 1, 0) under +90 degrees about +z.
  EXPECT_LT((s.spheres[0].center - Vec3(1, 2, 0)).norm(), 1e-15);
  EXPECT_DOUBLE_EQ(s.spheres[0].radius, 1.0);
}

TEST(ShapeTest, RigidMotionKeepsVolumeAndMovesTheCentroid) {
  Shape s = Mixed();
  const MassProperties before = s.ComputeMassProperties();
  s.Rotate(Vec3(1, 2, 3), Vec3(1, -1, 2), 37.0);
  s.Translate(Vec3(-3, 4, 1));
  const MassProperties after = s.ComputeMassProperties();
  const Mat3 R = AxisAngle(Vec3(1, -1, 2), 37.0 * kPi / 180.0);
  EXPECT_NEAR(after.volume, before.volume, 1e-13);
  EXPECT_LT((after.center - (R * (before.center - Vec3(1, 2, 3)) + Vec3(1, 2, 3) + Vec3(-3, 4, 1)))
                .norm(),
            1e-13);
  EXPECT_LT((after.euler - R * before.euler * R.transpose()).norm(), 1e-12);
}

TEST(ShapeTest, ScaleScalesVolumeAndMirrorsKeepItPositive) {
  Shape s;
  s.convexes.push_back(MakeUnitCube());
  s.meshes.push_back(Hex(MakeUnitCube().vertices, 2, 1, 1, 1, {1, 1, 1, 1, 1, 1}));
  s.Scale(Vec3(-2, 3, 0.5));
  EXPECT_NEAR(s.convexes[0].ComputeMassProperties().volume, 3.0, 1e-14);
  EXPECT_NEAR(s.meshes[0].ComputeMassProperties().volume, 3.0, 1e-14);
  EXPECT_NO_THROW(s.convexes[0].Validate("SCALE"));
  EXPECT_NO_THROW(s.meshes[0].Validate("SCALE"));
  Shape ball;
  ball.spheres.push_back(Sphere{Vec3(1, 1, 1), 1.0, 1, 1});
  ball.Scale(Vec3(2, 2, 2));
  EXPECT_EQ(ball.spheres[0].center, Vec3(2, 2, 2));
  EXPECT_NEAR(ball.spheres[0].radius, 2.0, 1e-15);
}

TEST(ShapeTest, NonUniformScalingOfASphereIsRejectedAndLeavesTheShapeIntact) {
  Shape s = Mixed();
  const Shape copy = s;
  ExpectInputError([&] { s.Scale(Vec3(1, 2, 1)); },
                   {"SCALE: non-uniform scaling of a SPHERE (argument 'coefs')"});
  EXPECT_EQ(s.convexes[0].vertices, copy.convexes[0].vertices);
  ExpectInputError([&] { s.Scale(Vec3(1, 0, 1)); }, {"SCALE: ", "'coefs'"});
  ExpectInputError([&] { s.Rotate(Vec3::Zero(), Vec3::Zero(), 10.0); }, {"ROTATE: ", "'vector'"});
}

}  // namespace
}  // namespace solfec::geometry
