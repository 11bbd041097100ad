// Diagonal block solvers: closed forms, sliding kernels and laws against analytic answers.
#include "solvers/diagonal_solvers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "solvers/friction_cone.h"
#include "solvers/merit.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

using testing::CoupledBlock;

// Closed forms take a handful of flops on O(1) data: round-off is ~1e-15.
constexpr double kClosedFormTol = 1e-13;

Mat3 Inverse(const Mat3& W) {
  Mat3 inv;
  EXPECT_TRUE(InvertSpdBlock(W, inv));
  return inv;
}

DiagOptions Tight(DiagSolver kind) {
  DiagOptions o;
  o.kind = kind;
  o.epsilon = 1e-14;
  o.maxiter = 20000;
  return o;
}

TEST(DiagonalSolvers, SeparationIsClosedFormZero) {
  const Mat3 W = CoupledBlock();
  Vec3 R(1.0, 2.0, 3.0);  // warm start is discarded
  const DiagResult r = SolveContactBlock(W, Inverse(W), Vec3(0.4, -0.3, 0.2), 0.5, {}, R);
  EXPECT_EQ(r.status, DiagStatus::kOk);
  EXPECT_EQ(r.iters, 0);
  EXPECT_EQ(R, Vec3::Zero());
}

TEST(DiagonalSolvers, StickingIsClosedFormInverse) {
  const Mat3 W = CoupledBlock();
  const Vec3 b(0.05, -0.02, -1.0);
  Vec3 R = Vec3::Zero();
  const DiagResult r = SolveContactBlock(W, Inverse(W), b, 0.8, {}, R);
  EXPECT_EQ(r.iters, 0);
  EXPECT_LT((b + W * R).norm(), kClosedFormTol);
  EXPECT_LT(TangentNorm(R), 0.8 * R.z());
}

// Decoupled block W = diag(w, w, wn): sliding has R_N = -b_N / wn and
// R_T = -mu R_N b_T / |b_T| in closed form; every kernel must reproduce it.
TEST(DiagonalSolvers, EveryKernelReproducesAnalyticSliding) {
  const double w = 1.5, wn = 1.0, mu = 0.3;
  const Mat3 W = Vec3(w, w, wn).asDiagonal();
  const Vec3 b(2.0, 1.0, -1.0);
  const double RN = 1.0;
  const Vec3 expected(-mu * RN * 2.0 / std::sqrt(5.0), -mu * RN * 1.0 / std::sqrt(5.0), RN);
  for (DiagSolver kind : {DiagSolver::kSemismoothNewton, DiagSolver::kProjectedGradient,
                          DiagSolver::kDeSaxceFeng, DiagSolver::kProjectedNewton}) {
    Vec3 R = Vec3::Zero();
    const DiagResult r = SolveContactBlock(W, Inverse(W), b, mu, Tight(kind), R);
    EXPECT_EQ(r.status, DiagStatus::kOk) << static_cast<int>(kind);
    EXPECT_GT(r.iters, 0);
    // Iterations stop at relative change 1e-14; linear kernels leave ~1e-13 error.
    EXPECT_LT((R - expected).norm(), 1e-11) << static_cast<int>(kind);
  }
}

// Coupled block, sliding and sticking: all kernels agree with each other.
TEST(DiagonalSolvers, KernelsAgreeOnCoupledBlock) {
  const Mat3 W = CoupledBlock();
  for (const Vec3& b : {Vec3(1.0, -0.5, -0.7), Vec3(0.05, 0.02, -1.0)}) {
    Vec3 reference = Vec3::Zero();
    SolveContactBlock(W, Inverse(W), b, 0.4, Tight(DiagSolver::kSemismoothNewton), reference);
    for (DiagSolver kind : {DiagSolver::kProjectedGradient, DiagSolver::kDeSaxceFeng,
                            DiagSolver::kProjectedNewton}) {
      Vec3 R = Vec3::Zero();
      EXPECT_EQ(SolveContactBlock(W, Inverse(W), b, 0.4, Tight(kind), R).status,
                DiagStatus::kOk);
      // Linear kernels converge to relative change 1e-14 at rate ~0.5: error ~1e-13.
      EXPECT_LT((R - reference).norm(), 1e-10 * reference.norm());
    }
  }
}

// 2000 random SPD blocks (condition up to ~200) and friction up to 1.55, sliding cases
// only: semismooth Newton (with its fallbacks) returns a Coulomb solution every time.
TEST(DiagonalSolvers, SemismoothNewtonSolvesRandomSlidingBlocks) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int sliding = 0;
  for (int t = 0; t < 2000; ++t) {
    Mat3 A;
    for (int i = 0; i < 9; ++i) A.data()[i] = u(gen);
    const Mat3 W = A * A.transpose() + (0.05 + std::abs(u(gen))) * Mat3::Identity();
    const Vec3 b(3.0 * u(gen), 3.0 * u(gen), -std::abs(u(gen)));
    const double mu = 0.05 + 1.5 * std::abs(u(gen));
    const Mat3 W_inv = Inverse(W);
    const Vec3 stick = -(W_inv * b);
    if (TangentNorm(stick) <= mu * stick.z()) continue;
    ++sliding;
    Vec3 R = Vec3::Zero();
    DiagOptions o;
    o.epsilon = 1e-12;
    ASSERT_EQ(SolveContactBlock(W, W_inv, b, mu, o, R).status, DiagStatus::kOk) << t;
    const Vec3 U = b + W * R;
    // Sliding: on the cone, U_N = 0, U_T opposite to R_T (to Newton round-off ~1e-12).
    EXPECT_NEAR(TangentNorm(R), mu * R.z(), 1e-10 * R.norm()) << t;
    EXPECT_NEAR(U.z(), 0.0, 1e-10 * b.norm()) << t;
    const double cosine = (U.x() * R.x() + U.y() * R.y()) / (TangentNorm(U) * TangentNorm(R));
    EXPECT_NEAR(cosine, -1.0, 1e-8) << t;
  }
  EXPECT_GT(sliding, 1500);
}

