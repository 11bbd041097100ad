// GAUSS_SEIDEL_SOLVER against closed-form single contacts, equality laws, a stack of masses
// with analytic static reactions, random contact networks and the failure policies.
#include "solvers/gauss_seidel_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "base/errors.h"
#include "solvers/friction_cone.h"
#include "solvers/merit.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

using testing::Contact;
using testing::CoupledBlock;
using testing::SingleRow;

// Single rows are solved by the closed forms: round-off ~1e-15 on O(1) data.
constexpr double kExact = 1e-13;

GaussSeidelOptions Tight() {
  GaussSeidelOptions o;
  o.epsilon = 1e-12;
  o.meritval = 1e-24;
  o.maxiter = 20000;
  o.diagepsilon = 1e-14;
  o.diagmaxiter = 20000;
  return o;
}

SolverStats SolveWith(BlockProblem& p, const GaussSeidelOptions& o = Tight()) {
  GaussSeidelSolver gs(o);
  return gs.Solve(p);
}

// ---------------------------------------------------------------- single contact

TEST(GaussSeidelSolver, SingleContactSeparatesWhenNormalFreeVelocityIsPositive) {
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.3, -0.2, 0.5), Contact(0.5));
  p.R = {Vec3(1.0, 1.0, 1.0)};  // a wrong warm start
  const SolverStats s = SolveWith(p);
  EXPECT_TRUE(s.converged);
  EXPECT_EQ(s.error, "OK");
  EXPECT_EQ(p.R[0], Vec3::Zero());
  EXPECT_LT((p.U[0] - p.B[0]).norm(), kExact);
  EXPECT_LT(s.merit, 1e-26);
}

TEST(GaussSeidelSolver, SingleContactSticksBelowFrictionCone) {
  const Mat3 W = CoupledBlock();
  const Vec3 B(0.05, -0.02, -1.0);
  BlockProblem p = SingleRow(W, B, Contact(0.8));
  SolveWith(p);
  EXPECT_LT(p.U[0].norm(), kExact);
  EXPECT_LT((p.R[0] + W.inverse() * B).norm(), kExact);
  EXPECT_LT(TangentNorm(p.R[0]), 0.8 * p.R[0].z());
}

TEST(GaussSeidelSolver, SingleContactSlidesOnConeBoundaryAgainstSlip) {
  const double mu = 0.3;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(2.0, 1.0, -1.0), Contact(mu));
  SolveWith(p);
  const Vec3 R = p.R[0], U = p.U[0];
  // Semismooth Newton converges quadratically to diagepsilon 1e-14: 1e-12 margins.
  EXPECT_NEAR(TangentNorm(R), mu * R.z(), 1e-12);
  EXPECT_NEAR(U.z(), 0.0, 1e-12);
  EXPECT_GT(TangentNorm(U), 0.1);
  const double cosine = (U.x() * R.x() + U.y() * R.y()) / (TangentNorm(U) * TangentNorm(R));
  EXPECT_NEAR(cosine, -1.0, 1e-12);
}

TEST(GaussSeidelSolver, RestitutionOneReversesNormalVelocity) {
  const double v = 2.0;
  Law law = Contact(1.0);
  law.restitution = 1.0;
  law.UN_prev = -v;
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0.0, 0.0, -v), law);
  SolveWith(p);
  // Ubar_N = U_N - v = 0 (eq. 7.1) and the contact sticks: U = (0, 0, v).
  EXPECT_LT((p.U[0] - Vec3(0.0, 0.0, v)).norm(), kExact);
  EXPECT_GT(p.R[0].z(), 0.0);
}

