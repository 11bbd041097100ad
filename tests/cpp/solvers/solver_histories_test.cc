// Solver histories of the deck members: itershist (per solve), merhist / rerhist / mvhist
// (per iteration), and the final merit of a solve cut at maxiter.
#include <gtest/gtest.h>

#include <numeric>

#include "solvers/gauss_seidel_solver.h"
#include "solvers/merit.h"
#include "solvers/newton_solver.h"
#include "solvers/penalty_solver.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

TEST(SolverHistories, ItershistRecordsEverySolveOnlyWhileOn) {
  GaussSeidelOptions g;
  g.epsilon = 1e-10;
  g.meritval = 1e-14;
  GaussSeidelSolver gs(g);
  BlockProblem p = testing::MakeStack(3, 0.5, 1).problem;
  gs.Solve(p);
  EXPECT_TRUE(gs.itershist().empty());  // off by default
  gs.set_itershist(true);
  std::vector<int> expected;
  for (unsigned seed : {1u, 2u, 3u}) {
    BlockProblem q = testing::MakeStack(3, 0.5, seed).problem;
    expected.push_back(gs.Solve(q).iters);
  }
  EXPECT_EQ(gs.itershist(), expected);
  gs.set_itershist(true);  // setting clears
  EXPECT_TRUE(gs.itershist().empty());

  NewtonSolver newton;
  newton.set_itershist(true);
  BlockProblem q = testing::MakeRandomNetwork(10, 8, 4);
  const SolverStats s = newton.Solve(q);
  ASSERT_EQ(newton.itershist().size(), 1u);
  EXPECT_EQ(newton.itershist()[0], s.iters);
}

// Newton's mvhist: one entry per Newton step, each the GMRES products of that step, which
// sum to linear_iters(); merhist has the same length and ends with the final merit.
TEST(SolverHistories, NewtonMvhistCountsGmresProductsPerStep) {
  BlockProblem p = testing::MakeRandomNetwork(30, 25, 2);
  NewtonOptions o;
  o.meritval = 1e-16;
  o.gsflag = false;
  NewtonSolver newton(o);
  const SolverStats s = newton.Solve(p);
  ASSERT_EQ(s.error, "OK");
  ASSERT_EQ(static_cast<int>(s.mvhist.size()), s.iters);
  EXPECT_EQ(s.merhist.size(), s.mvhist.size());
  EXPECT_EQ(std::accumulate(s.mvhist.begin(), s.mvhist.end(), 0), newton.linear_iters());
  for (int m : s.mvhist) EXPECT_GE(m, o.linminiter);
}

// A Gauss-Seidel run cut at maxiter reports DIVERGED with the merit of the returned R (the
// number the progress line, HISTORY 'MERIT' and the stderr warning show).
TEST(SolverHistories, GaussSeidelAtMaxiterReportsTheMeritOfTheReturnedIterate) {
  BlockProblem p = testing::MakeStack(8, 0.5, 5).problem;
  GaussSeidelOptions g;
  g.epsilon = 1e-14;
  g.meritval = 1e-30;
  g.maxiter = 3;
  g.anderson = 0;
  GaussSeidelSolver gs(g);
  const SolverStats s = gs.Solve(p);
  EXPECT_EQ(s.error, "DIVERGED");
  EXPECT_FALSE(s.converged);
  EXPECT_EQ(s.iters, 3);
  EXPECT_EQ(s.rerhist.size(), 3u);
  EXPECT_EQ(s.merhist.size(), 3u);
  EXPECT_GT(s.merit, 0.0);
  BlockProblem q = p;
  EXPECT_DOUBLE_EQ(ComputeMerit(q), s.merit);
  EXPECT_DOUBLE_EQ(s.merhist.back(), s.merit);
}

}  // namespace
}  // namespace solfec::solvers
