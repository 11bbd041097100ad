// NEWTON_SOLVER against closed-form single contacts, equality laws, the stack of masses with
// analytic reactions, random networks compared with Gauss-Seidel, and its failure handling.
#include "solvers/newton_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "base/errors.h"
#include "solvers/friction_cone.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/merit.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

using testing::Contact;
using testing::CoupledBlock;
using testing::SingleRow;

NewtonOptions Tight() {
  NewtonOptions o;
  o.meritval = 1e-24;  // g ~ |C|^2: 1e-24 means residual velocities ~1e-12 relative
  o.maxiter = 200;
  return o;
}

SolverStats SolveWith(BlockProblem& p, const NewtonOptions& o = Tight()) {
  NewtonSolver s(o);
  return s.Solve(p);
}

// Converged to g <= 1e-24 on O(1) data: velocities and reactions within ~1e-11.
constexpr double kTol = 1e-10;

TEST(NewtonSolver, SingleContactSeparatesWhenNormalFreeVelocityIsPositive) {
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.3, -0.2, 0.5), Contact(0.5));
  p.R = {Vec3(1.0, 1.0, 1.0)};  // a wrong warm start
  const SolverStats s = SolveWith(p);
  EXPECT_TRUE(s.converged);
  EXPECT_EQ(s.error, "OK");
  EXPECT_LT(p.R[0].norm(), kTol);
  EXPECT_LT((p.U[0] - p.B[0]).norm(), kTol);
  EXPECT_LE(s.merit, 1e-24);
}

TEST(NewtonSolver, SingleContactSticksBelowFrictionCone) {
  const Mat3 W = CoupledBlock();
  const Vec3 B(0.05, -0.02, -1.0);
  BlockProblem p = SingleRow(W, B, Contact(0.8));
  const SolverStats s = SolveWith(p);
  EXPECT_TRUE(s.converged);
  EXPECT_LT(p.U[0].norm(), kTol);
  EXPECT_LT((p.R[0] + W.inverse() * B).norm(), kTol);
  EXPECT_LT(TangentNorm(p.R[0]), 0.8 * p.R[0].z());
}

TEST(NewtonSolver, SingleContactSlidesOnConeBoundaryAgainstSlip) {
  const double mu = 0.3;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(2.0, 1.0, -1.0), Contact(mu));
  const SolverStats s = SolveWith(p);
  EXPECT_TRUE(s.converged);
  const Vec3 R = p.R[0], U = p.U[0];
  EXPECT_NEAR(TangentNorm(R), mu * R.z(), kTol);
  EXPECT_NEAR(U.z(), 0.0, kTol);
  EXPECT_GT(TangentNorm(U), 0.1);
  const double cosine = (U.x() * R.x() + U.y() * R.y()) / (TangentNorm(U) * TangentNorm(R));
  EXPECT_NEAR(cosine, -1.0, kTol);
  // The same root as Gauss-Seidel's closed-form-backed diagonal solver.
  BlockProblem q = SingleRow(CoupledBlock(), Vec3(2.0, 1.0, -1.0), Contact(mu));
  GaussSeidelOptions g;
  g.meritval = 1e-26;
  g.epsilon = 1e-14;
  g.diagepsilon = 1e-15;
  GaussSeidelSolver(g).Solve(q);
  EXPECT_LT((q.R[0] - R).norm(), kTol);
}

TEST(NewtonSolver, RestitutionOneReversesNormalVelocity) {
  const double v = 2.0;
  Law law = Contact(1.0);
  law.restitution = 1.0;
  law.UN_prev = -v;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.0, 0.0, -v), law);
  SolveWith(p);
  EXPECT_LT((p.U[0] - Vec3(0.0, 0.0, v)).norm(), kTol);
  EXPECT_GT(p.R[0].z(), 0.0);
}

TEST(NewtonSolver, CohesionHoldsSmallTensionAndBreaksUnderLargeTension) {
  const Mat3 W = CoupledBlock();
  Law law = Contact(0.5);
  law.cohesion = 2.0;
  law.cohesive = true;
  BlockProblem held = SingleRow(W, Vec3(0.01, 0.0, 0.2), law);
  SolveWith(held);
  EXPECT_TRUE(held.laws[0].cohesive);
  EXPECT_LT(held.R[0].z(), 0.0);
  EXPECT_GT(held.R[0].z(), -law.cohesion);
  EXPECT_LT(held.U[0].norm(), kTol);
  BlockProblem broken = SingleRow(W, Vec3(0.0, 0.0, 5.0), law);
  const SolverStats s = SolveWith(broken);
  EXPECT_FALSE(broken.laws[0].cohesive);
  EXPECT_LT(broken.R[0].norm(), kTol);
  EXPECT_EQ(s.error, "OK");
}

