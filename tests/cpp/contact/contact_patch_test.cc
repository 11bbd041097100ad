// Contact patches: face contacts give the corners of the contact polygon, edges two points,
// corners one point; all share the normal and gap and split the area.
#include "contact/contact_patch.h"
#include "contact/narrow_phase.h"

#include <gtest/gtest.h>

#include "contact/contact_test_shapes.h"

namespace solfec::contact {
namespace {

using testing::Box;
using testing::Move;

TEST(ContactPatch, FaceOnFaceGivesFourCornersSharingNormalAndArea) {
  const double d = 1e-4;
  const auto floor = Box(Vec3(-5, -5, -1), Vec3(5, 5, 0));
  const auto cube = Box(Vec3(0, 0, -d), Vec3(1, 1, 1 - d));
  const auto patch = ConvexConvexPatch(floor, cube, 1e-9);
  ASSERT_EQ(patch.size(), 4u);
  double area = 0.0;
  for (const auto& g : patch) {
    EXPECT_NEAR(g.normal.z(), 1.0, 1e-12);
    EXPECT_NEAR(g.gap, -d, 1e-12);
    area += g.area;
    // every point is a corner of the unit square at mid-depth
    EXPECT_NEAR(std::abs(g.point.x() - 0.5), 0.5, 1e-9);
    EXPECT_NEAR(std::abs(g.point.y() - 0.5), 0.5, 1e-9);
    EXPECT_NEAR(g.point.z(), -0.5 * d, 1e-9);
  }
  EXPECT_NEAR(area, 1.0, 1e-9);
}

TEST(ContactPatch, EdgeOnFaceGivesTwoPointsAtTheEdgeEnds) {
  const double d = 1e-3;
  const auto floor = Box(Vec3(-5, -5, -1), Vec3(5, 5, 0));
  auto cube = Box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5));
  // rotate 45 degrees about x: the lowest edge runs along x at z = -sqrt(2)/2
  Move(&cube, AxisAngle(Vec3::UnitX(), kPi / 4), Vec3::Zero(),
       Vec3(0, 0, std::sqrt(0.5) - d));
  const auto patch = ConvexConvexPatch(floor, cube, 1e-9);
  ASSERT_EQ(patch.size(), 2u);
  EXPECT_NEAR(std::abs(patch[0].point.x() - patch[1].point.x()), 1.0, 1e-9);
  for (const auto& g : patch) EXPECT_NEAR(g.normal.z(), 1.0, 1e-9);
}

TEST(ContactPatch, CornerOnFaceGivesOnePoint) {
  const auto floor = Box(Vec3(-5, -5, -1), Vec3(5, 5, 0));
  auto cube = Box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5));
  // a corner down: rotate the (1,1,1) diagonal onto -z
  const Vec3 diag = Vec3(1, 1, 1).normalized();
  const Vec3 axis = diag.cross(-Vec3::UnitZ()).normalized();
  const double angle = std::acos(diag.dot(-Vec3::UnitZ()));
  Move(&cube, AxisAngle(axis, angle), Vec3::Zero(), Vec3(0, 0, std::sqrt(0.75) - 1e-3));
  const auto patch = ConvexConvexPatch(floor, cube, 1e-9);
  ASSERT_EQ(patch.size(), 1u);
  EXPECT_NEAR(patch[0].normal.z(), 1.0, 1e-9);
}

TEST(ContactPatch, SeparatedPiecesGiveNoPoints) {
  const auto a = Box(Vec3(0, 0, 0), Vec3(1, 1, 1));
  const auto b = Box(Vec3(0, 0, 1.1), Vec3(1, 1, 2));
  EXPECT_TRUE(ConvexConvexPatch(a, b, 1e-9).empty());
}

// Contact detection follows Solfec-1.0 (goc.c/cvi.c): pieces closer than GEOMETRIC_EPSILON
// are in contact with gap 0, so a block laid exactly on another carries its weight from the
// first step (a masonry arch whose joints touch must not fall until they overlap epsilon).
TEST(ContactPatch, TouchingFacesAreInContactWithZeroGap) {
  const double eps = 1e-4;
  const auto floor = Box(Vec3(-5, -5, -1), Vec3(5, 5, 0));
  for (const double lift : {0.0, 0.5 * eps}) {  // touching; apart by less than epsilon
    const auto cube = Box(Vec3(0, 0, lift), Vec3(1, 1, 1 + lift));
    const auto patch = ConvexConvexPatch(floor, cube, eps);
    ASSERT_EQ(patch.size(), 4u) << "lift " << lift;
    double area = 0.0;
    for (const auto& g : patch) {
      EXPECT_NEAR(g.normal.z(), 1.0, 1e-12);
      EXPECT_EQ(g.gap, 0.0);
      area += g.area;
      EXPECT_NEAR(std::abs(g.point.x() - 0.5), 0.5, 1e-9);
      EXPECT_NEAR(std::abs(g.point.y() - 0.5), 0.5, 1e-9);
    }
    EXPECT_NEAR(area, 1.0, 1e-3);  // the swollen side faces add ~ 4 eps to the area
  }
  // Farther than epsilon: no contact; the plain overlap (OVERLAPPING) ignores touching.
  EXPECT_TRUE(ConvexConvexPatch(floor, Box(Vec3(0, 0, 2 * eps), Vec3(1, 1, 1)), eps).empty());
  EXPECT_FALSE(ConvexConvex(floor, Box(Vec3(0, 0, 0), Vec3(1, 1, 1)), eps).has_value());
}

TEST(ContactPatch, PenetrationDepthIsTheGapWhateverEpsilon) {
  const auto floor = Box(Vec3(-5, -5, -1), Vec3(5, 5, 0));
  for (const double d : {5e-5, 1e-3}) {  // thinner and thicker than epsilon
    const auto cube = Box(Vec3(0, 0, -d), Vec3(1, 1, 1 - d));
    const auto patch = ConvexConvexPatch(floor, cube, 1e-4);
    ASSERT_EQ(patch.size(), 4u);
    for (const auto& g : patch) EXPECT_NEAR(g.gap, -d, 1e-12);
  }
}

}  // namespace
}  // namespace solfec::contact
