// Narrow phase against exact geometry: boxes on floors, edge and vertex overlaps, spheres.
#include "contact/narrow_phase.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/math.h"
#include "contact/contact_test_shapes.h"

namespace solfec::contact {
namespace {

using geometry::Convex;
using geometry::Sphere;
using testing::Box;
using testing::Move;

// Geometric tolerance passed to the narrow phase in these tests: far below every depth used.
constexpr double kEps = 1e-9;

Convex Floor() { return Box(Vec3(-5, -5, -1), Vec3(5, 5, 0), 10); }

Sphere MakeSphere(const Vec3& c, double r, int surfid = 0) {
  Sphere s;
  s.center = c;
  s.radius = r;
  s.surfid = surfid;
  return s;
}

class RestingCube : public ::testing::TestWithParam<double> {};

// A unit cube whose bottom is d below the floor top: the overlap is the slab
// [x0, x0+1] x [y0, y0+1] x [-d, 0].
TEST_P(RestingCube, GivesUpwardNormalDepthUnitAreaAndSlabCentroid) {
  const double d = GetParam();
  const double x0 = 0.3, y0 = -0.2;
  const Convex cube = Box(Vec3(x0, y0, -d), Vec3(x0 + 1, y0 + 1, 1 - d), 20);
  const auto g = ConvexConvex(Floor(), cube, kEps);
  ASSERT_TRUE(g.has_value());
  // Coordinates are O(1), so roundoff is ~1e-16 absolute: 1e-9 relative to d >= 1e-6 is safe.
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-9 * d);
  EXPECT_NEAR(g->area, 1.0, 1e-9);
  EXPECT_NEAR((g->point - Vec3(x0 + 0.5, y0 + 0.5, -0.5 * d)).norm(), 0.0, 1e-9);
  EXPECT_EQ(g->surf1, 10 + testing::kZMax);  // floor top
  EXPECT_EQ(g->surf2, 20 + testing::kZMin);  // cube bottom
}

TEST_P(RestingCube, SwappedOrderGivesDownwardNormal) {
  const double d = GetParam();
  const Convex cube = Box(Vec3(0.3, -0.2, -d), Vec3(1.3, 0.8, 1 - d), 20);
  const auto g = ConvexConvex(cube, Floor(), kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR((g->normal + Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-9 * d);
  EXPECT_NEAR(g->area, 1.0, 1e-9);
  EXPECT_EQ(g->surf1, 20 + testing::kZMin);
  EXPECT_EQ(g->surf2, 10 + testing::kZMax);
}

// Half of the cube overhangs the supporting cube: the overlap is [0.5, 1] x [0, 1] x [-d, 0];
// its +x side comes from the lower cube only, which must not tilt the normal.
TEST_P(RestingCube, HalfOverlapGivesHalfAreaAndOverlapCentroid) {
  const double d = GetParam();
  const Convex lower = Box(Vec3(0, 0, -1), Vec3(1, 1, 0));
  const Convex upper = Box(Vec3(0.5, 0, -d), Vec3(1.5, 1, 1 - d));
  const auto g = ConvexConvex(lower, upper, kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-9 * d);
  // area = 0.5 |sum_a A n - sum_b A n| = 0.5 |(2d, 0, 1)| = 0.5 + d^2 + O(d^4).
  EXPECT_NEAR(g->area, 0.5, 2.0 * d * d + 1e-12);
  EXPECT_NEAR((g->point - Vec3(0.75, 0.5, -0.5 * d)).norm(), 0.0, 1e-9);
}

// Identical footprints: the four side faces of the overlap lie on coincident planes of both
// cubes (exactly coplanar faces), the common case in stacks.
TEST_P(RestingCube, AlignedStackWithCoplanarSidesGivesExactContact) {
  const double d = GetParam();
  const Convex lower = Box(Vec3(0, 0, -1), Vec3(1, 1, 0));
  const Convex upper = Box(Vec3(0, 0, -d), Vec3(1, 1, 1 - d));
  const auto g = ConvexConvex(lower, upper, kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-12);
  EXPECT_NEAR(g->gap, -d, 1e-9 * d);
  EXPECT_NEAR(g->area, 1.0, 1e-9);
  EXPECT_NEAR((g->point - Vec3(0.5, 0.5, -0.5 * d)).norm(), 0.0, 1e-9);
}

// The aligned stack moved rigidly to a generic pose: coplanarity now holds only to roundoff.
TEST_P(RestingCube, RigidMotionOfAlignedStackMovesNormalAndPoint) {
  const double d = GetParam();
  Convex lower = Box(Vec3(0, 0, -1), Vec3(1, 1, 0));
  Convex upper = Box(Vec3(0, 0, -d), Vec3(1, 1, 1 - d));
  const Mat3 R = AxisAngle(Vec3(0.3, -0.8, 0.5), 0.77);
  const Vec3 t(3.0, -2.0, 7.0);
  Move(&lower, R, Vec3::Zero(), t);
  Move(&upper, R, Vec3::Zero(), t);
  const auto g = ConvexConvex(lower, upper, kEps);
  ASSERT_TRUE(g.has_value());
  // Rotated coordinates of size ~10 carry ~1e-15 roundoff: 1e-12 absolute on the depth.
  EXPECT_NEAR((g->normal - R * Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-12);
  EXPECT_NEAR(g->area, 1.0, 1e-9);
  EXPECT_NEAR((g->point - (R * Vec3(0.5, 0.5, -0.5 * d) + t)).norm(), 0.0, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Depths, RestingCube, ::testing::Values(1e-3, 1e-6));

// A unit cube rotated 45 degrees about x with its lowest edge d below the floor: the overlap
// is a prism with triangular section (0, +-d, 0), (0, 0, -d), length 1 along x.
TEST(ConvexConvex, CubeOnEdgeGivesUpwardNormalAndPrismCentroid) {
  const double d = 1e-3;
  Convex cube = Box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5));
  Move(&cube, AxisAngle(Vec3::UnitX(), kPi / 4), Vec3::Zero(),
       Vec3(0.2, 0.1, std::sqrt(0.5) - d));
  const auto g = ConvexConvex(Floor(), cube, kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-9 * d);
  EXPECT_NEAR(g->area, 2 * d, 1e-9 * d);  // the floor face of the prism: 1 x 2d
  EXPECT_NEAR((g->point - Vec3(0.2, 0.1, -d / 3)).norm(), 0.0, 1e-9);
}

// A cube hanging corner-down (body diagonal vertical), corner d below the floor: the overlap
// is a tetrahedron with apex (c, -d) and an equilateral top of circumradius d sqrt(2).
TEST(ConvexConvex, CubeOnCornerGivesUpwardNormalAndTetrahedronCentroid) {
  const double d = 1e-3;
  Convex cube = Box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5));
  const Mat3 R =
      Eigen::Quaterniond::FromTwoVectors(Vec3(1, 1, 1), Vec3::UnitZ()).toRotationMatrix();
  Move(&cube, R, Vec3::Zero(), Vec3(-0.4, 0.7, std::sqrt(0.75) - d));
  const auto g = ConvexConvex(Floor(), cube, kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-9 * d);
  EXPECT_NEAR(g->area, 1.5 * std::sqrt(3.0) * d * d, 1e-6 * d * d);
  EXPECT_NEAR((g->point - Vec3(-0.4, 0.7, -d / 4)).norm(), 0.0, 1e-9);
}

// Two square bars crossing at right angles, each turned 45 degrees about its axis so that an
// edge of the lower one (along x) meets an edge of the upper one (along y) with overlap d.
// Overlap: |y| <= w, |x| <= d - w for w = top - z in [0, d]; its centroid is at depth d/2.
TEST(ConvexConvex, CrossedEdgesGiveNormalAlongCommonPerpendicular) {
  const double d = 1e-2;
  const double h = std::sqrt(0.5);  // half diagonal of the unit square section
  Convex lower = Box(Vec3(-2, -0.5, -0.5), Vec3(2, 0.5, 0.5));
  Move(&lower, AxisAngle(Vec3::UnitX(), kPi / 4), Vec3::Zero(), Vec3::Zero());
  Convex upper = Box(Vec3(-0.5, -2, -0.5), Vec3(0.5, 2, 0.5));
  Move(&upper, AxisAngle(Vec3::UnitY(), kPi / 4), Vec3::Zero(), Vec3(0, 0, 2 * h - d));
  const auto g = ConvexConvex(lower, upper, kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(g->gap, -d, 1e-9);
  EXPECT_NEAR(g->area, 2 * d * d, 1e-12);  // two lower faces, each with area vector d^2 (0,+-1,1)
  EXPECT_NEAR((g->point - Vec3(0, 0, h - d / 2)).norm(), 0.0, 1e-9);
}

// A generically tilted cube touching a flat floor with a corner: the floor is one flat face of
// the overlap, and the area-weighted normal is exactly the floor normal (closed surface).
TEST(ConvexConvex, GenericallyTiltedCubeGetsFloorNormal) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    Convex cube = Box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5));
    const Mat3 R = AxisAngle(Vec3(u(rng), u(rng), u(rng)), 3.0 * u(rng));
    Move(&cube, R, Vec3::Zero(), Vec3::Zero());
    double zmin = 1e9;
    for (const Vec3& x : cube.vertices) zmin = std::min(zmin, x.z());
    const double d = 1e-3;
    Move(&cube, Mat3::Identity(), Vec3::Zero(), Vec3(0, 0, -zmin - d));
    const auto g = ConvexConvex(Floor(), cube, kEps);
    ASSERT_TRUE(g.has_value());
    EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-9) << "trial " << trial;
    EXPECT_NEAR(g->gap, -d, 1e-9 * d) << "trial " << trial;
  }
}

