// BlockProblem helpers: resizing, U = B + W R and validation errors.
#include "solvers/block_problem.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "base/errors.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

TEST(BlockProblem, ResizeGivesEmptyRowsOfZeros) {
  BlockProblem p;
  p.Resize(4);
  EXPECT_EQ(p.size(), 4);
  EXPECT_EQ(p.row_ptr, std::vector<int>(5, 0));
  EXPECT_TRUE(p.W.empty());
  EXPECT_EQ(p.R.size(), 4u);
  EXPECT_EQ(p.merit.size(), 4u);
}

TEST(BlockProblem, ComputeUIsBPlusWR) {
  BlockProblem p = testing::MakeStack(3, 0.5, 1).problem;
  p.R = {Vec3(1, 2, 3), Vec3(-1, 0, 1), Vec3(0.5, 0.5, 0.5)};
  p.ComputeU();
  // Row 1 couples to rows 0, 1, 2 in the stack.
  Vec3 expected = p.B[1];
  for (int k = p.row_ptr[1]; k < p.row_ptr[2]; ++k) expected += p.W[k] * p.R[p.col[k]];
  EXPECT_LT((p.U[1] - expected).norm(), 1e-15 * expected.norm());
}

TEST(BlockProblem, ValidateRejectsMissingDiagonalFirst) {
  BlockProblem p = testing::MakeStack(3, 0.5, 1).problem;
  std::swap(p.col[p.row_ptr[1]], p.col[p.row_ptr[1] + 1]);
  try {
    p.Validate("GAUSS_SEIDEL_SOLVER");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("GAUSS_SEIDEL_SOLVER"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("diagonal"), std::string::npos);
  }
}

TEST(BlockProblem, ValidateRejectsBadLawAndNonFiniteData) {
  BlockProblem p = testing::MakeStack(3, 0.5, 1).problem;
  p.laws[2].friction = -1.0;
  EXPECT_THROW(p.Validate("TEST"), InputError);
  p.laws[2].friction = 0.5;
  p.W[1](0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(p.Validate("TEST"), SolverError);
}

TEST(BlockProblem, InvertSpdBlockRejectsSingularBlocks) {
  Mat3 inv;
  EXPECT_FALSE(InvertSpdBlock(Mat3::Zero(), inv));
  EXPECT_TRUE(inv.isZero(0.0));
  EXPECT_TRUE(InvertSpdBlock(testing::CoupledBlock(), inv));
  EXPECT_LT((inv * testing::CoupledBlock() - Mat3::Identity()).norm(), 1e-14);
}

// MultiplyW against a dense 3n x 3n product of the assembled W (random network, fixed seed);
// both sum the same ~n terms per row in a different order: agreement to ~1e-15 relative.
TEST(BlockProblem, MultiplyWEqualsTheDenseProduct) {
  BlockProblem p = testing::MakeRandomNetwork(25, 40, 5);
  const int n = p.size();
  MatX W = MatX::Zero(3 * n, 3 * n);
  for (int a = 0; a < n; ++a)
    for (int k = p.row_ptr[a]; k < p.row_ptr[a + 1]; ++k)
      W.block<3, 3>(3 * a, 3 * p.col[k]) = p.W[k];
  std::vector<Vec3> x(n), y;
  VecX xd(3 * n);
  for (int a = 0; a < n; ++a) {
    x[a] = Vec3(std::sin(a + 1.0), std::cos(2.0 * a), 0.5 - 0.03 * a);
    xd.segment<3>(3 * a) = x[a];
  }
  p.MultiplyW(x, y);
  const VecX yd = W * xd;
  ASSERT_EQ(static_cast<int>(y.size()), n);
  for (int a = 0; a < n; ++a)
    EXPECT_LT((y[a] - Vec3(yd.segment<3>(3 * a))).norm(), 1e-14 * (1.0 + yd.norm())) << a;
}

}  // namespace
}  // namespace solfec::solvers
