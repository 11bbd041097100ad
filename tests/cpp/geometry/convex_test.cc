// Tests of Convex validation messages, face planes, queries and transformation.
#include "geometry/convex.h"

#include <gtest/gtest.h>

#include "base/math.h"
#include "geometry/geometry_test_util.h"

namespace solfec::geometry {
namespace {

using testing::ExpectInputError;
using testing::MakeBox;
using testing::MakeUnitCube;
using testing::MakeUnitTetra;

// L-shaped prism: planar faces but not convex.
Convex MakeLPrism() {
  const std::vector<Eigen::Vector2d> xy = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  Convex c;
  for (double z : {0.0, 1.0}) {
    for (const auto& p : xy) c.vertices.emplace_back(p.x(), p.y(), z);
  }
  c.faces.push_back({{5, 4, 3, 2, 1, 0}, 1});
  c.faces.push_back({{6, 7, 8, 9, 10, 11}, 1});
  for (int i = 0; i < 6; ++i) {
    const int j = (i + 1) % 6;
    c.faces.push_back({{i, j, j + 6, i + 6}, 1});
  }
  return c;
}

TEST(ConvexTest, ValidCubeAndTetraPassValidationAndLPrismHasVolumeThree) {
  EXPECT_NO_THROW(MakeUnitCube().Validate("CONVEX"));
  EXPECT_NO_THROW(MakeUnitTetra().Validate("CONVEX"));
  // The L prism is a closed outward surface (volume 3 unit cubes) but not convex.
  EXPECT_NEAR(MakeLPrism().ComputeMassProperties().volume, 3.0, 1e-14);
  ExpectInputError([] { MakeLPrism().Validate("CONVEX"); }, {"CONVEX: ", "not convex"});
}

TEST(ConvexTest, OutOfRangeIndexNamesFaceIndexAndArgument) {
  Convex c = MakeUnitCube();
  c.faces[3].vertices[1] = 12;
  ExpectInputError([&] { c.Validate("CONVEX"); },
                   {"CONVEX: face 3 has an out-of-range vertex index 12 (argument 'faces')"});
}

TEST(ConvexTest, TooFewVerticesOrFacesAreRejected) {
  Convex c = MakeUnitTetra();
  c.vertices.pop_back();
  ExpectInputError([&] { c.Validate("HULL"); }, {"HULL: 3 vertices", "(argument 'vertices')"});
  Convex d = MakeUnitTetra();
  d.faces.pop_back();
  ExpectInputError([&] { d.Validate("CONVEX"); }, {"3 faces", "(argument 'faces')"});
  Convex e = MakeUnitTetra();
  e.faces[0].vertices = {0, 2};
  ExpectInputError([&] { e.Validate("CONVEX"); }, {"face 0 has 2 vertices"});
}

TEST(ConvexTest, FlatConvexIsDegenerate) {
  Convex c = MakeUnitCube();
  for (Vec3& v : c.vertices) v.z() = 0.0;
  ExpectInputError([&] { c.Validate("CONVEX"); }, {"CONVEX: degenerate convex (zero volume)"});
}

TEST(ConvexTest, InwardFacesAreRejected) {
  Convex all = MakeUnitCube();
  for (ConvexFace& f : all.faces) std::reverse(f.vertices.begin(), f.vertices.end());
  ExpectInputError([&] { all.Validate("CONVEX"); }, {"negative volume", "'faces'"});
  Convex one = MakeUnitCube();
  std::reverse(one.faces[2].vertices.begin(), one.faces[2].vertices.end());
  ExpectInputError([&] { one.Validate("CONVEX"); }, {"same direction", "counter-clockwise"});
}

TEST(ConvexTest, WarpedFaceIsNotPlanar) {
  Convex c = MakeUnitCube();
  c.vertices[6].z() = 1.2;
  ExpectInputError([&] { c.Validate("CONVEX"); }, {"is not planar"});
}

TEST(ConvexTest, CubeFaceNormalsAndOffsetsAreAxisPlanes) {
  const Convex c = MakeBox(Vec3(-1, -2, -3), Vec3(1, 2, 3));
  // Face order: z-min, x-max, y-max, x-min, y-min, z-max.
  const Vec3 normals[6] = {-Vec3::UnitZ(), Vec3::UnitX(),  Vec3::UnitY(),
                           -Vec3::UnitX(), -Vec3::UnitY(), Vec3::UnitZ()};
  const double offsets[6] = {3, 1, 2, 1, 2, 3};
  for (int f = 0; f < 6; ++f) {
    EXPECT_LT((c.FaceNormal(f) - normals[f]).norm(), 1e-15) << f;
    EXPECT_NEAR(c.FacePlaneOffset(f), offsets[f], 1e-15) << f;
  }
}

TEST(ConvexTest, BoundsSupportAndContainsOfABox) {
  const Convex c = MakeBox(Vec3(-1, -2, -3), Vec3(1, 2, 3));
  const Aabb box = c.Bounds();
  EXPECT_EQ(box.lo, Vec3(-1, -2, -3));
  EXPECT_EQ(box.hi, Vec3(1, 2, 3));
  EXPECT_EQ(c.Support(Vec3(1, -1, 1)), Vec3(1, -2, 3));
  EXPECT_TRUE(c.Contains(Vec3(0.9, 1.9, -2.9)));
  EXPECT_FALSE(c.Contains(Vec3(1.01, 0, 0)));
  EXPECT_TRUE(c.Contains(Vec3(1.01, 0, 0), 0.02));  // within eps of the face x = 1
}

TEST(ConvexTest, ReflectionKeepsOutwardFacesAndPositiveVolume) {
  Convex c = MakeUnitTetra();
  Mat3 A = Vec3(-2.0, 2.0, 2.0).asDiagonal();  // mirror in x and scale by 2
  c.Transform(A, Vec3(1, 1, 1));
  EXPECT_NO_THROW(c.Validate("CONVEX"));
  const MassProperties mp = c.ComputeMassProperties();
  EXPECT_NEAR(mp.volume, 8.0 / 6.0, 1e-14);  // |det A| = 8 times 1/6
  EXPECT_TRUE(mp.center.isApprox(Vec3(0.5, 1.5, 1.5), 1e-14));
}

TEST(ConvexTest, RotationAndTranslationPreserveVolumeAndValidity) {
  Convex c = MakeBox(Vec3(0, 0, 0), Vec3(1, 2, 3));
  c.Transform(AxisAngle(Vec3(0.3, 1.0, -0.2), 1.1), Vec3(-4, 5, 6));
  EXPECT_NO_THROW(c.Validate("CONVEX"));
  EXPECT_NEAR(c.ComputeMassProperties().volume, 6.0, 1e-13);
}

}  // namespace
}  // namespace solfec::geometry
