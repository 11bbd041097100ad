// Tests of HULL: merged polygonal faces, interior point removal and degenerate input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/math.h"
#include "geometry/geometry_test_util.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

using testing::ExpectInputError;

std::vector<Vec3> CubeCorners() {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i) p.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  return p;
}

TEST(HullTest, CubeCornersWithInteriorPointsGiveSixQuadrilaterals) {
  std::vector<Vec3> points = CubeCorners();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.1, 0.9);
  for (int i = 0; i < 20; ++i) points.emplace_back(u(rng), u(rng), u(rng));
  const Convex hull = Hull(points, 3, 9);
  EXPECT_EQ(hull.vertices.size(), 8u);
  ASSERT_EQ(hull.faces.size(), 6u);
  for (const ConvexFace& f : hull.faces) {
    EXPECT_EQ(f.vertices.size(), 4u);
    EXPECT_EQ(f.surfid, 9);
  }
  EXPECT_EQ(hull.volid, 3);
  const MassProperties mp = hull.ComputeMassProperties();
  EXPECT_NEAR(mp.volume, 1.0, 1e-14);  // exact integration of the unit cube
  EXPECT_LT((mp.center - Vec3::Constant(0.5)).norm(), 1e-14);
}

TEST(HullTest, GridPointsOnFacesAndEdgesAreNotHullVertices) {
  std::vector<Vec3> points;
  for (int i = 0; i < 27; ++i) points.emplace_back(i % 3, (i / 3) % 3, i / 9);
  const Convex hull = Hull(points, 1, 1);
  EXPECT_EQ(hull.vertices.size(), 8u);
  EXPECT_EQ(hull.faces.size(), 6u);
  EXPECT_NEAR(hull.ComputeMassProperties().volume, 8.0, 1e-13);
}

TEST(HullTest, OctahedronHasEightTriangles) {
  const std::vector<Vec3> points = {Vec3::UnitX(),  -Vec3::UnitX(), Vec3::UnitY(),
                                    -Vec3::UnitY(), Vec3::UnitZ(),  -Vec3::UnitZ()};
  const Convex hull = Hull(points, 1, 1);
  EXPECT_EQ(hull.faces.size(), 8u);
  for (const ConvexFace& f : hull.faces) EXPECT_EQ(f.vertices.size(), 3u);
  EXPECT_NEAR(hull.ComputeMassProperties().volume, 4.0 / 3.0, 1e-14);
}

TEST(HullTest, RandomPointsAreAllInsideAValidHull) {
  std::mt19937 rng(2024);
  std::normal_distribution<double> g;
  std::vector<Vec3> points(300);
  for (Vec3& p : points) p = Vec3(g(rng), g(rng), g(rng)).normalized() * 2.0;
  for (int i = 0; i < 100; ++i) points.push_back(Vec3(g(rng), g(rng), g(rng)) * 0.3);
  const Convex hull = Hull(points, 1, 1);
  EXPECT_NO_THROW(hull.Validate("HULL"));
  EXPECT_EQ(hull.vertices.size(), 300u);  // every point on the sphere is extreme
  for (const Vec3& p : points) EXPECT_TRUE(hull.Contains(p, 1e-12));
  // Inscribed polytope: a little less than the ball's volume 32 pi / 3.
  const double volume = hull.ComputeMassProperties().volume;
  EXPECT_LT(volume, 32.0 * kPi / 3.0);
  EXPECT_GT(volume, 0.95 * 32.0 * kPi / 3.0);
}

TEST(HullTest, ThinPlateIsAValidHullWithExactVolume) {
  std::vector<Vec3> points = CubeCorners();
  for (Vec3& p : points) p.z() *= 1e-6;  // thinner than the convexity tolerance
  const Convex hull = Hull(points, 1, 1);
  EXPECT_EQ(hull.faces.size(), 6u);
  // Volume 1e-6 with relative round-off ~1e-10 from O(1) coordinates.
  EXPECT_NEAR(hull.ComputeMassProperties().volume, 1e-6, 1e-15);
}

TEST(HullTest, DegeneratePointSetsNameTheRoutine) {
  ExpectInputError(
      [] {
        Hull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()}, 1, 1);
      },
      {"HULL: 3 points given", "(argument 'points')"});
  std::vector<Vec3> flat;
  for (int i = 0; i < 10; ++i) flat.emplace_back(i % 3, i / 3, 0.0);
  ExpectInputError([&] { Hull(flat, 1, 1); }, {"HULL: points are coplanar (argument 'points')"});
  std::vector<Vec3> line;
  for (int i = 0; i < 5; ++i) line.emplace_back(i, 2.0 * i, 0.0);
  ExpectInputError([&] { Hull(line, 1, 1, "ROUGH_HEX"); }, {"ROUGH_HEX: points are collinear"});
  std::vector<Vec3> bad = CubeCorners();
  bad[5].y() = std::nan("");
  ExpectInputError([&] { Hull(bad, 1, 1); }, {"HULL: point 5 has a non-finite coordinate"});
  ExpectInputError([] { Hull(std::vector<Vec3>(5, Vec3::Ones()), 1, 1); },
                   {"HULL: points coincide"});
}

}  // namespace
}  // namespace solfec::geometry