TEST(NewtonSolver, EqualityLawsAreSolvedExactly) {
  const Mat3 W = CoupledBlock();
  Law eq;
  eq.kind = LawKind::kEquality;
  eq.target = Vec3(1.0, -2.0, 0.5);
  BlockProblem p = SingleRow(W, Vec3(0.3, 0.3, 0.3), eq);
  SolveWith(p);
  EXPECT_LT((p.U[0] - eq.target).norm(), kTol);
  Law normal;
  normal.kind = LawKind::kNormalEquality;
  normal.target = Vec3(0.0, 0.0, -0.4);
  BlockProblem q = SingleRow(W, Vec3(0.3, 0.3, 0.3), normal);
  SolveWith(q);
  EXPECT_NEAR(q.U[0].z(), -0.4, kTol);
  EXPECT_LT(std::abs(q.R[0].x()) + std::abs(q.R[0].y()), kTol);
}

// Stack of 10 masses (seed 11): R_k = g h sum_{j >= k} m_j; Newton needs few iterations
// where Gauss-Seidel needs hundreds of sweeps (contraction ~0.98).
TEST(NewtonSolver, StackOfMassesConvergesToAnalyticStaticReactions) {
  testing::Stack stack = testing::MakeStack(10, 0.5, 11);
  const SolverStats s = SolveWith(stack.problem);
  EXPECT_TRUE(s.converged);
  EXPECT_LT(s.iters, 50);
  ASSERT_EQ(static_cast<int>(s.merhist.size()), s.iters);
  for (int k = 0; k < 10; ++k) {
    const Vec3& R = stack.problem.R[k];
    EXPECT_NEAR(R.z(), stack.expected_RN[k], 1e-9 * stack.expected_RN[0]) << k;
    EXPECT_LT(TangentNorm(R), 1e-9 * stack.expected_RN[0]) << k;
  }
}

// Random networks (25 contacts on 30 masses): Newton meets the requested merit and agrees
// with a tightly converged Gauss-Seidel. Both solve to g <= 1e-20 (velocity residuals
// ~1e-10 |B|); W is well conditioned (masses O(1)), so reactions agree to ~1e-7 |R|.
TEST(NewtonSolver, RandomNetworkAgreesWithGaussSeidel) {
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    BlockProblem p = testing::MakeRandomNetwork(30, 25, seed);
    BlockProblem q = p;
    NewtonOptions o = Tight();
    o.meritval = 1e-20;
    NewtonSolver newton(o);
    const SolverStats s = newton.Solve(p);
    ASSERT_EQ(s.error, "OK") << seed;
    EXPECT_FALSE(newton.fell_back()) << seed;
    EXPECT_LE(s.merit, 1e-20) << seed;
    GaussSeidelOptions g;
    g.meritval = 1e-22;
    g.epsilon = 1e-14;
    g.maxiter = 20000;
    g.diagepsilon = 1e-14;
    ASSERT_EQ(GaussSeidelSolver(g).Solve(q).error, "OK") << seed;
    double scale = 0.0;
    for (const Vec3& R : q.R) scale = std::max(scale, R.norm());
    for (int a = 0; a < p.size(); ++a)
      EXPECT_LT((p.R[a] - q.R[a]).norm(), 1e-6 * scale) << seed << " row " << a;
  }
}

// Four coincident contact points per interface (W of rank 15 for 60 unknowns, as the
// redundant points of FE contact patches give), solved with the proximal term on. Every
// point's normal is z, so the points of interface k carry together R_N = g h (masses above)
// and each reaction lies in its cone; converged to g <= 1e-20, i.e. velocity residuals
// ~1e-10 |B|, so the sums hold to ~1e-8 relative.
TEST(NewtonSolver, RedundantContactPointsConvergeWithTheProximalTerm) {
  for (unsigned seed : {3u, 7u}) {
    testing::Stack stack = testing::MakeRedundantStack(5, 4, 0.5, seed);
    NewtonOptions o = Tight();
    o.meritval = 1e-20;
    o.gsflag = false;
    o.proximal = 0.1;
    NewtonSolver newton(o);
    const SolverStats s = newton.Solve(stack.problem);
    ASSERT_EQ(s.error, "OK") << seed;
    EXPECT_LT(s.iters, 60) << seed;
    for (int k = 0; k < 5; ++k) {
      double RN = 0.0;
      for (int j = 0; j < 4; ++j) {
        const Vec3& R = stack.problem.R[4 * k + j];
        RN += R.z();
        EXPECT_LE(TangentNorm(R), 0.5 * R.z() + 1e-9 * stack.expected_RN[0]) << seed;
      }
      EXPECT_NEAR(RN, stack.expected_RN[k], 1e-8 * stack.expected_RN[0]) << seed << " " << k;
    }
  }
}

TEST(NewtonSolver, MeritHistoryEndsWithTheFinalMerit) {
  BlockProblem p = testing::MakeRandomNetwork(10, 8, 4);
  NewtonOptions o;
  o.meritval = 1e-12;
  const SolverStats s = SolveWith(p, o);
  ASSERT_FALSE(s.merhist.empty());
  EXPECT_DOUBLE_EQ(s.merhist.back(), s.merit);
  EXPECT_LE(s.merit, 1e-12);
  EXPECT_NEAR(ComputeMerit(p), s.merit, 1e-12 * s.merit + 1e-300);
}

