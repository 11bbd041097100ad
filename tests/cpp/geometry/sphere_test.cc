// Tests of Sphere validation, bounds and exact mass properties.
#include "geometry/sphere.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "base/math.h"
#include "geometry/geometry_test_util.h"

namespace solfec::geometry {
namespace {

TEST(SphereTest, MassPropertiesMatchSolidBallFormulas) {
  const Sphere s{Vec3(1, 2, 3), 2.0, 1, 1};
  const MassProperties mp = s.ComputeMassProperties();
  EXPECT_NEAR(mp.volume, 4.0 / 3.0 * kPi * 8.0, 1e-13);
  EXPECT_EQ(mp.center, Vec3(1, 2, 3));
  // Inertia of a solid ball: 2/5 m r^2 about any diameter.
  const double density = 3.0;
  const double m = density * mp.volume;
  const Mat3 J = mp.InertiaTensor(density);
  EXPECT_NEAR(J(0, 0), 0.4 * m * 4.0, 1e-12);
  EXPECT_NEAR(J(1, 1), 0.4 * m * 4.0, 1e-12);
  EXPECT_NEAR(J(0, 2), 0.0, 1e-15);
}

TEST(SphereTest, BoundsSpanCentrePlusMinusRadius) {
  const Sphere s{Vec3(1, 2, 3), 0.5, 0, 0};
  EXPECT_EQ(s.Bounds().lo, Vec3(0.5, 1.5, 2.5));
  EXPECT_EQ(s.Bounds().hi, Vec3(1.5, 2.5, 3.5));
}

TEST(SphereTest, NonPositiveOrNonFiniteRadiusIsRejected) {
  using testing::ExpectInputError;
  ExpectInputError(
      [] {
        Sphere{Vec3::Zero(), 0.0, 0, 0}.Validate("SPHERE");
      },
      {"SPHERE: radius 0", "(argument 'radius')"});
  ExpectInputError([] { Sphere{Vec3::Zero(), -1.0, 0, 0}.Validate("SPHERE"); }, {"radius -1"});
  ExpectInputError(
      [] {
        Sphere{Vec3::Zero(), std::nan(""), 0, 0}.Validate("SPHERE");
      },
      {"'radius'"});
  ExpectInputError(
      [] {
        Sphere{Vec3(std::numeric_limits<double>::infinity(), 0, 0), 1.0, 0, 0}.Validate("SPHERE");
      },
      {"'center'"});
  EXPECT_NO_THROW((Sphere{Vec3::Zero(), 1e-3, 0, 0}.Validate("SPHERE")));
}

}  // namespace
}  // namespace solfec::geometry