TEST(GaussSeidelSolver, CohesionHoldsSmallTensionAndBreaksUnderLargeTension) {
  const Mat3 W = CoupledBlock();
  Law law = Contact(0.5);
  law.cohesion = 2.0;
  law.cohesive = true;
  BlockProblem held = SingleRow(W, Vec3(0.01, 0.0, 0.2), law);
  SolveWith(held);
  EXPECT_TRUE(held.laws[0].cohesive);
  EXPECT_LT(held.R[0].z(), 0.0);                 // tension
  EXPECT_GT(held.R[0].z(), -law.cohesion);       // within the bound
  EXPECT_LT(held.U[0].norm(), kExact);           // held in place
  BlockProblem broken = SingleRow(W, Vec3(0.0, 0.0, 5.0), law);
  const SolverStats s = SolveWith(broken);
  EXPECT_FALSE(broken.laws[0].cohesive);
  EXPECT_EQ(broken.R[0], Vec3::Zero());
  EXPECT_LT((broken.U[0] - broken.B[0]).norm(), kExact);
  EXPECT_EQ(s.error, "OK");
}

TEST(GaussSeidelSolver, EveryDiagonalSolverGivesTheSameSlidingAndStickingAnswer) {
  for (const Vec3& B : {Vec3(2.0, 1.0, -1.0), Vec3(0.05, -0.02, -1.0)}) {
    BlockProblem reference = SingleRow(CoupledBlock(), B, Contact(0.4));
    SolveWith(reference);
    for (DiagSolver kind : {DiagSolver::kProjectedGradient, DiagSolver::kDeSaxceFeng,
                            DiagSolver::kProjectedNewton}) {
      BlockProblem p = SingleRow(CoupledBlock(), B, Contact(0.4));
      GaussSeidelOptions o = Tight();
      o.diagsolver = kind;
      EXPECT_EQ(SolveWith(p, o).error, "OK");
      // Linear-rate kernels stop at relative change 1e-14 (rate ~0.5): error ~1e-13.
      EXPECT_LT((p.R[0] - reference.R[0]).norm(), 1e-10 * reference.R[0].norm());
    }
  }
}

TEST(GaussSeidelSolver, EqualityLawsAreSolvedExactly) {
  const Mat3 W = CoupledBlock();
  Law eq;
  eq.kind = LawKind::kEquality;
  eq.target = Vec3(1.0, -2.0, 0.5);
  BlockProblem p = SingleRow(W, Vec3(0.3, 0.3, 0.3), eq);
  SolveWith(p);
  EXPECT_LT((p.U[0] - eq.target).norm(), kExact);

  Law normal;
  normal.kind = LawKind::kNormalEquality;
  normal.target = Vec3(0.0, 0.0, -0.4);
  BlockProblem q = SingleRow(W, Vec3(0.3, 0.3, 0.3), normal);
  SolveWith(q);
  EXPECT_NEAR(q.U[0].z(), -0.4, kExact);
  EXPECT_EQ(q.R[0].x(), 0.0);
  EXPECT_EQ(q.R[0].y(), 0.0);
  EXPECT_LT(q.merit[0], 1e-26);
}

// ---------------------------------------------------------------- many contacts

// Stack of 10 masses (random masses and inverse inertias, seed 11): the floor contact
// carries all of them, R_k = g h sum_{j >= k} m_j. GS on this block-tridiagonal W contracts
// at ~0.98 per sweep; epsilon 1e-12 leaves a relative error ~1e-12 / 0.02 ~ 1e-10.
TEST(GaussSeidelSolver, StackOfMassesConvergesToAnalyticStaticReactions) {
  for (bool reverse : {false, true}) {
    testing::Stack stack = testing::MakeStack(10, 0.5, 11);
    GaussSeidelOptions o = Tight();
    o.reverse = reverse;
    const SolverStats s = SolveWith(stack.problem, o);
    EXPECT_TRUE(s.converged) << reverse;
    EXPECT_LT(s.iters, o.maxiter);
    for (int k = 0; k < 10; ++k) {
      const Vec3& R = stack.problem.R[k];
      EXPECT_NEAR(R.z(), stack.expected_RN[k], 1e-8 * stack.expected_RN[0]) << k;
      EXPECT_LT(TangentNorm(R), 1e-8 * stack.expected_RN[0]) << k;
    }
    // The merit falls by many orders of magnitude over the run.
    ASSERT_GE(s.merhist.size(), 2u);
    EXPECT_LT(s.merhist.back(), 1e-10 * s.merhist.front());
    EXPECT_EQ(s.merhist.size(), static_cast<size_t>(s.iters));
    EXPECT_EQ(s.rerhist.size(), static_cast<size_t>(s.iters));
  }
}

