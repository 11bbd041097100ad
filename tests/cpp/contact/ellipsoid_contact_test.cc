// Ellipsoid narrow phase: closed forms (plane), the sphere code paths, and the optimality
// of the support-function gap (common normal; no direction gives a larger gap).
#include "contact/ellipsoid_contact.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/math.h"
#include "contact/contact_test_shapes.h"
#include "contact/narrow_phase.h"

namespace solfec::contact {
namespace {

using geometry::Convex;
using geometry::Ellipsoid;
using geometry::Sphere;
using testing::Box;

constexpr double kEps = 1e-9;

Ellipsoid MakeEllipsoid(const Vec3& c, const Vec3& r, const Mat3& R, int surfid = 7) {
  Ellipsoid e;
  e.center = c;
  e.radii = r;
  e.rot = R;
  e.surfid = surfid;
  return e;
}

// min over the sampled surface of n.x (an independent support value, error ~ (pi/n)^2 r).
double SampledMinSupport(const Ellipsoid& e, const Vec3& n, int m = 600) {
  double best = 1e300;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j <= m / 2; ++j) {
      const double u = 2 * kPi * i / m, v = -kPi / 2 + kPi * j / (m / 2);
      const Vec3 s(std::cos(u) * std::cos(v), std::sin(u) * std::cos(v), std::sin(v));
      best = std::min(best, n.dot(e.center + e.rot * e.radii.cwiseProduct(s)));
    }
  return best;
}

TEST(EllipsoidContactTest, RotatedEllipsoidOnAFloorHasTheClosedFormGapAndPoint) {
  const Convex floor = Box(Vec3(-5, -5, -1), Vec3(5, 5, 0), 10);
  const Ellipsoid e =
      MakeEllipsoid(Vec3(0.3, -0.2, 0.35), Vec3(0.2, 0.3, 0.4), AxisAngle(Vec3(1, 2, 3), 0.6));
  // Lowest point c - Q e_z / sqrt(Q_zz); gap c_z - sqrt(Q_zz).
  const Mat3 Q = e.Q();
  const double gap = e.center.z() - std::sqrt(Q(2, 2));
  ASSERT_LT(gap, 0.0);
  const auto g = ConvexEllipsoid(floor, e, kEps);
  ASSERT_TRUE(g);
  const Vec3 pb = e.center - Q.col(2) / std::sqrt(Q(2, 2));
  EXPECT_NEAR(g->gap, gap, 1e-14);
  EXPECT_LT((g->normal - Vec3::UnitZ()).norm(), 1e-14);
  EXPECT_LT((g->point - Vec3(pb.x(), pb.y(), 0.5 * pb.z())).norm(), 1e-14);
  EXPECT_EQ(g->surf1, 10 + testing::kZMax);
  EXPECT_EQ(g->surf2, 7);
  // The reverse order flips the normal.
  const auto r = EllipsoidConvex(e, floor, kEps);
  ASSERT_TRUE(r);
  EXPECT_LT((r->normal + Vec3::UnitZ()).norm(), 1e-14);
  EXPECT_EQ(r->surf1, 7);
  // Lifted clear of the floor by more than epsilon: no contact.
  Ellipsoid up = e;
  up.center.z() += -gap + 1e-6;
  EXPECT_FALSE(ConvexEllipsoid(floor, up, 1e-7));
  EXPECT_TRUE(ConvexEllipsoid(floor, up, 1e-5));  // closer than epsilon: touching, gap 0
  EXPECT_EQ(ConvexEllipsoid(floor, up, 1e-5)->gap, 0.0);
}

// A sphere-shaped ellipsoid at a box's face, edge and vertex gives the sphere-convex result.
TEST(EllipsoidContactTest, SphericalEllipsoidMatchesConvexSphereAtFacesEdgesAndVertices) {
  const Convex box = Box(Vec3(0, 0, 0), Vec3(1, 1, 1), 20);
  const double r = 0.3;
  const Vec3 centres[] = {Vec3(0.5, 0.4, 1.25), Vec3(1.2, 0.5, 1.2), Vec3(1.15, 1.2, 1.1),
                          Vec3(-0.2, 0.3, 0.5)};
  for (const Vec3& c : centres) {
    Sphere s;
    s.center = c;
    s.radius = r;
    const Ellipsoid e = MakeEllipsoid(c, Vec3::Constant(r), AxisAngle(Vec3(1, 1, 2), 0.8));
    const auto gs = ConvexSphere(box, s, kEps);
    const auto ge = ConvexEllipsoid(box, e, kEps);
    ASSERT_TRUE(gs);
    ASSERT_TRUE(ge);
    EXPECT_NEAR(ge->gap, gs->gap, 1e-10) << c.transpose();
    EXPECT_LT((ge->normal - gs->normal).norm(), 1e-8) << c.transpose();
    EXPECT_LT((ge->point - gs->point).norm(), 1e-8) << c.transpose();
  }
}

TEST(EllipsoidContactTest, SphereSphereThroughTheEllipsoidPathIsExact) {
  Sphere a, b;
  a.center = Vec3(0, 0, 0);
  a.radius = 0.5;
  b.center = Vec3(0.3, 0.4, 0.6);
  b.radius = 0.4;
  const Ellipsoid eb = MakeEllipsoid(b.center, Vec3::Constant(0.4), Mat3::Identity());
  const auto g0 = SphereSphere(a, b, kEps);
  const auto g1 = SphereEllipsoid(a, eb, kEps);
  ASSERT_TRUE(g0 && g1);
  EXPECT_NEAR(g1->gap, g0->gap, 1e-14);
  EXPECT_LT((g1->normal - g0->normal).norm(), 1e-14);
  EXPECT_LT((g1->point - g0->point).norm(), 1e-14);
}

// Two ellipsoids, apart and overlapping: the result satisfies the closest-point conditions
// (n along both surface normals, p_B - p_A = gap n); no direction of a dense set gives a
// larger gap f(n) = min_B n.x - max_A n.x (closed-form support points, EllipsoidTest), and
// f along the normal from sampled surface points agrees to the sampling error.
TEST(EllipsoidContactTest, TwoEllipsoidsGiveTheMaximalSupportGapAndACommonNormal) {
  const Ellipsoid a =
      MakeEllipsoid(Vec3(0, 0, 0), Vec3(0.5, 0.2, 0.3), AxisAngle(Vec3(0, 1, 1), 0.5));
  for (double shift : {0.95, 0.7, 0.6}) {  // apart, overlapping, deeper
    const Ellipsoid b =
        MakeEllipsoid(Vec3(shift, 0.2, 0.1), Vec3(0.4, 0.25, 0.15), AxisAngle(Vec3(1, -1, 2), 1.2));
    const SupportGap s = SmoothSignedDistance(SupportOf(a), SupportOf(b), &a.rot, &b.rot);
    ASSERT_TRUE(s.converged);
    EXPECT_LT(s.iterations, 20);
    EXPECT_LT((a.Normal(s.pa) - s.normal).norm(), 1e-10);
    EXPECT_LT((b.Normal(s.pb) + s.normal).norm(), 1e-10);
    EXPECT_LT((s.pb - s.pa - s.gap * s.normal).norm(), 1e-12);
    std::mt19937 rng(3);
    std::normal_distribution<double> N(0.0, 1.0);
    double fmax = -1e300;
    for (int k = 0; k < 200; ++k) {
      Vec3 n(N(rng), N(rng), N(rng));
      n = (0.2 * n.normalized() + s.normal).normalized();  // around the solution
      fmax = std::max(fmax, n.dot(b.Support(-n)) - n.dot(a.Support(n)));
    }
    EXPECT_LE(fmax, s.gap + 1e-12);
    // The sampled gap along the solution normal agrees to the sampling error.
    const double fs = SampledMinSupport(b, s.normal) + SampledMinSupport(a, -s.normal);
    EXPECT_NEAR(fs, s.gap, 2e-5);
    const auto g = EllipsoidEllipsoid(a, b, kEps);
    EXPECT_EQ(bool(g), s.gap < kEps);
    if (g) {
      EXPECT_NEAR(g->gap, s.gap, 1e-15);
      EXPECT_LT((g->point - 0.5 * (s.pa + s.pb)).norm(), 1e-15);
    }
  }
}

// Random ellipsoids about a box (faces, edges, corners; apart and overlapping): the convex
// result is the maximum of the exact gap f(n) = min_E n.y - max_box n.x over a dense set of
// directions (never below it, above it by at most the sampling error).
TEST(EllipsoidContactTest, ConvexEllipsoidIsTheMaximalGapAboutABox) {
  const Convex box = Box(Vec3(0, 0, 0), Vec3(1, 0.6, 0.4), 0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-0.4, 1.4), R(0.05, 0.3), A(0.0, kPi);
  std::vector<Vec3> dirs;
  const int m = 200;
  for (int i = 0; i < m; ++i)
    for (int j = 1; j < m; ++j) {
      const double u = 2 * kPi * i / m, v = -kPi / 2 + kPi * j / m;
      dirs.emplace_back(std::cos(u) * std::cos(v), std::sin(u) * std::cos(v), std::sin(v));
    }
  dirs.push_back(Vec3::UnitZ());
  dirs.push_back(-Vec3::UnitZ());
  for (int k = 0; k < 40; ++k) {
    const Ellipsoid e =
        MakeEllipsoid(Vec3(U(rng), U(rng) * 0.6, U(rng) * 0.4), Vec3(R(rng), R(rng), R(rng)),
                      AxisAngle(Vec3(U(rng), U(rng), U(rng)), A(rng)));
    const SupportGap s = ConvexEllipsoidDistance(box, e);
    double fmax = -1e300;
    for (const Vec3& n : dirs) {
      double h = -1e300;
      for (const Vec3& v : box.vertices) h = std::max(h, n.dot(v));
      fmax = std::max(fmax, n.dot(e.Support(-n)) - h);
    }
    EXPECT_GE(s.gap, fmax - 1e-12) << k;
    EXPECT_LE(s.gap, fmax + 2e-3) << k;  // sampling step pi/200: error ~ (pi/200)^2 r
  }
}

}  // namespace
}  // namespace solfec::contact