// Each sliding kernel alone on the same random blocks, started from the projected
// sticking reaction: every reported success is a Coulomb sliding solution, and the
// kernels succeed on (nearly) all cases on their own.
TEST(DiagonalSolvers, EachSlidingKernelReturnsOnlyTrueSolutions) {
  std::mt19937 gen(21);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int cases = 0, ok_ssn = 0, ok_newton = 0, ok_scan = 0;
  for (int t = 0; t < 2000; ++t) {
    Mat3 A;
    for (int i = 0; i < 9; ++i) A.data()[i] = u(gen);
    const Mat3 W = A * A.transpose() + (0.05 + std::abs(u(gen))) * Mat3::Identity();
    const Vec3 b(3.0 * u(gen), 3.0 * u(gen), -std::abs(u(gen)));
    const double mu = 0.05 + 1.5 * std::abs(u(gen));
    const Vec3 stick = -(Inverse(W) * b);
    if (TangentNorm(stick) <= mu * stick.z()) continue;
    const Vec3 start = ProjectOnCone(stick, mu);
    if (!(start.z() > 0.0 && TangentNorm(start) > 0.0)) continue;
    ++cases;
    DiagOptions o;
    o.epsilon = 1e-12;
    auto check = [&](const Vec3& R, const char* kernel) {
      const Vec3 U = b + W * R;
      EXPECT_NEAR(TangentNorm(R), mu * R.z(), 1e-9 * R.norm()) << kernel << " " << t;
      EXPECT_NEAR(U.z(), 0.0, 1e-9 * b.norm()) << kernel << " " << t;
      EXPECT_LE(U.x() * R.x() + U.y() * R.y(), 1e-9 * b.norm() * R.norm()) << kernel << " " << t;
    };
    Vec3 R = start;
    if (detail::SemismoothNewton(W, b, mu, o, R).status == DiagStatus::kOk) {
      ++ok_ssn;
      check(R, "SemismoothNewton");
    }
    R = start;
    const double rt = TangentNorm(start);
    if (detail::SlidingNewton(W, b, mu, o, Eigen::Vector2d(-start.x() / rt, -start.y() / rt), R)
            .status == DiagStatus::kOk) {
      ++ok_newton;
      check(R, "SlidingNewton");
    }
    R = start;
    if (detail::SlidingByDirection(W, b, mu, R).status == DiagStatus::kOk) {
      ++ok_scan;
      check(R, "SlidingByDirection");
    }
  }
  ASSERT_GT(cases, 1500);
  // Observed: all but a handful of failures (which the chain of fallbacks absorbs).
  EXPECT_GE(ok_ssn, cases - cases / 100);
  EXPECT_GE(ok_newton, cases - cases / 10);
  EXPECT_GE(ok_scan, cases - cases / 100);
  std::printf("sliding cases %d: semismooth %d, sliding Newton %d, scan %d\n", cases, ok_ssn,
              ok_newton, ok_scan);
}

TEST(DiagonalSolvers, EqualityLawsAreSolvedExactly) {
  const Mat3 W = CoupledBlock();
  const Vec3 rhs(0.3, -0.2, 0.1);
  Law eq;
  eq.kind = LawKind::kEquality;
  eq.target = Vec3(1.0, 2.0, -3.0);
  Vec3 R = Vec3::Zero();
  SolveDiagonalBlock(eq, W, Inverse(W), rhs, {}, R);
  EXPECT_LT((rhs + W * R - eq.target).norm(), kClosedFormTol);

  Law normal;
  normal.kind = LawKind::kNormalEquality;
  normal.target = Vec3(0.0, 0.0, 0.7);
  R = Vec3(5.0, 5.0, 5.0);
  SolveDiagonalBlock(normal, W, Inverse(W), rhs, {}, R);
  EXPECT_EQ(R.x(), 0.0);
  EXPECT_EQ(R.y(), 0.0);
  EXPECT_NEAR((rhs + W * R).z(), 0.7, kClosedFormTol);
}

TEST(DiagonalSolvers, CohesionHoldsTensionUpToItsBoundThenBreaks) {
  const Mat3 W = CoupledBlock();
  Law law = testing::Contact(0.5);
  law.cohesion = 2.0;
  law.cohesive = true;
  // Separating free velocity that needs R_N ~ -0.22 > -2 to stop: held, U = 0.
  const Vec3 small(0.01, 0.0, 0.2);
  Vec3 R = Vec3::Zero();
  SolveDiagonalBlock(law, W, Inverse(W), small, {}, R);
  EXPECT_TRUE(law.cohesive);
  EXPECT_LT(R.z(), 0.0);
  EXPECT_GT(R.z(), -law.cohesion);
  EXPECT_LT((small + W * R).norm(), kClosedFormTol);
  // A pull needing more than the cohesion: the bond breaks and the contact separates.
  const Vec3 large(0.0, 0.0, 5.0);
  SolveDiagonalBlock(law, W, Inverse(W), large, {}, R);
  EXPECT_FALSE(law.cohesive);
  EXPECT_EQ(R, Vec3::Zero());
}

}  // namespace
}  // namespace solfec::solvers