// One Newton iteration cannot reach 1e-30 on the stack: with gsflag off the error is
// reported; with gsflag on Gauss-Seidel continues from the Newton iterate and converges.
TEST(NewtonSolver, FallsBackToGaussSeidelWhenMaxiterIsReached) {
  testing::Stack a = testing::MakeStack(4, 0.5, 3);
  NewtonOptions o;
  o.maxiter = 1;
  o.meritval = 1e-30;
  o.gsflag = false;
  NewtonSolver plain(o);
  const SolverStats s = plain.Solve(a.problem);
  EXPECT_EQ(s.error, "DIVERGED");
  EXPECT_FALSE(plain.fell_back());
  EXPECT_NE(s.message.find("NEWTON_SOLVER"), std::string::npos);
  testing::Stack b = testing::MakeStack(4, 0.5, 3);
  o.gsflag = true;
  o.meritval = 1e-16;
  o.maxiter = 1;
  NewtonSolver fallback(o);
  const SolverStats t = fallback.Solve(b.problem);
  EXPECT_TRUE(fallback.fell_back());
  EXPECT_NE(t.message.find("GAUSS_SEIDEL_SOLVER"), std::string::npos);
  EXPECT_EQ(t.error, "OK");
  EXPECT_LE(t.merit, 1e-16);
  EXPECT_EQ(t.iters, static_cast<int>(t.merhist.size()));  // 1 Newton + the GS sweeps
}

TEST(NewtonSolver, SpringDashpotContactsAreRejected) {
  Law law = Contact(0.5);
  law.spring_dashpot = true;
  law.spring = 1e6;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.0, 0.0, -1.0), law);
  EXPECT_THROW(SolveWith(p), InputError);
}

// The residual option stops on Siconos' error measure (RelativeResidual) of the iterate:
// random networks with meritval out of reach (1e-30); at residual 1e-6 the final iterate
// meets it, earlier than at 1e-12, and the result agrees with the tight solve to the
// accuracy the bound implies (|R - R*| <~ 1e-6 scale times a conditioning factor: 1e-3).
TEST(NewtonSolver, ResidualOptionStopsAtTheNaturalMapResidual) {
  for (unsigned seed : {1u, 2u, 3u}) {
    BlockProblem loose = testing::MakeRandomNetwork(30, 25, seed);
    BlockProblem tight = loose;
    NewtonOptions o = Tight();
    o.meritval = 1e-30;
    o.gsflag = false;
    o.residual = 1e-6;
    const SolverStats s1 = NewtonSolver(o).Solve(loose);
    ASSERT_EQ(s1.error, "OK") << seed;
    EXPECT_LE(RelativeResidual(loose), 1e-6) << seed;
    EXPECT_GT(s1.merit, 1e-30) << seed;  // stopped by the residual, not the merit
    o.residual = 1e-12;
    const SolverStats s2 = NewtonSolver(o).Solve(tight);
    ASSERT_EQ(s2.error, "OK") << seed;
    EXPECT_LE(RelativeResidual(tight), 1e-12) << seed;
    EXPECT_LT(s1.iters, s2.iters) << seed;
    double scale = 0.0;
    for (const Vec3& R : tight.R) scale = std::max(scale, R.norm());
    for (int a = 0; a < loose.size(); ++a)
      EXPECT_LT((loose.R[a] - tight.R[a]).norm(), 1e-3 * scale) << seed << " row " << a;
  }
}

TEST(NewtonSolver, InvalidOptionsNameTheArgument) {
  NewtonOptions o;
  o.resdec = 1.5;
  try {
    NewtonSolver s(o);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'epsilon'"), std::string::npos);
  }
  o = NewtonOptions();
  o.linmaxiter = 0;
  EXPECT_THROW(NewtonSolver{o}, InputError);
  o = NewtonOptions();
  o.proximal = -1.0;
  EXPECT_THROW(NewtonSolver{o}, InputError);
  o = NewtonOptions();
  o.residual = -1e-6;
  try {
    NewtonSolver s(o);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'residual'"), std::string::npos);
  }
}

TEST(NewtonSolver, DefaultsFollowSolfec1) {
  const NewtonOptions o;
  EXPECT_EQ(o.meritval, 1e-8);
  EXPECT_EQ(o.maxiter, 1000);
  EXPECT_EQ(o.linmaxiter, 10);
  EXPECT_EQ(o.resdec, 0.25);
  EXPECT_EQ(o.delta, 0.0);
  EXPECT_EQ(o.nonmonlength, 5);
  EXPECT_TRUE(o.gsflag);
  EXPECT_EQ(o.proximal, 0.0);  // extension off: Solfec-1.0's Newton
}

}  // namespace
}  // namespace solfec::solvers