// The merit history is the merit of each iterate: the run cut at maxiter = k reports
// stats.merit equal to entry k - 1 of a longer run's history.
TEST(GaussSeidelSolver, MeritHistoryIsTheMeritOfEachIterate) {
  GaussSeidelOptions o = Tight();
  testing::Stack full = testing::MakeStack(8, 0.5, 2);
  o.maxiter = 12;
  const SolverStats long_run = SolveWith(full.problem, o);
  ASSERT_EQ(long_run.merhist.size(), 12u);
  for (int k : {1, 2, 5, 11}) {
    testing::Stack cut = testing::MakeStack(8, 0.5, 2);
    o.maxiter = k;
    const SolverStats s = SolveWith(cut.problem, o);
    // Same quantity, in-sweep vs final pass: round-off amplified by 1/|C| (see below).
    EXPECT_NEAR(s.merit, long_run.merhist[k - 1], 1e-9 * s.merit) << k;
  }
}

// 'EITHER': stopping on meritval returns the iterate whose merit satisfied it (not the next
// one).
TEST(GaussSeidelSolver, StopsOnMeritWithTheIterateThatSatisfiedIt) {
  testing::Stack stack = testing::MakeStack(10, 0.5, 3);
  GaussSeidelOptions o;
  o.stopping = GaussSeidelOptions::Stopping::kEither;
  o.epsilon = 1e-15;  // only the merit can stop it
  o.meritval = 1e-6;
  const SolverStats s = SolveWith(stack.problem, o);
  EXPECT_TRUE(s.converged);
  EXPECT_LE(s.merit, o.meritval);
  // The history value comes from the in-sweep U = rhs - lag + W_aa S_a: its round-off
  // ~1e-16 |W| |R| is amplified by 1/|C| ~ 1e3 here, so agreement to 1e-9 relative.
  EXPECT_NEAR(s.merit, s.merhist.back(), 1e-9 * s.merit);
  // The previous iterate did not satisfy it.
  ASSERT_GE(s.merhist.size(), 2u);
  EXPECT_GT(s.merhist[s.merhist.size() - 2], o.meritval);
  EXPECT_NEAR(ComputeMerit(stack.problem), s.merit, 1e-14 * s.merit);
}

// 'BOTH' (Solfec-1.0's bgs.c, the default): the sweeps go on while either test fails, and
// the returned iterate satisfies both; meritval >= 1 (the default 1) turns the merit test off.
TEST(GaussSeidelSolver, BothStopsOnlyWhenEpsilonAndMeritvalHold) {
  GaussSeidelOptions o;
  EXPECT_EQ(o.stopping, GaussSeidelOptions::Stopping::kBoth);
  EXPECT_EQ(o.meritval, 1.0);
  for (const auto& [epsilon, meritval] :
       {std::pair{1e-2, 1e-20}, std::pair{1e-10, 1e-6}, std::pair{1e-8, 1.0}}) {
    testing::Stack stack = testing::MakeStack(10, 0.5, 3);
    o.epsilon = epsilon;
    o.meritval = meritval;
    o.maxiter = 100000;
    const SolverStats s = SolveWith(stack.problem, o);
    EXPECT_TRUE(s.converged) << epsilon << " " << meritval;
    EXPECT_LE(s.relative_error, epsilon);
    if (meritval < 1.0) EXPECT_LE(s.merit, meritval);
    // 'EITHER' stops earlier, on the looser of the two
    GaussSeidelOptions e = o;
    e.stopping = GaussSeidelOptions::Stopping::kEither;
    testing::Stack again = testing::MakeStack(10, 0.5, 3);
    const SolverStats t = SolveWith(again.problem, e);
    EXPECT_TRUE(t.converged);
    EXPECT_LE(t.iters, s.iters);
    if (meritval < 1.0) EXPECT_LT(t.iters, s.iters);
  }
}