TEST(ConvexConvex, SeparatedOrTouchingConvexesGiveNoContact) {
  const Convex floor = Floor();
  // Separated by 1e-3 along z.
  EXPECT_FALSE(ConvexConvex(floor, Box(Vec3(0, 0, 1e-3), Vec3(1, 1, 1)), kEps).has_value());
  // Exactly touching faces: zero-volume overlap.
  EXPECT_FALSE(ConvexConvex(floor, Box(Vec3(0, 0, 0), Vec3(1, 1, 1)), kEps).has_value());
  // Bounding boxes overlap but the rotated cube misses the box corner.
  Convex cube = Box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5));
  Move(&cube, AxisAngle(Vec3::UnitZ(), kPi / 4), Vec3::Zero(), Vec3(5.6, 5.6, -0.5));
  EXPECT_FALSE(ConvexConvex(floor, cube, kEps).has_value());
}

TEST(ConvexConvex, DepthBelowEpsilonGivesNoContact) {
  const Convex cube = Box(Vec3(0, 0, -1e-7), Vec3(1, 1, 1));
  EXPECT_FALSE(ConvexConvex(Floor(), cube, 1e-6).has_value());
  EXPECT_TRUE(ConvexConvex(Floor(), cube, 1e-8).has_value());
}

// Random pairs of rotated boxes: swapping the arguments reverses the normal and keeps the
// point, gap, area (the intersection is the same set).
TEST(ConvexConvex, SwappingArgumentsReversesNormalOnly) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int contacts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Convex a = Box(-Vec3(1 + u(rng), 1 + u(rng), 1 + u(rng)) * 0.5,
                   Vec3(1 + u(rng), 1 + u(rng), 1 + u(rng)) * 0.5);
    Convex b = Box(-Vec3(1 + u(rng), 1 + u(rng), 1 + u(rng)) * 0.5,
                   Vec3(1 + u(rng), 1 + u(rng), 1 + u(rng)) * 0.5);
    Move(&a, AxisAngle(Vec3(u(rng), u(rng), u(rng)), 3 * u(rng)), Vec3::Zero(), Vec3::Zero());
    Move(&b, AxisAngle(Vec3(u(rng), u(rng), u(rng)), 3 * u(rng)), Vec3::Zero(),
         Vec3(u(rng), u(rng), u(rng)) * 1.2);
    const auto ab = ConvexConvex(a, b, kEps);
    const auto ba = ConvexConvex(b, a, kEps);
    ASSERT_EQ(ab.has_value(), ba.has_value()) << "trial " << trial;
    if (!ab) continue;
    ++contacts;
    // Same polytope clipped in another order: agreement to roundoff of O(1) coordinates.
    EXPECT_NEAR((ab->normal + ba->normal).norm(), 0.0, 1e-8) << "trial " << trial;
    EXPECT_NEAR((ab->point - ba->point).norm(), 0.0, 1e-8) << "trial " << trial;
    EXPECT_NEAR(ab->gap, ba->gap, 1e-8) << "trial " << trial;
    EXPECT_NEAR(ab->area, ba->area, 1e-8) << "trial " << trial;
    EXPECT_EQ(ab->surf1, ba->surf2);
    EXPECT_EQ(ab->surf2, ba->surf1);
    EXPECT_LT(ab->gap, 0.0);
  }
  EXPECT_GT(contacts, 100);  // the sample exercises mostly overlapping pairs
}

