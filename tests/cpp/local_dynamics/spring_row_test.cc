// PUT_SPRING rows: axis orientation, implicit-midpoint force and slope of the kSpring law.
#include <gtest/gtest.h>

#include "base/errors.h"
#include "body/body_factory.h"
#include "domain/springs.h"
#include "local_dynamics/local_dynamics.h"

namespace solfec::local_dynamics {
namespace {

std::unique_ptr<body::Body> UnitBox() {  // rigid, mass 1000 kg, centre (0.5, 0.5, 0.5)
  geometry::Convex c;
  c.vertices = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  c.faces = {{{0, 3, 2, 1}, 1}, {{0, 1, 5, 4}, 1}, {{1, 2, 6, 5}, 1},
             {{2, 3, 7, 6}, 1}, {{3, 0, 4, 7}, 1}, {{4, 5, 6, 7}, 1}};
  geometry::Shape s;
  s.convexes.push_back(c);
  material::BulkMaterial m;
  m.density = 1000.0;
  auto b = body::MakeBody(body::BodyKind::kRigid, s, m, "");
  b->set_id(0);
  b->mutable_u() = VecX::Zero(6);
  b->mutable_u().tail<3>() = Vec3(0, 0, -0.2);  // moving down at 0.2 m/s (u = [omega, v])
  b->u_free() = VecX::Zero(6);
  b->u_free().tail<3>() = Vec3(0, 0, -0.3);
  b->impulse() = VecX::Zero(6);
  return b;
}

constexpr double kK = 2000.0, kC = 30.0, kH = 0.01;
double Linear(double s, double v) { return -kK * s - kC * v; }

solvers::Law AssembleOne(contact::Constraint& c, solvers::BlockProblem& P) {
  LocalDynamics ld;
  ld.Assemble({&c}, 0.0, kH, P);
  return P.laws[0];
}

TEST(SpringRow, LinearSpringGetsImplicitMidpointForceAndSlope) {
  auto b = UnitBox();
  const Vec3 centre(0.5, 0.5, 0.5), anchor(0.5, 0.5, 1.5);
  contact::Constraint c = domain::MakeSpring(nullptr, anchor, b.get(), centre, Linear,
                                             std::nullopt, contact::SpringUpdate::kFixed);
  EXPECT_EQ(c.kind, contact::ConstraintKind::kSpring);
  EXPECT_DOUBLE_EQ(c.spring_length0, 1.0);
  // axis from the anchor (point 1) to the body (point 2): -z; moving down = extending
  EXPECT_TRUE(c.base.col(2).isApprox(Vec3(0, 0, -1), 1e-15));
  c.stroke = 0.01;
  solvers::BlockProblem P;
  const solvers::Law law = AssembleOne(c, P);
  EXPECT_EQ(law.kind, solvers::LawKind::kSpring);
  EXPECT_NEAR(P.B[0].z(), 0.3, 1e-15);     // free stroke velocity
  EXPECT_NEAR(c.U_prev.z(), 0.2, 1e-15);   // stroke velocity at t
  const double s = 0.01 + kH / 4 * (0.3 - 0.2), v = 0.5 * (0.3 + 0.2);
  // f is linear, so the central differences are exact up to round-off (1e-9 relative)
  EXPECT_NEAR(law.spring_force, Linear(s, v), 1e-9 * kK);
  EXPECT_NEAR(law.spring_slope, -(kK * kH / 4 + kC / 2), 1e-6 * kK * kH);
  EXPECT_DOUBLE_EQ(law.spring_U0, 0.3);
}

TEST(SpringRow, SpringOnBody1WithFixedPoint2HasTheSameRowMirrored) {
  auto b = UnitBox();
  const Vec3 centre(0.5, 0.5, 0.5), anchor(0.5, 0.5, 1.5);
  contact::Constraint c = domain::MakeSpring(b.get(), centre, nullptr, anchor, Linear,
                                             std::nullopt, contact::SpringUpdate::kFixed);
  // axis 1 -> 2 is +z, stored flipped (one-body rows act + on body1): U_N = d stroke / dt
  EXPECT_TRUE(c.base.col(2).isApprox(Vec3(0, 0, -1), 1e-15));
  c.stroke = 0.01;
  solvers::BlockProblem P;
  const solvers::Law law = AssembleOne(c, P);
  EXPECT_NEAR(P.B[0].z(), 0.3, 1e-15);
  EXPECT_NEAR(law.spring_force, Linear(0.01 + kH / 4 * 0.1, 0.25), 1e-9 * kK);
  EXPECT_NEAR(law.spring_slope, -(kK * kH / 4 + kC / 2), 1e-6 * kK * kH);
}

TEST(SpringRow, QuasiStaticRowActsAtTheEndStrokeLinearisedAtZeroIncrement) {
  auto b = UnitBox();
  contact::Constraint c = domain::MakeSpring(nullptr, Vec3(0.5, 0.5, 1.5), b.get(),
                                             Vec3(0.5, 0.5, 0.5), Linear, std::nullopt,
                                             contact::SpringUpdate::kFixed);
  domain::UpdateSpring(c, /*quasi_static=*/true);
  c.stroke = 0.01;
  solvers::BlockProblem P;
  const solvers::Law law = AssembleOne(c, P);
  // R_N = f(s + h U_N, U_N) ~ f(s, 0) + (h k_s + c_v) U_N: exact for a linear f
  EXPECT_EQ(law.spring_U0, 0.0);
  EXPECT_NEAR(law.spring_force, Linear(0.01, 0.0), 1e-9 * kK);
  EXPECT_NEAR(law.spring_slope, -(kK * kH + kC), 1e-6 * kK * kH);
}

TEST(SpringRow, UnstableFunctionIsAppliedExplicitly) {
  auto b = UnitBox();
  contact::Constraint c = domain::MakeSpring(
      nullptr, Vec3(0.5, 0.5, 1.5), b.get(), Vec3(0.5, 0.5, 0.5),
      [](double s, double) { return 1e3 * s; }, std::nullopt, contact::SpringUpdate::kFixed);
  solvers::BlockProblem P;
  EXPECT_EQ(AssembleOne(c, P).spring_slope, 0.0);  // a positive slope is dropped
}

TEST(SpringRow, BadSpringsAreRejected) {
  auto b = UnitBox();
  const Vec3 p(0.5, 0.5, 0.5);
  using contact::SpringUpdate;
  EXPECT_THROW(domain::MakeSpring(nullptr, p, nullptr, p, Linear, std::nullopt,
                                  SpringUpdate::kFixed), InputError);
  // Coincident points (Solfec-1.0): rest length 0, axis (0, 0, 1) (flipped: one-body spring)
  const contact::Constraint z =
      domain::MakeSpring(b.get(), p, nullptr, p, Linear, std::nullopt, SpringUpdate::kFixed);
  EXPECT_EQ(z.spring_length0, 0.0);
  EXPECT_EQ(std::abs(z.base(2, 2)), 1.0);
  EXPECT_THROW(domain::MakeSpring(nullptr, p, b.get(), p, Linear, Vec3(1, 0, 0),
                                  SpringUpdate::kConvected1), InputError);  // body1 is None
  contact::Constraint c = domain::MakeSpring(
      nullptr, Vec3(0, 0, 0), b.get(), p, [](double, double) { return std::nan(""); },
      std::nullopt, SpringUpdate::kFixed);
  solvers::BlockProblem P;
  EXPECT_THROW(AssembleOne(c, P), InputError);
}

}  // namespace
}  // namespace solfec::local_dynamics
