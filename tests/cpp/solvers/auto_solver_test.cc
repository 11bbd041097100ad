// AUTO_SOLVER: Newton stalls on redundant random networks and Gauss-Seidel finishes; on a
// tall stack (slow for Gauss-Seidel) Newton wins alone; winners and options are recorded.
#include "solvers/auto_solver.h"

#include <gtest/gtest.h>

#include <string>

#include "base/errors.h"
#include "solvers/merit.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

// 40 contacts on 10 point masses (120 rows, 30 dofs: W is highly rank-deficient) and
// friction 0.9: semismooth Newton alone stops in its line search at g ~ 4e-7 (seed 3)
// and ~1e-6 (20 masses, 80 contacts, seed 1); measured when this test was written.
BlockProblem Redundant(int bodies, int contacts, unsigned seed) {
  BlockProblem p = testing::MakeRandomNetwork(bodies, contacts, seed);
  for (Law& law : p.laws) law.friction = 0.9;
  return p;
}

TEST(AutoSolver, FinishesWithGaussSeidelWhereNewtonStalls) {
  for (auto [bodies, contacts, seed] : {std::tuple{10, 40, 3u}, std::tuple{20, 80, 1u}}) {
    BlockProblem p = Redundant(bodies, contacts, seed);
    BlockProblem q = p;
    NewtonOptions n;
    n.meritval = 1e-10;
    n.gsflag = false;
    n.smoothing = 0;  // Solfec-1.0's Newton
    BlockProblem q2 = q;
    const SolverStats alone = NewtonSolver(n).Solve(q);
    ASSERT_EQ(alone.error, "DIVERGED") << seed;  // the premise: Newton alone stalls
    // With its default Gauss-Seidel smoothing NEWTON_SOLVER itself converges there.
    n.smoothing = NewtonOptions{}.smoothing;
    const SolverStats smoothed = NewtonSolver(n).Solve(q2);
    EXPECT_EQ(smoothed.error, "OK") << seed;
    EXPECT_LE(smoothed.merit, 1e-10) << seed;
    AutoOptions o;
    o.meritval = 1e-10;
    o.maxiter = 2000;
    AutoSolver solver(o);
    const SolverStats s = solver.Solve(p);
    EXPECT_EQ(s.error, "OK") << seed;
    EXPECT_LE(s.merit, 1e-10) << seed;
    EXPECT_NEAR(ComputeMerit(p), s.merit, 1e-12 * s.merit) << seed;  // the returned R's merit
    EXPECT_GE(solver.switches(), 1) << seed;
    EXPECT_GT(solver.gs_iters(), 0) << seed;
    EXPECT_EQ(solver.newton_iters() + solver.gs_iters(), s.iters) << seed;
    EXPECT_EQ(static_cast<int>(s.merhist.size()), s.iters) << seed;
    ASSERT_EQ(solver.winner_history().size(), 1u);
    EXPECT_EQ(solver.winner_history()[0], s.winner);
  }
}

// A column of 80 masses: Gauss-Seidel needs ~400 sweeps (information travels one contact
// per sweep), Newton ~40 iterations; AUTO (Newton first) never hands over.
TEST(AutoSolver, NewtonFirstWinsOnATallStackWhereGaussSeidelIsSlow) {
  testing::Stack st = testing::MakeStack(80, 0.5, 1);
  BlockProblem q = st.problem;
  GaussSeidelOptions g;
  g.meritval = 1e-12;
  g.epsilon = 1e-14;
  g.maxiter = 5000;
  EXPECT_GT(GaussSeidelSolver(g).Solve(q).iters, 300);  // the premise: Gauss-Seidel is slow
  AutoOptions o;
  o.meritval = 1e-12;
  AutoSolver solver(o);
  const SolverStats s = solver.Solve(st.problem);
  EXPECT_EQ(s.winner, "NEWTON_SOLVER");
  EXPECT_EQ(solver.gs_iters(), 0);
  EXPECT_EQ(solver.switches(), 0);
  EXPECT_LT(s.iters, 80);
  // Analytic static reactions: g = 1e-12 bounds the velocity residual to ~1e-6 |B|, and the
  // chain's W has condition ~n^2 = 6400, so reactions are good to ~1e-4 of R_0 (seen 1.6e-5).
  for (int k = 0; k < 80; ++k)
    EXPECT_NEAR(st.problem.R[k].z(), st.expected_RN[k], 1e-4 * st.expected_RN[0]) << k;
}

// first = 'LAST' starts with the previous winner: after Gauss-Seidel won, the next solve of
// the same problem starts (and wins) with Gauss-Seidel without a Newton iteration.
TEST(AutoSolver, LastStartsWithThePreviousWinner) {
  AutoOptions o;
  o.meritval = 1e-10;
  o.maxiter = 2000;
  o.first = AutoOptions::First::kLast;
  AutoSolver solver(o);
  BlockProblem p = Redundant(10, 40, 3);
  BlockProblem again = p;
  ASSERT_EQ(solver.Solve(p).winner, "GAUSS_SEIDEL_SOLVER");
  const SolverStats s = solver.Solve(again);
  EXPECT_EQ(s.winner, "GAUSS_SEIDEL_SOLVER");
  EXPECT_EQ(solver.newton_iters(), 0);
  EXPECT_EQ(solver.winner_history().size(), 2u);
}

TEST(AutoSolver, MaxiterEndsWithDivergedAndNoWinner) {
  AutoOptions o;
  o.meritval = 1e-30;
  o.maxiter = 5;
  AutoSolver solver(o);
  BlockProblem p = Redundant(10, 40, 3);
  const SolverStats s = solver.Solve(p);
  EXPECT_EQ(s.error, "DIVERGED");
  EXPECT_EQ(s.winner, "NONE");
  EXPECT_LE(s.iters, 5);
  EXPECT_NE(s.message.find("AUTO_SOLVER"), std::string::npos);
  EXPECT_NEAR(ComputeMerit(p), s.merit, 1e-12 * s.merit);
}

TEST(AutoSolver, InvalidOptionsNameTheArgument) {
  auto message = [](AutoOptions o) {
    try {
      o.Validate();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  AutoOptions o;
  o.stallfactor = 1.0;
  EXPECT_NE(message(o).find("'stallfactor'"), std::string::npos);
  o = AutoOptions();
  o.gswindow = 0;
  EXPECT_NE(message(o).find("'gswindow'"), std::string::npos);
  o = AutoOptions();
  o.meritval = 0.0;
  EXPECT_NE(message(o).find("AUTO_SOLVER"), std::string::npos);
}

}  // namespace
}  // namespace solfec::solvers
