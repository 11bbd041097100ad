// Merit function g(R) of manual eq. 8.1: zero at exact solutions, positive elsewhere.
#include "solvers/merit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

using testing::Contact;
using testing::CoupledBlock;
using testing::SingleRow;

// At an exact solution g is a squared residual of round-off size: (1e-15)^2 ~ 1e-30.
constexpr double kZeroMerit = 1e-26;

double MeritAt(BlockProblem p, const Vec3& R) {
  p.R = {R};
  return ComputeMerit(p);
}

TEST(Merit, ZeroAtSeparationStickingAndSlidingSolutions) {
  const Mat3 W = CoupledBlock();
  // Separation: R = 0 with B_N > 0.
  EXPECT_LT(MeritAt(SingleRow(W, Vec3(0.3, -0.2, 0.5), Contact(0.5)), Vec3::Zero()),
            kZeroMerit);
  // Sticking: R = -W^-1 B inside the cone.
  const Vec3 B(0.05, -0.02, -1.0);
  EXPECT_LT(MeritAt(SingleRow(W, B, Contact(0.8)), -W.inverse() * B), kZeroMerit);
  // Sliding on the decoupled block diag(1.5, 1.5, 1): R_N = 1, R_T = -0.3 B_T / |B_T|.
  const Mat3 D = Vec3(1.5, 1.5, 1.0).asDiagonal();
  const Vec3 slide(-0.3 * 2.0 / std::sqrt(5.0), -0.3 / std::sqrt(5.0), 1.0);
  EXPECT_LT(MeritAt(SingleRow(D, Vec3(2.0, 1.0, -1.0), Contact(0.3)), slide), kZeroMerit);
}

TEST(Merit, PositiveAwayFromSolutions) {
  const Mat3 W = CoupledBlock();
  const Vec3 B(0.05, -0.02, -1.0);
  const BlockProblem p = SingleRow(W, B, Contact(0.8));
  const Vec3 exact = -W.inverse() * B;
  // A 1% error in the reaction gives g of order (1%)^2.
  const double g = MeritAt(p, 1.01 * exact);
  EXPECT_GT(g, 1e-6);
  EXPECT_LT(g, 1e-3);
  // No reaction at all: C = F = [B_T; B_N + mu |B_T|] ~ B, so nearly all of the free-motion
  // energy is spurious: g ~ 1 (0.92 here).
  const double g0 = MeritAt(p, Vec3::Zero());
  EXPECT_GT(g0, 0.8);
  EXPECT_LT(g0, 1.0);
}

TEST(Merit, ReactionOutsideTheConeIsPenalised) {
  // U = 0 would be "satisfied" for a sticking law, but R violates ||R_T|| <= mu R_N.
  const Mat3 W = Mat3::Identity();
  const Vec3 R(1.0, 0.0, 1.0);
  const BlockProblem p = SingleRow(W, -R, Contact(0.5));  // U = B + W R = 0
  EXPECT_GT(MeritAt(p, R), 0.01);
}

TEST(Merit, EqualityResidualsAreVelocityErrors) {
  const Mat3 W = 2.0 * Mat3::Identity();
  Law eq;
  eq.kind = LawKind::kEquality;
  eq.target = Vec3(1.0, 0.0, 0.0);
  // U = B + W R = (1.5, 0, 0): C = (0.5, 0, 0); g = <C, C/2> / <B, B/2> = 0.25 / 1.
  BlockProblem p = SingleRow(W, Vec3(1.0, 0.0, 0.0), eq);
  EXPECT_NEAR(MeritAt(p, Vec3(0.25, 0.0, 0.0)), 0.25, 1e-15);
  // Normal equality: tangential reaction counts through its velocity W R_T.
  Law normal;
  normal.kind = LawKind::kNormalEquality;
  normal.target = Vec3(0.0, 0.0, 1.0);
  BlockProblem q = SingleRow(W, Vec3(0.0, 0.0, 1.0), normal);
  EXPECT_LT(MeritAt(q, Vec3::Zero()), kZeroMerit);
  // R_T = (0.5, 0): C_T = (1, 0), and C_N = U_N - 1 = 0: g = 0.5 / 0.5 = 1.
  EXPECT_NEAR(MeritAt(q, Vec3(0.5, 0.0, 0.0)), 1.0, 1e-15);
}

