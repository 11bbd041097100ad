// Intersection polytope of two convexes: exact volumes, containment, Monte Carlo check.
#include "contact/convex_clip.h"

#include <gtest/gtest.h>

#include <random>

#include "base/math.h"
#include "contact/contact_test_shapes.h"

namespace solfec::contact {
namespace {

using geometry::Convex;
using testing::Box;
using testing::Move;

// Signed distance-like containment test: max over faces of n.x - d (<= 0 inside).
double Outside(const Convex& c, const Vec3& x) {
  double s = -1e300;
  for (int f = 0; f < static_cast<int>(c.faces.size()); ++f) {
    double d = 0.0;
    const Vec3 n = ConvexFaceNormal(c, f, &d);
    s = std::max(s, n.dot(x) - d);
  }
  return s;
}

TEST(IntersectConvexes, OverlappingBoxesGiveTheIntersectionBox) {
  const Convex a = Box(Vec3(0, 0, 0), Vec3(2, 3, 4));
  const Convex b = Box(Vec3(1, -1, 3.5), Vec3(5, 2, 9));
  ClipPolytope p;
  ASSERT_TRUE(IntersectConvexes(a, b, 1e-12, &p));
  Vec3 c;
  // [1, 2] x [0, 2] x [3.5, 4]: volume 1, exact in floating point.
  EXPECT_NEAR(p.Volume(&c), 1.0, 1e-14);
  EXPECT_NEAR((c - Vec3(1.5, 1.0, 3.75)).norm(), 0.0, 1e-14);
  EXPECT_EQ(p.faces.size(), 6u);
  int from_a = 0, from_b = 0;
  for (const ClipFace& f : p.faces) {
    from_a += f.face_a >= 0;
    from_b += f.face_b >= 0;
  }
  EXPECT_EQ(from_a, 3);  // x = 2, y = 0, z = 4 lie on faces of a
  EXPECT_EQ(from_b, 3);  // x = 1, y = 2, z = 3.5 lie on faces of b
}

TEST(IntersectConvexes, CoplanarFacesOfEqualOrientationAreShared) {
  const Convex a = Box(Vec3(0, 0, 0), Vec3(1, 1, 1));
  const Convex b = Box(Vec3(0, 0, 0.5), Vec3(1, 1, 2));
  ClipPolytope p;
  ASSERT_TRUE(IntersectConvexes(a, b, 1e-12, &p));
  EXPECT_EQ(p.faces.size(), 6u);
  int shared = 0;
  for (const ClipFace& f : p.faces) shared += f.face_a >= 0 && f.face_b >= 0;
  EXPECT_EQ(shared, 4);  // the four sides
  EXPECT_NEAR(p.Volume(nullptr), 0.5, 1e-14);
}

TEST(IntersectConvexes, DisjointOrTouchingGiveEmpty) {
  ClipPolytope p;
  const Convex a = Box(Vec3(0, 0, 0), Vec3(1, 1, 1));
  EXPECT_FALSE(IntersectConvexes(a, Box(Vec3(1, 0, 0), Vec3(2, 1, 1)), 1e-12, &p));
  EXPECT_FALSE(IntersectConvexes(a, Box(Vec3(1.5, 0, 0), Vec3(2, 1, 1)), 1e-12, &p));
  EXPECT_TRUE(p.faces.empty());
}

// Random rotated boxes: every polytope point lies in both boxes, the polytope is closed
// (area vectors sum to zero) and its volume matches a Monte Carlo estimate.
TEST(IntersectConvexes, RandomBoxesMatchMonteCarloVolume) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 40 && checked < 6; ++trial) {
    Convex a = Box(Vec3(-0.6, -0.4, -0.5), Vec3(0.6, 0.4, 0.5));
    Convex b = Box(Vec3(-0.3, -0.7, -0.5), Vec3(0.3, 0.7, 0.5));
    Move(&a, AxisAngle(Vec3(u(rng), u(rng), u(rng)), 3 * u(rng)), Vec3::Zero(), Vec3::Zero());
    Move(&b, AxisAngle(Vec3(u(rng), u(rng), u(rng)), 3 * u(rng)), Vec3::Zero(),
         Vec3(u(rng), u(rng), u(rng)) * 0.6);
    ClipPolytope p;
    if (!IntersectConvexes(a, b, ClipTolerance(a, b), &p)) continue;
    for (const Vec3& x : p.points) {
      EXPECT_LE(Outside(a, x), 1e-12);
      EXPECT_LE(Outside(b, x), 1e-12);
    }
    Vec3 closure = Vec3::Zero();
    for (int f = 0; f < static_cast<int>(p.faces.size()); ++f)
      closure += p.FaceArea(f) * p.faces[f].normal;
    EXPECT_NEAR(closure.norm(), 0.0, 1e-12);
    const double volume = p.Volume(nullptr);
    if (volume < 0.05) continue;  // too small for a 1% Monte Carlo estimate
    // Sample the cube [-1.5, 1.5]^3 (volume 27) with N points: std dev of the estimate is
    // sqrt(27 V / N) ~ 0.005 for V ~ 0.1, N = 1e5; allow 5 sigma.
    const int N = 100000;
    int hits = 0;
    for (int k = 0; k < N; ++k) {
      const Vec3 x(1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng));
      hits += Outside(a, x) <= 0.0 && Outside(b, x) <= 0.0;
    }
    const double estimate = 27.0 * hits / N;
    EXPECT_NEAR(volume, estimate, 5.0 * std::sqrt(27.0 * volume / N)) << "trial " << trial;
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

}  // namespace
}  // namespace solfec::contact
