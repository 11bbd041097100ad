// The user constraint rows of domain/user_constraints.h on rigid cubes in known places:
// origins, bases, rigid-link normalisation and lengths, prescribed motions.
#include "domain/user_constraints.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "body/body_factory.h"

namespace solfec::domain {
namespace {

using contact::ConstraintKind;

std::unique_ptr<body::Body> Cube(const Vec3& c) {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i)
    p.push_back(c + 0.1 * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
  geometry::Shape s;
  s.convexes.push_back(geometry::Hull(p, 1, 1));
  material::BulkMaterial m;
  m.label = "m";
  auto b = body::MakeBody(body::BodyKind::kRigid, s, m, "cube");
  // a displaced and turned configuration: x = R X + d
  const Mat3 R = Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Vec3 d(0.5, -0.25, 1.0);
  b->mutable_q().head<9>() = Eigen::Map<const VecX>(R.data(), 9);
  b->mutable_q().segment<3>(9) += d;
  return b;
}

TEST(UserConstraints, PointRowsStartWhereTheirPointsAre) {
  auto b = Cube(Vec3(0, 0, 0));
  const Vec3 X(0.1, 0.05, -0.1);
  const Vec3 x = b->SpatialPoint(X);
  const auto fix = MakeFixPoint(*b, X, 5.0);
  EXPECT_EQ(fix.kind, ConstraintKind::kFixPoint);
  EXPECT_EQ(fix.X_origin, x);
  EXPECT_EQ(fix.point, x);
  EXPECT_EQ(fix.strength, 5.0);
  const auto dir = MakeFixDirection(*b, X, Vec3(0, 0, 2));
  EXPECT_LT((dir.base.col(2) - Vec3(0, 0, 1)).norm(), 1e-15);  // N along the unit direction
  EXPECT_EQ(dir.X_origin, x);
  auto b2 = Cube(Vec3(1, 0, 0));
  const auto two = MakeFixDirection(*b, X, Vec3(1, 0, 0), b2.get(), Vec3(1, 0, 0));
  EXPECT_EQ(two.body2, b2.get());
  EXPECT_LT((two.X_origin - (b2->SpatialPoint(Vec3(1, 0, 0)) - x)).norm(), 1e-15);
  EXPECT_EQ(two.point, x);
  const auto vel = MakeSetVelocity(*b, X, Vec3(0, 1, 0), ScalarOrSeries(2.5));
  EXPECT_EQ(vel.kind, ConstraintKind::kVeloDir);
  EXPECT_EQ(vel.velocity(0.0), 2.5);
  EXPECT_FALSE(vel.has_displacement);
  const TimeSeries s({0.0, 0.5, 1.0}, {0.0, 1.0, 2.0});  // a = 2 t: v = t^2 from t = 0
  const auto disp = MakeSetDisplacement(*b, X, Vec3(0, 1, 0), s);
  EXPECT_TRUE(disp.has_displacement);
  EXPECT_EQ(disp.velocity(0.5), 0.0);
  EXPECT_EQ(disp.displacement.Value(0.5), 1.0);
  const auto acc = MakeSetAcceleration(*b, X, Vec3(0, 1, 0), s);
  EXPECT_NEAR(acc.velocity(0.5), 0.25, 1e-15);  // trapezoids: exact for a linear a
  EXPECT_NEAR(acc.velocity(1.0), 1.0, 1e-15);
}

TEST(UserConstraints, RigidLinksMoveBody2AndGlueCoincidentPoints) {
  auto a = Cube(Vec3(0, 0, 0)), b = Cube(Vec3(1, 0, 0));
  const Vec3 Xa(0.1, 0, 0), Xb(0.9, 0, 0);
  const auto link = MakeRigidLink(a.get(), Xa, b.get(), Xb, 1e-9, 7.0);
  EXPECT_EQ(link.body1, a.get());
  EXPECT_EQ(link.body2, b.get());
  const Vec3 xa = a->SpatialPoint(Xa), xb = b->SpatialPoint(Xb);
  EXPECT_NEAR(link.length, (xb - xa).norm(), 1e-15);
  EXPECT_LT((link.base.col(2) - (xb - xa).normalized()).norm(), 1e-15);
  EXPECT_EQ(link.strength, 7.0);
  // body2 None: body1 becomes body2 and point2 the anchor in space
  const Vec3 anchor(3, 2, 1);
  const auto one = MakeRigidLink(a.get(), Xa, nullptr, anchor, 1e-9);
  EXPECT_EQ(one.body1, nullptr);
  EXPECT_EQ(one.body2, a.get());
  EXPECT_EQ(one.X2, Xa);
  EXPECT_EQ(one.X_origin, anchor);
  EXPECT_NEAR(one.length, (xa - anchor).norm(), 1e-15);
  const auto other = MakeRigidLink(nullptr, anchor, b.get(), Xb, 1e-9);
  EXPECT_EQ(other.body2, b.get());
  EXPECT_EQ(other.X_origin, anchor);
  // coincident given points: a glue of length 0
  EXPECT_EQ(MakeRigidLink(a.get(), Xa, b.get(), Xa, 1e-9).length, 0.0);
}

}  // namespace
}  // namespace solfec::domain
