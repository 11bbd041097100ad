// Tests of Ellipsoid (ELLIP): validation, exact bounds, mass properties, affine maps.
#include "geometry/ellipsoid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "base/math.h"
#include "geometry/geometry_test_util.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

Ellipsoid Make(const Vec3& c, const Vec3& r, const Mat3& R = Mat3::Identity()) {
  Ellipsoid e;
  e.center = c;
  e.radii = r;
  e.rot = R;
  return e;
}

// A point of the surface at parameters (u, v): c + R D (cos u cos v, sin u cos v, sin v).
Vec3 SurfacePoint(const Ellipsoid& e, double u, double v) {
  const Vec3 s(std::cos(u) * std::cos(v), std::sin(u) * std::cos(v), std::sin(v));
  return e.center + e.rot * e.radii.cwiseProduct(s);
}

// |D^-1 R^T (x - c)|: 1 on the surface.
double Level(const Ellipsoid& e, const Vec3& x) {
  return (e.rot.transpose() * (x - e.center)).cwiseQuotient(e.radii).norm();
}

TEST(EllipsoidTest, MassPropertiesAreTheAffineImageOfTheUnitBall) {
  // The image of the unit ball by x = A s + c (A = R D) has V = det A * 4/3 pi and Euler
  // tensor det A * A (4 pi / 15 I) A^T (the ball's E = 4/15 pi r^5 I, SphereTest).
  const Mat3 R = AxisAngle(Vec3(1, 2, 3), 0.7);
  const Ellipsoid e = Make(Vec3(1, -2, 0.5), Vec3(0.3, 0.5, 1.1), R);
  const MassProperties mp = e.ComputeMassProperties();
  const Mat3 A = R * e.radii.asDiagonal();
  EXPECT_NEAR(mp.volume, 4.0 / 3.0 * kPi * 0.3 * 0.5 * 1.1, 1e-14);
  EXPECT_NEAR(mp.volume, A.determinant() * 4.0 / 3.0 * kPi, 1e-14);
  EXPECT_EQ(mp.center, e.center);
  const Mat3 E = A.determinant() * A * (4.0 * kPi / 15.0 * Mat3::Identity()) * A.transpose();
  EXPECT_LT((mp.euler - E).norm(), 1e-14);
  // Principal moments of inertia m (b^2 + c^2) / 5, ... along the axes.
  const double rho = 2.0, m = rho * mp.volume;
  const Mat3 J = R.transpose() * mp.InertiaTensor(rho) * R;
  EXPECT_NEAR(J(0, 0), m * (0.25 + 1.21) / 5.0, 1e-13);
  EXPECT_NEAR(J(1, 1), m * (0.09 + 1.21) / 5.0, 1e-13);
  EXPECT_NEAR(J(2, 2), m * (0.09 + 0.25) / 5.0, 1e-13);
  EXPECT_NEAR(J(0, 1), 0.0, 1e-14);
}

TEST(EllipsoidTest, BoundsAreTightForARotatedEllipsoid) {
  const Ellipsoid e =
      Make(Vec3(0.2, 0.1, -0.3), Vec3(1.0, 0.4, 0.2), AxisAngle(Vec3(0.3, -1, 0.5), 1.1));
  const Aabb box = e.Bounds();
  Vec3 lo = Vec3::Constant(1e9), hi = -lo;
  const int n = 400;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= n; ++j) {
      const Vec3 x = SurfacePoint(e, 2 * kPi * i / n, -kPi / 2 + kPi * j / n);
      lo = lo.cwiseMin(x);
      hi = hi.cwiseMax(x);
    }
  // Every sampled point inside; the sampled extremes within the sampling error (~(pi/n)^2).
  EXPECT_TRUE(((box.lo - lo).array() <= 1e-15).all());
  EXPECT_TRUE(((hi - box.hi).array() <= 1e-15).all());
  EXPECT_LT((box.lo - lo).cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_LT((box.hi - hi).cwiseAbs().maxCoeff(), 1e-4);
}

