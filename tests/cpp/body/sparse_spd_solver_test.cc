// SparseSpdSolver: CHOLMOD solves against a dense reference, symbolic reuse, non-SPD refusal.
#include "body/fem/sparse_spd_solver.h"

#include <vector>

#include <Eigen/Cholesky>
#include <gtest/gtest.h>

namespace solfec::body {
namespace {

using SparseMat = Eigen::SparseMatrix<double>;

// 3D 7-point Laplacian on an n^3 grid scaled by k, plus m on the diagonal (an M + c K like
// operator): SPD for m > 0.
SparseMat GridOperator(int n, double m, double k) {
  std::vector<Eigen::Triplet<double>> t;
  auto id = [n](int i, int j, int l) { return (i * n + j) * n + l; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l) {
        const int a = id(i, j, l);
        t.emplace_back(a, a, m + 6.0 * k);
        const int nb[3][3] = {{i + 1, j, l}, {i, j + 1, l}, {i, j, l + 1}};
        for (const auto& b : nb)
          if (b[0] < n && b[1] < n && b[2] < n) {
            t.emplace_back(a, id(b[0], b[1], b[2]), -k);
            t.emplace_back(id(b[0], b[1], b[2]), a, -k);
          }
      }
  SparseMat A(n * n * n, n * n * n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

TEST(SparseSpdSolver, SolvesLikeADenseCholesky) {
  const SparseMat A = GridOperator(6, 1.0, 50.0);
  MatX B = MatX::Random(A.rows(), 3);
  const MatX expected = MatX(A).llt().solve(B);
  SparseSpdSolver s;
  ASSERT_TRUE(s.Factorize(A));
  s.Solve(B);
  // A is well conditioned (cond < 1 + 12 * 50): round-off level agreement.
  EXPECT_LT((B - expected).norm() / expected.norm(), 1e-12);
}

TEST(SparseSpdSolver, ReusesTheSymbolicAnalysisWhileThePatternHolds) {
  SparseSpdSolver s;
  ASSERT_TRUE(s.Factorize(GridOperator(5, 1.0, 1.0)));
  ASSERT_TRUE(s.Factorize(GridOperator(5, 2.0, 3.0)));  // same pattern, new values
  EXPECT_EQ(s.symbolic_analyses(), 1);
  ASSERT_TRUE(s.Factorize(GridOperator(4, 2.0, 3.0)));  // new pattern
  EXPECT_EQ(s.symbolic_analyses(), 2);
  MatX b = MatX::Ones(64, 1);
  const SparseMat A = GridOperator(4, 2.0, 3.0);
  const MatX expected = MatX(A).llt().solve(b);
  s.Solve(b);
  EXPECT_LT((b - expected).norm(), 1e-12 * expected.norm());
}

TEST(SparseSpdSolver, RefusesAnIndefiniteMatrix) {
  SparseSpdSolver s;
  EXPECT_FALSE(s.Factorize(GridOperator(4, -20.0, 1.0)));  // diagonal shift below -lambda_min
  EXPECT_FALSE(s.factorized());
}

}  // namespace
}  // namespace solfec::body
