// Tests of volume, centroid, Euler tensor and their combination against closed forms.
#include "geometry/mass_properties.h"

#include <gtest/gtest.h>

#include "base/math.h"
#include "geometry/geometry_test_util.h"

namespace solfec::geometry {
namespace {

using testing::MakeBox;
using testing::MakeUnitCube;
using testing::MakeUnitTetra;

// Exact polynomial integration: only round-off remains (a few ulps of O(1) numbers).
constexpr double kTol = 1e-14;

TEST(MassPropertiesTest, UnitCubeHasUnitVolumeCentreHalfAndEulerTensorOneTwelfth) {
  const MassProperties mp = MakeUnitCube().ComputeMassProperties();
  EXPECT_NEAR(mp.volume, 1.0, kTol);
  EXPECT_TRUE(mp.center.isApprox(Vec3::Constant(0.5), kTol));
  // int (x - 1/2)^2 dx over [0, 1] = 1/12; off-diagonal terms vanish by symmetry.
  EXPECT_LT((mp.euler - Mat3::Identity() / 12.0).norm(), kTol);
}

TEST(MassPropertiesTest, UnitTetraMatchesClosedFormMoments) {
  const MassProperties mp = MakeUnitTetra().ComputeMassProperties();
  EXPECT_NEAR(mp.volume, 1.0 / 6.0, kTol);
  EXPECT_TRUE(mp.center.isApprox(Vec3::Constant(0.25), kTol));
  // int x^2 dV = 1/60, int xy dV = 1/120 over the unit tetra; shifted to the centroid:
  // 1/60 - (1/6)(1/16) = 1/160 and 1/120 - (1/6)(1/16) = -1/480.
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(mp.euler(r, c), r == c ? 1.0 / 160.0 : -1.0 / 480.0, kTol);
    }
  }
}

TEST(MassPropertiesTest, BoxInertiaMatchesRectangularPrismFormula) {
  const double a = 2.0, b = 3.0, c = 5.0, density = 7.0;
  const MassProperties mp =
      MakeBox(Vec3(-1, 4, 2), Vec3(-1 + a, 4 + b, 2 + c)).ComputeMassProperties();
  const double m = density * a * b * c;
  const Mat3 J = mp.InertiaTensor(density);
  // I_xx = m (b^2 + c^2) / 12 etc.; relative round-off of O(1e-15) on values O(1e3).
  EXPECT_NEAR(J(0, 0), m * (b * b + c * c) / 12.0, 1e-11);
  EXPECT_NEAR(J(1, 1), m * (a * a + c * c) / 12.0, 1e-11);
  EXPECT_NEAR(J(2, 2), m * (a * a + b * b) / 12.0, 1e-11);
  EXPECT_NEAR(J(0, 1), 0.0, 1e-11);
  EXPECT_NEAR(J(1, 2), 0.0, 1e-11);
}

TEST(MassPropertiesTest, CombiningTwoHalvesGivesTheWholeBox) {
  MassProperties sum = MakeBox(Vec3(0, 0, 0), Vec3(1, 1, 1)).ComputeMassProperties();
  sum += MakeBox(Vec3(1, 0, 0), Vec3(3, 1, 1)).ComputeMassProperties();
  const MassProperties whole = MakeBox(Vec3(0, 0, 0), Vec3(3, 1, 1)).ComputeMassProperties();
  EXPECT_NEAR(sum.volume, 3.0, kTol);
  EXPECT_TRUE(sum.center.isApprox(whole.center, kTol));
  // Euler xx of the 3x1x1 box about its centre = 3^3/12 = 2.25.
  EXPECT_NEAR(sum.euler(0, 0), 2.25, 1e-13);
  EXPECT_LT((sum.euler - whole.euler).norm(), 1e-13);
}

TEST(MassPropertiesTest, AddingToEmptyPropertiesCopiesTheOperand) {
  MassProperties sum;
  const MassProperties tet = MakeUnitTetra().ComputeMassProperties();
  sum += tet;
  EXPECT_EQ(sum.volume, tet.volume);
  EXPECT_TRUE(sum.center.isApprox(tet.center, kTol));
  EXPECT_LT((sum.euler - tet.euler).norm(), kTol);
}

TEST(MassPropertiesTest, ConeIntegrationDoesNotDependOnTheApex) {
  const Convex cube = MakeUnitCube();
  ConeIntegrator far(Vec3(10.0, -20.0, 5.0));
  for (const ConvexFace& f : cube.faces) {
    const Vec3 q[4] = {cube.vertices[f.vertices[0]], cube.vertices[f.vertices[1]],
                       cube.vertices[f.vertices[2]], cube.vertices[f.vertices[3]]};
    far.AddPolygon(q, 4);
  }
  const MassProperties mp = far.Finish();
  // Cancellation of cones of size ~20 costs a few digits: 1e-12 is still far below any error.
  EXPECT_NEAR(mp.volume, 1.0, 1e-12);
  EXPECT_TRUE(mp.center.isApprox(Vec3::Constant(0.5), 1e-12));
  EXPECT_LT((mp.euler - Mat3::Identity() / 12.0).norm(), 1e-11);
}

TEST(MassPropertiesTest, RigidMotionRotatesEulerTensorAndMovesCentre) {
  Convex tet = MakeUnitTetra();
  const MassProperties before = tet.ComputeMassProperties();
  const Mat3 R = AxisAngle(Vec3(1.0, -2.0, 0.5), 0.7);
  const Vec3 t(3.0, -1.0, 2.5);
  tet.Transform(R, t);
  const MassProperties after = tet.ComputeMassProperties();
  EXPECT_NEAR(after.volume, before.volume, kTol);
  EXPECT_TRUE(after.center.isApprox(R * before.center + t, 1e-13));
  // E' = R E R^T for x' = R x + t.
  EXPECT_LT((after.euler - R * before.euler * R.transpose()).norm(), 1e-14);
}

}  // namespace
}  // namespace solfec::geometry
