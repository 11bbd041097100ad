// PENALTY_SOLVER: the spring-dashpot law of Algorithm 7.1 against hand-computed values, the
// implicit scheme's energy behaviour on a point mass, and the bilateral Gauss-Seidel part.
#include "solvers/penalty_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "base/errors.h"

namespace solfec::solvers {
namespace {

constexpr double kH = 1e-3;     // step [s]
constexpr double kMass = 10.0;  // point mass [kg]: W = h/m I

// One contact row of a point mass: W = h/m I.
BlockProblem OneContact(const Law& law, const Vec3& B) {
  BlockProblem p;
  p.Resize(1);
  p.step = kH;
  p.row_ptr = {0, 1};
  p.col = {0};
  p.W = {Mat3::Identity() * (kH / kMass)};
  p.B = {B};
  p.laws = {law};
  return p;
}

Law Contact(double spring, double dashpot, double gap, double UN_prev) {
  Law law;
  law.spring = spring;
  law.dashpot = dashpot;
  law.gap = gap;
  law.UN_prev = UN_prev;
  return law;
}

TEST(PenaltySolver, ImplicitNormalForceIsEq714) {
  const double s = 1e6, d = 50.0, g = -1e-3, V = -2.0, BN = -1.5;
  BlockProblem p = OneContact(Contact(s, d, g, V), Vec3(0, 0, BN));
  PenaltySolver solver(PenaltyVariant::kImplicit);
  solver.Solve(p);
  const double w = kH / kMass;
  const double expected =
      (-s * (g + 0.25 * kH * (BN - V)) - 0.5 * d * (BN + V)) / (1.0 + (s * kH / 4 + d / 2) * w);
  // Same formula, different operation order: a few ulps.
  EXPECT_NEAR(p.R[0].z(), expected, 1e-12 * std::abs(expected));
  EXPECT_EQ(p.R[0].x(), 0.0);
  EXPECT_NEAR(p.U[0].z(), BN + w * expected, 1e-12);
}

TEST(PenaltySolver, ExplicitNormalForceIsMinusSpringGapMinusDashpotVelocity) {
  BlockProblem p = OneContact(Contact(1e6, 50.0, -1e-3, -2.0), Vec3(0, 0, -1.5));
  PenaltySolver solver(PenaltyVariant::kExplicit);
  solver.Solve(p);
  EXPECT_NEAR(p.R[0].z(), 1e6 * 1e-3 + 50.0 * 2.0, 1e-9);  // 1100 N
}

TEST(PenaltySolver, HertzExponentGivesSpringTimesGapToThePower) {
  Law law = Contact(1e8, 0.0, -1e-4, 0.0);
  law.hpow = 1.5;
  BlockProblem p = OneContact(law, Vec3::Zero());
  PenaltySolver(PenaltyVariant::kExplicit).Solve(p);
  EXPECT_NEAR(p.R[0].z(), 1e8 * std::pow(1e-4, 1.5), 1e-9);  // 100 N
}

TEST(PenaltySolver, SeparatingContactWithoutCohesionHasNoReaction) {
  // Barely overlapping and moving apart fast: spring 1 N, dashpot -d U = -500 N, so the
  // implicit force comes out tensile -> R = 0.
  BlockProblem p = OneContact(Contact(1e6, 100.0, -1e-6, 5.0), Vec3(0, 0, 5.0));
  p.R = {Vec3(1, 2, 3)};
  PenaltySolver(PenaltyVariant::kImplicit).Solve(p);
  EXPECT_EQ(p.R[0], Vec3::Zero());
}

TEST(PenaltySolver, CohesionHoldsTensionUntilExceeded) {
  // Explicit: R_N = -s g = -50 N against a cohesive bound of 100 N: held.
  Law law = Contact(1e6, 0.0, 5e-5, 0.0);
  law.cohesive = true;
  law.cohesion = 100.0;
  BlockProblem p = OneContact(law, Vec3::Zero());
  PenaltySolver solver(PenaltyVariant::kExplicit);
  solver.Solve(p);
  EXPECT_NEAR(p.R[0].z(), -50.0, 1e-9);
  EXPECT_TRUE(p.laws[0].cohesive);
  // -s g = -150 N exceeds it: a single pass of Alg. 7.1 breaks the bond at -cohesion ...
  p.laws[0].gap = 1.5e-4;
  PenaltySolver single(PenaltyVariant::kExplicit);
  single.set_sweeps(1e-8, 1);
  single.Solve(p);
  EXPECT_NEAR(p.R[0].z(), -100.0, 1e-9);
  EXPECT_FALSE(p.laws[0].cohesive);
  // ... and the next pass (or step) sees a plain contact in tension: R = 0.
  single.Solve(p);
  EXPECT_EQ(p.R[0], Vec3::Zero());
  p.laws[0].cohesive = true;
  solver.Solve(p);  // the sweeps do both within one solve
  EXPECT_EQ(p.R[0], Vec3::Zero());
  EXPECT_FALSE(p.laws[0].cohesive);
}

TEST(PenaltySolver, StickingTangentialReactionStopsSlip) {
  Law law = Contact(1e6, 0.0, -1e-3, 0.0);
  law.friction = 0.5;
  BlockProblem p = OneContact(law, Vec3(1e-3, 0.0, 0.0));
  PenaltySolver(PenaltyVariant::kExplicit).Solve(p);  // R_N = 1000 N, stick needs 10 N
  EXPECT_NEAR(p.R[0].x(), -1e-3 * kMass / kH, 1e-9);
  EXPECT_NEAR(p.U[0].x(), 0.0, 1e-15);
}

TEST(PenaltySolver, SlidingTangentialReactionLiesOnTheCone) {
  Law law = Contact(1e6, 0.0, -1e-3, 0.0);
  law.friction = 0.5;
  BlockProblem p = OneContact(law, Vec3(3.0, 4.0, 0.0));
  PenaltySolver(PenaltyVariant::kExplicit).Solve(p);
  // |R_T| = mu R_N = 500 N, opposite to the slip direction (0.6, 0.8).
  EXPECT_NEAR(p.R[0].x(), -300.0, 1e-9);
  EXPECT_NEAR(p.R[0].y(), -400.0, 1e-9);
}

TEST(PenaltySolver, ZeroSpringThrowsNamingSurfaceMaterialSpring) {
  BlockProblem p = OneContact(Contact(0.0, 0.0, -1e-3, 0.0), Vec3::Zero());
  try {
    PenaltySolver().Solve(p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("SURFACE_MATERIAL"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'spring'"), std::string::npos) << msg;
  }
}

// Integrates a point mass on a contact spring the way the time step does: g(t+h/2) =
// g(t) + h/2 U(t), U(t+h) = B + W R, g(t+h) = g(t+h/2) + h/2 U(t+h). The contact is kept
// (cohesive, huge cohesion) so the spring acts in tension too.
struct Oscillator {
  double g, U;
  double Energy(double s) const { return 0.5 * kMass * U * U + 0.5 * s * g * g; }
  void Step(PenaltySolver& solver, Law law) {
    law.gap = g + 0.5 * kH * U;
    law.UN_prev = U;
    law.cohesive = true;
    law.cohesion = 1e30;
    BlockProblem p = OneContact(law, Vec3(0, 0, U));
    solver.Solve(p);
    U = p.U[0].z();
    g = law.gap + 0.5 * kH * U;
  }
};

TEST(PenaltySolver, ImplicitSpringConservesEnergyOfTheMidpointRule) {
  // With d = 0, eq. 7.14 is the implicit midpoint rule on m U' = -s g, which conserves
  // 1/2 m U^2 + 1/2 s g^2 exactly: only round-off (1e-12 relative over 2000 steps).
  const double s = 1e7;  // period 2 pi sqrt(m/s) = 6.3 ms = 6.3 steps: coarse on purpose
  PenaltySolver solver(PenaltyVariant::kImplicit);
  Oscillator o{-1e-3, 0.0};
  const double E0 = o.Energy(s);
  for (int k = 0; k < 2000; ++k) o.Step(solver, Contact(s, 0.0, 0.0, 0.0));
  EXPECT_NEAR(o.Energy(s), E0, 1e-12 * E0);
}

TEST(PenaltySolver, CriticalDashpotIsTwoSqrtOfStiffnessTimesMass) {
  Mat3 W = Mat3::Identity() * (kH / kMass);
  EXPECT_NEAR(CriticalDashpot(1e6, W, kH), 2.0 * std::sqrt(1e6 * kMass), 1e-9);
  // dashpot < 0 uses it: explicit R_N = -s g - d_crit U_N^t.
  BlockProblem p = OneContact(Contact(1e6, -1.0, -1e-3, -0.1), Vec3::Zero());
  PenaltySolver(PenaltyVariant::kExplicit).Solve(p);
  EXPECT_NEAR(p.R[0].z(), 1e3 + 2.0 * std::sqrt(1e7) * 0.1, 1e-9);
}

TEST(PenaltySolver, CriticallyDampedContactReturnsWithoutOvershoot) {
  // A critically damped oscillator released from g0 < 0 at rest approaches g = 0 without
  // crossing it: x(t) = g0 (1 + w t) e^{-w t} < 0. Resolved steps (period 63 steps); the
  // midpoint rule keeps the sign (checked over 500 steps, |g| decays below 1e-6 |g0|).
  const double s = 1e5;
  PenaltySolver solver(PenaltyVariant::kImplicit);
  Oscillator o{-1e-3, 0.0};
  for (int k = 0; k < 500; ++k) {
    o.Step(solver, Contact(s, -1.0, 0.0, 0.0));
    ASSERT_LT(o.g, 0.0) << "overshoot at step " << k;
  }
  EXPECT_LT(std::abs(o.g), 1e-6 * 1e-3);
}

TEST(PenaltySolver, BilateralRowsSolvedWithContactReactionsFixed) {
  // Point mass with a contact (row 0) and a fixed point (row 1, U = 0): both rows see the
  // same mass, W_01 = W_10 = W_00 = h/m I. The contact force comes from the spring law alone
  // (R_0 = s |g| = 1000 N, explicit); the fixed point then cancels B + W R_0 exactly.
  BlockProblem p;
  p.Resize(2);
  p.step = kH;
  const Mat3 w = Mat3::Identity() * (kH / kMass);
  p.row_ptr = {0, 2, 4};
  p.col = {0, 1, 1, 0};
  p.W = {w, w, w, w};
  p.B = {Vec3(0, 0, -1.0), Vec3(0, 0, -1.0)};
  p.laws[0] = Contact(1e6, 0.0, -1e-3, -1.0);
  p.laws[1].kind = LawKind::kEquality;
  PenaltySolver solver(PenaltyVariant::kExplicit);
  const SolverStats stats = solver.Solve(p);
  EXPECT_TRUE(stats.converged);
  EXPECT_NEAR(p.R[0].z(), 1000.0, 1e-9);
  EXPECT_LT(p.U[1].norm(), 1e-9);  // GS epsilon 1e-9 on a 1x1 block system: exact
  EXPECT_NEAR(p.R[1].z(), -(-1.0 + 1e-4 * 1000.0) / 1e-4, 1e-6);  // = 9000 N
}

TEST(PenaltySolver, TwoContactsOnOneBodyShareTheStickingCorrection) {
  // Two contact points of one point mass (all four blocks h/m I): stopping a slip of 1 mm/s
  // needs a total R_T = -m U_T / h = -10 N. The manual's single pass would apply -10 N at
  // each point (reversing the slip); the sweeps converge to a total of -10 N and U_T = 0.
  BlockProblem p;
  p.Resize(2);
  p.step = kH;
  const Mat3 w = Mat3::Identity() * (kH / kMass);
  p.row_ptr = {0, 2, 4};
  p.col = {0, 1, 1, 0};
  p.W = {w, w, w, w};
  p.B = {Vec3(1e-3, 0, 0), Vec3(1e-3, 0, 0)};
  for (Law& law : p.laws) {
    law = Contact(1e6, 0.0, -1e-3, 0.0);
    law.friction = 0.5;
  }
  PenaltySolver solver(PenaltyVariant::kExplicit);
  const SolverStats stats = solver.Solve(p);
  EXPECT_TRUE(stats.converged);
  EXPECT_NEAR(p.R[0].x() + p.R[1].x(), -10.0, 1e-6);  // epsilon 1e-8 of |R| ~ 1e3
  EXPECT_NEAR(p.U[0].x(), 0.0, 1e-9);
  EXPECT_NEAR(p.R[0].z() + p.R[1].z(), 2000.0, 1e-9);
}

}  // namespace
}  // namespace solfec::solvers
