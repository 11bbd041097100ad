// SICONOS_SOLVER (Siconos numerics' NSGS on our block problems): the stack of masses with its
// analytic static reactions (also with redundant contact points), random contact networks
// against GAUSS_SEIDEL_SOLVER, restitution, cohesion, refused bilateral rows and the build
// without Siconos.
#include "solvers/siconos_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "base/errors.h"
#include "solvers/gauss_seidel_solver.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

using testing::Contact;
using testing::CoupledBlock;
using testing::SingleRow;

SiconosSolver Tight() {
  SiconosSolver s;
  SiconosOptions o;
  o.epsilon = 1e-13;
  o.maxiter = 100000;
  s.set_options(o);
  return s;
}

TEST(SiconosSolver, WithoutSiconosSolveNamesThePackage) {
  if (SiconosAvailable()) GTEST_SKIP() << "this build links Siconos";
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.0, 0.0, -1.0), Contact(0.5));
  SiconosSolver s;
  try {
    s.Solve(p);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("libsiconos-numerics-dev"), std::string::npos);
  }
}

TEST(SiconosSolver, OptionsAreChecked) {
  SiconosSolver s;
  SiconosOptions o;
  o.epsilon = 0.0;
  EXPECT_THROW(s.set_options(o), InputError);
  o.epsilon = 1e-4;
  o.maxiter = 0;
  EXPECT_THROW(s.set_options(o), InputError);
}

// A column of 6 masses on a floor, with 1 and with 4 coincident points per interface (W of
// rank 3n of 12n: the split among the points is not unique, their sum is): every interface
// carries g h times the mass above it.
TEST(SiconosSolver, StackCarriesTheMassesAbove) {
  if (!SiconosAvailable()) GTEST_SKIP() << "no Siconos";
  for (int points : {1, 4}) {
    testing::Stack st = testing::MakeRedundantStack(6, points, 0.5, 7u);
    SiconosSolver s = Tight();
    const SolverStats stats = s.Solve(st.problem);
    ASSERT_TRUE(stats.converged) << points;
    EXPECT_EQ(stats.error, "OK");
    for (int k = 0; k < 6; ++k) {
      double RN = 0.0;
      for (int i = 0; i < points; ++i) RN += st.problem.R[k * points + i].z();
      EXPECT_NEAR(RN, st.expected_RN[k], 1e-9 * st.expected_RN[0]) << points << " " << k;
    }
    for (const Vec3& U : st.problem.U) EXPECT_LT(U.norm(), 1e-9);
  }
}

// Random networks: Siconos and Gauss-Seidel (both to ~1e-12) find the same velocities U
// (unique for this Coulomb problem in practice; R is unique here too: no redundant rows).
TEST(SiconosSolver, RandomNetworksAgreeWithGaussSeidel) {
  if (!SiconosAvailable()) GTEST_SKIP() << "no Siconos";
  for (unsigned seed : {1u, 2u, 3u}) {
    BlockProblem a = testing::MakeRandomNetwork(30, 25, seed);
    BlockProblem b = a;
    SiconosSolver s = Tight();
    const SolverStats sa = s.Solve(a);
    GaussSeidelOptions o;
    o.epsilon = 1e-13;
    o.meritval = 1e-26;
    o.maxiter = 100000;
    GaussSeidelSolver gs(o);
    gs.Solve(b);
    ASSERT_TRUE(sa.converged) << seed;
    EXPECT_LT(sa.merit, 1e-18) << seed;
    double scale = 0.0;
    for (const Vec3& B : a.B) scale = std::max(scale, B.norm());
    for (int i = 0; i < a.size(); ++i) {
      EXPECT_LT((a.U[i] - b.U[i]).norm(), 1e-8 * scale) << seed << " " << i;
      EXPECT_LT((a.R[i] - b.R[i]).norm(), 1e-6 * (1.0 + b.R[i].norm())) << seed << " " << i;
    }
  }
}

// Restitution: U_N + eta min(0, U_N^t) >= 0, so an impact at U_N^t = -2 leaves at 2 eta.
TEST(SiconosSolver, RestitutionSetsTheOutgoingNormalVelocity) {
  if (!SiconosAvailable()) GTEST_SKIP() << "no Siconos";
  Law law = Contact(0.3);
  law.restitution = 0.5;
  law.UN_prev = -2.0;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.0, 0.0, -2.0), law);
  SiconosSolver s = Tight();
  s.Solve(p);
  EXPECT_NEAR(p.U[0].z(), 1.0, 1e-10);
  EXPECT_GT(p.R[0].z(), 0.0);
}

// Cohesion: a pull below the bond holds (R_N < 0, U = 0); a pull beyond it breaks the bond
// and the contact separates with R = 0.
TEST(SiconosSolver, CohesionHoldsThenBreaks) {
  if (!SiconosAvailable()) GTEST_SKIP() << "no Siconos";
  const Mat3 W = Vec3(1.0, 1.0, 2.0).asDiagonal();
  Law law = Contact(0.5);
  law.cohesion = 1.0;
  law.cohesive = true;
  BlockProblem hold = SingleRow(W, Vec3(0.0, 0.0, 1.0), law);  // needs R_N = -0.5 to hold
  SiconosSolver s = Tight();
  s.Solve(hold);
  EXPECT_NEAR(hold.R[0].z(), -0.5, 1e-12);
  EXPECT_LT(hold.U[0].norm(), 1e-12);
  EXPECT_TRUE(hold.laws[0].cohesive);
  BlockProblem pull = SingleRow(W, Vec3(0.0, 0.0, 3.0), law);  // would need R_N = -1.5
  s.Solve(pull);
  EXPECT_FALSE(pull.laws[0].cohesive);
  EXPECT_LT(pull.R[0].norm(), 1e-12);
  EXPECT_NEAR(pull.U[0].z(), 3.0, 1e-12);
}

TEST(SiconosSolver, BilateralRowsAreRefused) {
  if (!SiconosAvailable()) GTEST_SKIP() << "no Siconos";
  Law fix;
  fix.kind = LawKind::kEquality;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.0, 0.0, -1.0), fix);
  SiconosSolver s;
  try {
    s.Solve(p);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("SICONOS_SOLVER: constraint row 0 is an equality"),
              std::string::npos)
        << e.what();
  }
}

TEST(SiconosSolver, EmptyProblemConverges) {
  BlockProblem p;
  SiconosSolver s;
  if (!SiconosAvailable()) GTEST_SKIP() << "no Siconos";
  EXPECT_TRUE(s.Solve(p).converged);
}

}  // namespace
}  // namespace solfec::solvers