// Sphere of radius r resting d deep on the floor: closest point (x, y, 0), surface point
// (x, y, -d).
TEST(ConvexSphere, SphereOnFloorGivesExactGapNormalAndMidpoint) {
  const double r = 0.5, d = 1e-4;
  const auto g = ConvexSphere(Floor(), MakeSphere(Vec3(0.3, 0.2, r - d), r, 7), kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR(g->gap, -d, 1e-15);
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_NEAR((g->point - Vec3(0.3, 0.2, -d / 2)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(g->area, kPi * (r * r - (r - d) * (r - d)), 1e-12);
  EXPECT_EQ(g->surf1, 10 + testing::kZMax);
  EXPECT_EQ(g->surf2, 7);
}

TEST(SphereConvex, ReversedOrderGivesDownwardNormalAndSwappedSurfaces) {
  const double r = 0.5, d = 1e-4;
  const auto g = SphereConvex(MakeSphere(Vec3(0.3, 0.2, r - d), r, 7), Floor(), kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR(g->gap, -d, 1e-15);
  EXPECT_NEAR((g->normal + Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_EQ(g->surf1, 7);
  EXPECT_EQ(g->surf2, 10 + testing::kZMax);
}

// Centre beyond the edge x = 1, z = 1 of the unit cube: the closest point is on the edge.
TEST(ConvexSphere, SphereNearEdgeUsesClosestEdgePoint) {
  const Vec3 c(1.3, 0.5, 1.3);
  const auto g = ConvexSphere(Box(Vec3(0, 0, 0), Vec3(1, 1, 1)), MakeSphere(c, 0.5), kEps);
  ASSERT_TRUE(g.has_value());
  const double dist = 0.3 * std::sqrt(2.0);
  EXPECT_NEAR(g->gap, dist - 0.5, 1e-14);
  EXPECT_NEAR((g->normal - Vec3(1, 0, 1).normalized()).norm(), 0.0, 1e-14);
  const Vec3 p(1, 0.5, 1), s = c - 0.5 * Vec3(1, 0, 1).normalized();
  EXPECT_NEAR((g->point - 0.5 * (p + s)).norm(), 0.0, 1e-14);
}

// Centre inside the cube 0.1 below the top: leave through the top, gap = -(0.1 + r).
TEST(ConvexSphere, CentreInsideLeavesThroughNearestFace) {
  const auto g = ConvexSphere(Box(Vec3(0, 0, 0), Vec3(1, 1, 1), 30),
                              MakeSphere(Vec3(0.5, 0.45, 0.9), 0.2), kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR(g->gap, -0.3, 1e-14);
  EXPECT_NEAR((g->normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g->point - Vec3(0.5, 0.45, 0.5 * (1.0 + 0.7))).norm(), 0.0, 1e-14);
  EXPECT_EQ(g->surf1, 30 + testing::kZMax);
}

TEST(ConvexSphere, SeparatedSphereGivesNoContact) {
  const Convex box = Box(Vec3(0, 0, 0), Vec3(1, 1, 1));
  EXPECT_FALSE(ConvexSphere(box, MakeSphere(Vec3(0.5, 0.5, 1.5 + 1e-9), 0.5), kEps).has_value());
  // Near the corner: within the face slabs' bounding box but 0.5 sqrt(3) - 0.5 away.
  EXPECT_FALSE(ConvexSphere(box, MakeSphere(Vec3(1.5, 1.5, 1.5), 0.8), kEps).has_value());
}

// Random rotated boxes and spheres against the box-frame solution: clamp the centre to the
// box for the closest point outside, the least face depth inside.
TEST(ConvexSphere, RandomRotatedBoxesMatchBoxFrameDistance) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec3 lo(-0.5, -0.3, -0.2), hi(0.5, 0.3, 0.2);
  int contacts = 0;
  for (int trial = 0; trial < 500; ++trial) {
    Convex box = Box(lo, hi);
    const Mat3 R = AxisAngle(Vec3(u(rng), u(rng), u(rng)), 3 * u(rng));
    const Vec3 t(u(rng), u(rng), u(rng));
    Move(&box, R, Vec3::Zero(), t);
    const Vec3 x(0.8 * u(rng), 0.6 * u(rng), 0.5 * u(rng));  // centre in the box frame
    const double r = 0.05 + 0.3 * (0.5 + 0.5 * u(rng));
    const Vec3 q = x.cwiseMax(lo).cwiseMin(hi);
    double gap;
    Vec3 n_local;
    if ((x - q).norm() > 0.0) {
      gap = (x - q).norm() - r;
      n_local = (x - q).normalized();
    } else {
      const Vec3 dlo = x - lo, dhi = hi - x;
      int i_lo, i_hi;
      const double m_lo = dlo.minCoeff(&i_lo), m_hi = dhi.minCoeff(&i_hi);
      gap = -std::min(m_lo, m_hi) - r;
      n_local = m_lo < m_hi ? Vec3(-Vec3::Unit(i_lo)) : Vec3(Vec3::Unit(i_hi));
    }
    const auto g = ConvexSphere(box, MakeSphere(R * x + t, r), kEps);
    ASSERT_EQ(g.has_value(), gap < 0.0) << "trial " << trial;
    if (!g) continue;
    ++contacts;
    // O(1) coordinates after one rotation: roundoff ~1e-15.
    EXPECT_NEAR(g->gap, gap, 1e-12) << "trial " << trial;
    EXPECT_NEAR((g->normal - R * n_local).norm(), 0.0, 1e-9) << "trial " << trial;
  }
  EXPECT_GT(contacts, 100);
}

// Radii 1 and 0.6 with centres 1.5 apart: gap -0.1, surface points x = 1 and x = 0.9.
TEST(SphereSphere, OverlapGivesExactGapNormalPointAndArea) {
  const auto g =
      SphereSphere(MakeSphere(Vec3(0, 0, 0), 1.0, 1), MakeSphere(Vec3(1.5, 0, 0), 0.6, 2), kEps);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR(g->gap, -0.1, 1e-15);
  EXPECT_NEAR((g->normal - Vec3::UnitX()).norm(), 0.0, 1e-15);
  EXPECT_NEAR((g->point - Vec3(0.95, 0, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(g->area, kPi * (0.36 - 0.25), 1e-14);  // r = min radius 0.6, r + gap = 0.5
  EXPECT_EQ(g->surf1, 1);
  EXPECT_EQ(g->surf2, 2);
  EXPECT_FALSE(
      SphereSphere(MakeSphere(Vec3(0, 0, 0), 1.0), MakeSphere(Vec3(1.61, 0, 0), 0.6), kEps)
          .has_value());
}

}  // namespace
}  // namespace solfec::contact