// Random networks (30 point masses, 25 contacts with random normals and friction): GS
// reaches every contact law to the tolerance of epsilon = 1e-12.
TEST(GaussSeidelSolver, RandomNetworkSatisfiesSignoriniCoulombAtEveryContact) {
  for (unsigned seed : {1u, 2u, 3u}) {
    BlockProblem p = testing::MakeRandomNetwork(30, 25, seed);
    const SolverStats s = SolveWith(p);
    ASSERT_EQ(s.error, "OK") << seed;
    EXPECT_LT(s.merit, 1e-18) << seed;
    double scale = 0.0;
    for (const Vec3& B : p.B) scale = std::max(scale, B.norm());
    const double tol = 1e-8 * scale;  // velocities are O(scale); W ~ O(1)
    for (int a = 0; a < p.size(); ++a) {
      const Vec3 &R = p.R[a], &U = p.U[a];
      const double mu = p.laws[a].friction;
      EXPECT_GE(U.z(), -tol);                       // Signorini
      EXPECT_GE(R.z(), 0.0);
      EXPECT_LT(std::abs(U.z() * R.z()), tol * (1.0 + R.z()));
      EXPECT_LE(TangentNorm(R), mu * R.z() + tol);  // Coulomb cone
      if (TangentNorm(U) > tol) {                   // slip: on the cone, against slip
        EXPECT_NEAR(TangentNorm(R), mu * R.z(), tol);
        EXPECT_LT(U.x() * R.x() + U.y() * R.y(), tol);
      }
    }
  }
}

TEST(GaussSeidelSolver, OutputUIsBPlusWR) {
  BlockProblem p = testing::MakeRandomNetwork(10, 8, 4);
  SolveWith(p);
  const std::vector<Vec3> U = p.U;
  p.ComputeU();
  for (int a = 0; a < p.size(); ++a) EXPECT_EQ(U[a], p.U[a]);
}

// ---------------------------------------------------------------- failure policy

GaussSeidelOptions Hard(GaussSeidelOptions::Failure failure) {
  GaussSeidelOptions o;
  o.maxiter = 1;
  o.epsilon = 1e-12;
  o.meritval = 1e-12;
  o.failure = failure;
  return o;
}