TEST(EllipsoidTest, RigidRotationRotatesTheAxesAndKeepsTheRadii) {
  Shape s;
  s.ellipsoids.push_back(Make(Vec3(1, 0, 0), Vec3(0.1, 0.2, 0.3)));
  s.Rotate(Vec3::Zero(), Vec3::UnitZ(), 90.0);
  const Ellipsoid& e = s.ellipsoids[0];
  EXPECT_LT((e.center - Vec3(0, 1, 0)).norm(), 1e-15);
  EXPECT_LT((e.radii - Vec3(0.1, 0.2, 0.3)).norm(), 1e-15);
  EXPECT_LT((e.rot - AxisAngle(Vec3::UnitZ(), kPi / 2)).norm(), 1e-15);
}

TEST(EllipsoidTest, AffineImageIsTheEllipsoidTheSurfaceMapsTo) {
  const Ellipsoid e0 =
      Make(Vec3(0.1, 0.2, 0.3), Vec3(0.5, 0.3, 0.2), AxisAngle(Vec3(1, 1, 0), 0.4));
  Mat3 F;
  F << 1.1, 0.2, -0.1, 0.05, 0.9, 0.3, -0.2, 0.1, 1.3;  // a general deformation, det > 0
  const Vec3 t(0.3, -0.1, 0.2);
  Ellipsoid e = e0;
  e.Transform(F, t);
  EXPECT_NEAR(e.rot.determinant(), 1.0, 1e-13);
  EXPECT_LT((e.rot.transpose() * e.rot - Mat3::Identity()).norm(), 1e-13);
  for (int i = 0; i < 20; ++i)
    for (int j = 1; j < 10; ++j) {
      const Vec3 X = SurfacePoint(e0, 2 * kPi * i / 20, -kPi / 2 + kPi * j / 10);
      EXPECT_NEAR(Level(e, F * X + t), 1.0, 1e-12);
    }
  // Volume scales by det F.
  EXPECT_NEAR(e.ComputeMassProperties().volume, F.determinant() * e0.ComputeMassProperties().volume,
              1e-13);
  // A small deformation keeps the axes in their order (continuity).
  Ellipsoid f = e0;
  f.Transform(Mat3::Identity() + 1e-3 * F, Vec3::Zero());
  EXPECT_LT((f.rot - e0.rot).norm(), 1e-2);
  EXPECT_LT((f.radii - e0.radii).norm(), 1e-2);
}

TEST(EllipsoidTest, SupportAndNormalAgreeOnTheSurface) {
  const Ellipsoid e = Make(Vec3(1, 2, 3), Vec3(0.4, 0.9, 0.3), AxisAngle(Vec3(2, 1, 1), 0.3));
  const Vec3 d = Vec3(0.3, -0.5, 0.8).normalized();
  const Vec3 p = e.Support(d);
  EXPECT_NEAR(Level(e, p), 1.0, 1e-14);
  EXPECT_LT((e.Normal(p) - d).norm(), 1e-13);
  EXPECT_TRUE(e.Contains(e.center));
  EXPECT_FALSE(e.Contains(p + 1e-6 * d));
}

TEST(EllipsoidTest, NonPositiveOrNonFiniteRadiusIsRejected) {
  using testing::ExpectInputError;
  ExpectInputError([] { Make(Vec3::Zero(), Vec3(1, 0, 1)).Validate("ELLIP"); },
                   {"ELLIP", "radii", "radius 1 = 0"});
  ExpectInputError(
      [] {
        Make(Vec3::Zero(), Vec3(1, 1, std::numeric_limits<double>::quiet_NaN())).Validate("ELLIP");
      },
      {"ELLIP", "radii"});
  ExpectInputError(
      [] {
        Make(Vec3(0, std::numeric_limits<double>::infinity(), 0), Vec3::Ones()).Validate("ELLIP");
      },
      {"ELLIP", "center"});
}

}  // namespace
}  // namespace solfec::geometry
