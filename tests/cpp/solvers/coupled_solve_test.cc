// SolveCoupled over a SerialCoupling (no other processes: a sweep is one stage of every row,
// the exchanges change nothing, the sums are the local values) solves the same problem as
// the serial Solve: the coupled sweeps wrap the serial kernel, and Newton and penalty run
// one algorithm on either coupling. Checked on random frictional networks and stacks.
#include <gtest/gtest.h>

#include "solver_test_problems.h"
#include "solvers/auto_solver.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/newton_solver.h"
#include "solvers/penalty_solver.h"

namespace solfec::solvers {
namespace {

double MaxDifference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

double MaxNorm(const std::vector<Vec3>& a) {
  double d = 0.0;
  for (const Vec3& x : a) d = std::max(d, x.norm());
  return d;
}

// Gauss-Seidel: with one stage per sweep the coupled sweep visits the rows in the serial
// order with the same kernel, so iterations, R and merit agree to round-off (1e-12 of |R|;
// measured identical), for every variant that keeps all rows in one sweep, forward and
// reversed, with and without Anderson acceleration.
TEST(CoupledSolve, GaussSeidelOverOneProcessIsTheSerialSolve) {
  for (const unsigned seed : {1u, 2u}) {
    for (const bool reverse : {false, true}) {
      for (const int anderson : {0, 5}) {
        for (const auto variant : {GaussSeidelOptions::Variant::kFull,
                                   GaussSeidelOptions::Variant::kBoundaryJacobi}) {
          GaussSeidelOptions o;
          o.epsilon = 1e-10;
          o.maxiter = 500;
          o.reverse = reverse;
          o.anderson = anderson;
          o.variant = variant;
          BlockProblem serial = testing::MakeRandomNetwork(12, 30, seed);
          BlockProblem coupled = serial;
          GaussSeidelSolver a(o), b(o);
          const SolverStats s = a.Solve(serial);
          SerialCoupling none;
          const SolverStats c = b.SolveCoupled(coupled, none);
          EXPECT_EQ(s.iters, c.iters) << seed << reverse << anderson;
          EXPECT_LE(MaxDifference(serial.R, coupled.R), 1e-12 * MaxNorm(serial.R));
          EXPECT_NEAR(s.merit, c.merit, 1e-12 * std::max(1.0, s.merit));
          EXPECT_EQ(s.converged, c.converged);
        }
      }
    }
  }
}

// Newton: the coupled solve over one process takes the same steps (its merit now sums
// U = B + W R in the serial order plus a zero cross-process part).
TEST(CoupledSolve, NewtonOverOneProcessIsTheSerialSolve) {
  for (const unsigned seed : {1u, 3u}) {
    NewtonOptions o;
    o.meritval = 1e-12;
    BlockProblem serial = testing::MakeRandomNetwork(10, 20, seed);
    BlockProblem coupled = serial;
    NewtonSolver a(o), b(o);
    const SolverStats s = a.Solve(serial);
    SerialCoupling none;
    const SolverStats c = b.SolveCoupled(coupled, none);
    EXPECT_EQ(s.iters, c.iters) << seed;
    EXPECT_LE(MaxDifference(serial.R, coupled.R), 1e-12 * MaxNorm(serial.R)) << seed;
    EXPECT_EQ(s.converged, c.converged) << seed;
  }
}

// Penalty: spring-dashpot contacts on a random network.
TEST(CoupledSolve, PenaltyOverOneProcessIsTheSerialSolve) {
  BlockProblem serial = testing::MakeRandomNetwork(10, 20, 4);
  serial.step = 1e-3;
  for (Law& law : serial.laws) {
    law.spring_dashpot = true;
    law.spring = 1e6;
    law.dashpot = 1e2;
    law.gap = -1e-4;
  }
  BlockProblem coupled = serial;
  PenaltySolver a, b;
  const SolverStats s = a.Solve(serial);
  SerialCoupling none;
  const SolverStats c = b.SolveCoupled(coupled, none);
  EXPECT_EQ(s.iters, c.iters);
  EXPECT_LE(MaxDifference(serial.R, coupled.R), 1e-12 * MaxNorm(serial.R));
}

// A solver without a coupled solve says so and refuses one.
TEST(CoupledSolve, AutoSolverHasNone) {
  AutoSolver solver;
  EXPECT_FALSE(solver.supports_coupling());
  BlockProblem p = testing::MakeRandomNetwork(4, 6, 1);
  SerialCoupling none;
  EXPECT_THROW(solver.SolveCoupled(p, none), InputError);
  EXPECT_TRUE(GaussSeidelSolver().supports_coupling());
  EXPECT_TRUE(PenaltySolver().supports_coupling());
  NewtonOptions matrix_free;
  matrix_free.locdyn = false;
  EXPECT_FALSE(NewtonSolver(matrix_free).supports_coupling());
}

}  // namespace
}  // namespace solfec::solvers