TEST(GaussSeidelSolver, ExitPolicyThrowsSolverErrorWhenMaxiterIsReached) {
  testing::Stack stack = testing::MakeStack(20, 0.5, 9);
  GaussSeidelSolver gs(Hard(GaussSeidelOptions::Failure::kExit));
  try {
    gs.Solve(stack.problem);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("GAUSS_SEIDEL_SOLVER: did not converge in 1 "),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(gs.last_stats().error, "DIVERGED");
  EXPECT_FALSE(gs.last_stats().converged);
  EXPECT_TRUE(gs.last_stats().stop_run);
}

TEST(GaussSeidelSolver, ContinuePolicyReportsDivergenceWithoutStopping) {
  testing::Stack stack = testing::MakeStack(20, 0.5, 9);
  const SolverStats s = SolveWith(stack.problem, Hard(GaussSeidelOptions::Failure::kContinue));
  EXPECT_EQ(s.error, "DIVERGED");
  EXPECT_FALSE(s.stop_run);
  EXPECT_EQ(s.iters, 1);
}

TEST(GaussSeidelSolver, CallbackPolicyLetsTheCallbackDecide) {
  for (bool keep_going : {true, false}) {
    testing::Stack stack = testing::MakeStack(20, 0.5, 9);
    GaussSeidelSolver gs(Hard(GaussSeidelOptions::Failure::kCallback));
    int calls = 0;
    gs.set_failure_callback([&](const SolverStats& s) {
      ++calls;
      EXPECT_EQ(s.error, "DIVERGED");
      return keep_going;
    });
    const SolverStats s = gs.Solve(stack.problem);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(s.stop_run, !keep_going);
  }
  // Without a callback, CALLBACK behaves as EXIT (manual 4.1.9).
  testing::Stack stack = testing::MakeStack(20, 0.5, 9);
  GaussSeidelSolver gs(Hard(GaussSeidelOptions::Failure::kCallback));
  EXPECT_THROW(gs.Solve(stack.problem), SolverError);
}

// ---------------------------------------------------------------- options

TEST(GaussSeidelSolver, DefaultsFollowTheManual) {
  GaussSeidelOptions o;
  EXPECT_DOUBLE_EQ(o.resolved_diagepsilon(), 1e-6);  // min(1e-4, 1e-3, 1e-4) / 100
  EXPECT_EQ(o.resolved_diagmaxiter(), 100);          // max(100, 1000 / 100)
  o.maxiter = 50000;
  EXPECT_EQ(o.resolved_diagmaxiter(), 500);
  EXPECT_EQ(GaussSeidelSolver().name(), std::string("GAUSS_SEIDEL_SOLVER"));
}

TEST(GaussSeidelSolver, InvalidOptionsNameTheArgument) {
  GaussSeidelOptions o;
  o.epsilon = -1.0;
  try {
    GaussSeidelSolver gs(o);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GAUSS_SEIDEL_SOLVER"), std::string::npos);
    EXPECT_NE(what.find("'epsilon'"), std::string::npos);
  }
  o = GaussSeidelOptions();
  o.maxiter = 0;
  EXPECT_THROW(GaussSeidelSolver{o}, InputError);
  o = GaussSeidelOptions();
  o.diagepsilon = 0.0;
  EXPECT_THROW(GaussSeidelSolver{o}, InputError);
}

// |R - proj_FC(R - U - mu |U_T| e_N)| / max(|R|, |U|, |B|) over all rows (Siconos 4.4's
// fc3d_compute_error in our (T1, T2, N) order), written out here independently of merit.h.
double NaturalMapResidual(BlockProblem& p) {
  p.ComputeU();
  double res = 0.0, r2 = 0.0, u2 = 0.0, b2 = 0.0;
  for (int a = 0; a < p.size(); ++a) {
    const Vec3 R = p.R[a], U = p.U[a];
    const double mu = p.laws[a].friction;
    const Vec3 S = R - Vec3(U.x(), U.y(), U.z() + mu * std::hypot(U.x(), U.y()));
    const double st = std::hypot(S.x(), S.y());
    Vec3 P = S;
    if (mu * st + S.z() <= 0.0) {
      P.setZero();
    } else if (st > mu * S.z()) {
      const double pn = (mu * st + S.z()) / (1.0 + mu * mu);
      P = Vec3(mu * pn * S.x() / st, mu * pn * S.y() / st, pn);
    }
    res += (R - P).squaredNorm();
    r2 += R.squaredNorm();
    u2 += U.squaredNorm();
    b2 += p.B[a].squaredNorm();
  }
  return std::sqrt(res / std::max({r2, u2, b2}));
}

// With epsilon and meritval out of reach, the residual test alone stops the sweeps: the
// returned reactions meet it (checked by an independent evaluation), and a tighter value
// needs at least as many sweeps.
TEST(GaussSeidelSolver, ResidualTestStopsAtTheRequestedNaturalMapResidual) {
  for (unsigned seed : {1u, 2u, 3u}) {
    int previous = 0;
    for (double tol : {1e-4, 1e-6, 1e-9}) {
      BlockProblem p = testing::MakeRandomNetwork(30, 25, seed);
      GaussSeidelOptions o;
      o.epsilon = 1e-300;
      o.meritval = 1e-300;
      o.maxiter = 5000;
      o.residual = tol;
      const SolverStats s = GaussSeidelSolver(o).Solve(p);
      ASSERT_TRUE(s.converged) << seed << " " << tol;
      EXPECT_LE(NaturalMapResidual(p), tol) << seed;
      EXPECT_GE(s.iters, previous) << seed << " " << tol;
      previous = s.iters;
    }
  }
  GaussSeidelOptions o;
  o.residual = -1.0;
  EXPECT_THROW(GaussSeidelSolver{o}, InputError);
}

TEST(GaussSeidelSolver, EmptyProblemConvergesImmediately) {
  BlockProblem p;
  p.Resize(0);
  const SolverStats s = SolveWith(p);
  EXPECT_TRUE(s.converged);
  EXPECT_EQ(s.iters, 0);
}

}  // namespace
}  // namespace solfec::solvers