TEST(Merit, DenominatorFallsBackToOneForZeroFreeVelocity) {
  const std::vector<Vec3> B(3, Vec3::Zero());
  const std::vector<Mat3> W_inv(3, Mat3::Identity());
  EXPECT_EQ(MeritDenominator(B, W_inv), 1.0);
}

TEST(Merit, PerRowSharesSumToTotal) {
  BlockProblem p = testing::MakeRandomNetwork(6, 5, 3);
  p.R.assign(p.size(), Vec3(0.1, 0.0, 0.2));
  const double g = ComputeMerit(p);
  double sum = 0.0;
  for (double m : p.merit) sum += m;
  EXPECT_NEAR(sum, g, 1e-14 * g);
  EXPECT_GT(g, 0.0);
}

// Closed form, W = I, B = (0, 0, -1), mu = 0.5 (U = B + R): R = 0 gives U = B, F = U (no
// slip) and C = -proj_FC(-F) = (0, 0, -1), scale max(|R|, |U|, |B|) = 1, so 1; the solution
// R = (0, 0, 1) (U = 0) gives 0; R = (0, 0, 0.5) gives U = (0, 0, -0.5), C = (0, 0, -0.5) and
// scale max(0.5, 0.5, 1) = 1, so 0.5. Exact in binary arithmetic up to one rounding.
TEST(Merit, RelativeResidualIsTheNaturalMapRelativeToTheLargestVector) {
  BlockProblem p = SingleRow(Mat3::Identity(), Vec3(0.0, 0.0, -1.0), Contact(0.5));
  const double cases[][2] = {{0.0, 1.0}, {1.0, 0.0}, {0.5, 0.5}};
  for (const auto& c : cases) {
    p.R = {Vec3(0.0, 0.0, c[0])};
    p.ComputeU();
    EXPECT_NEAR(RelativeResidual(p), c[1], 1e-15) << "R_N = " << c[0];
  }
  // A sliding contact: B = (1, 0, -1), R = 0: U = B, F = (1, 0, -1 + 0.5 * 1) and
  // C = -proj_FC((-1, 0, 0.5)); that point lies neither in the cone (|t| = 1 > 0.5 * 0.5)
  // nor in its polar (0.5 > -|t| / mu), so the projection is the boundary point
  // ((mu |t| + n) / (1 + mu^2)) (mu t / |t|, 1) = 0.8 (-0.5, 0, 1); |C| = sqrt(0.8) and the
  // scale is |U| = |B| = sqrt(2).
  p.B = {Vec3(1.0, 0.0, -1.0)};
  p.R = {Vec3::Zero()};
  p.ComputeU();
  EXPECT_NEAR(RelativeResidual(p), std::sqrt(0.8 * 0.8 + 0.4 * 0.4) / std::sqrt(2.0), 1e-15);
}

TEST(Merit, MeritFromUEqualsComputeMeritOnARandomNetwork) {
  BlockProblem p = testing::MakeRandomNetwork(20, 15, 11);
  for (int a = 0; a < p.size(); ++a) p.R[a] = Vec3(0.1 * a, -0.05 * a, 0.2 + 0.01 * a);
  const double g = ComputeMerit(p);  // also sets p.U = B + W R
  std::vector<Mat3> W_inv;
  InvertDiagonalBlocks(p, W_inv);
  // Same arithmetic on the same U: identical.
  EXPECT_EQ(MeritFromU(p, W_inv, MeritDenominator(p.B, W_inv)), g);
  EXPECT_GT(g, 0.0);
}

}  // namespace
}  // namespace solfec::solvers
