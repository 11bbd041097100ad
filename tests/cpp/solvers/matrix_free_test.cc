// NEWTON_SOLVER with a matrix-free W (BlockProblem::W_operator, locdyn 'OFF') against the
// assembled W: same reactions; the Gauss-Seidel fallback and GS itself assemble first.
#include <gtest/gtest.h>

#include <algorithm>

#include "solvers/gauss_seidel_solver.h"
#include "solvers/merit.h"
#include "solvers/newton_solver.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

// A WOperator over a copy of an assembled W (the products a body-space operator computes
// through the bodies; here through the stored blocks, so the two paths are comparable).
class StoredOperator final : public WOperator {
 public:
  explicit StoredOperator(const BlockProblem& full) : full_(full) { full_.W_operator = nullptr; }
  void Apply(const std::vector<Vec3>& x, std::vector<Vec3>& y) const override {
    ++products;
    full_.MultiplyW(x, y);
  }
  void AssembleFull(BlockProblem& p) const override {
    ++assemblies;
    p.row_ptr = full_.row_ptr;
    p.col = full_.col;
    p.W = full_.W;
  }
  mutable int products = 0, assemblies = 0;

 private:
  BlockProblem full_;
};

// The matrix-free form of `full`: diagonal blocks only plus the operator.
BlockProblem DiagonalOnly(const BlockProblem& full, const StoredOperator& op) {
  BlockProblem p = full;
  const int n = full.size();
  p.row_ptr.resize(n + 1);
  p.col.resize(n);
  p.W.resize(n);
  for (int a = 0; a < n; ++a) {
    p.row_ptr[a + 1] = a + 1;
    p.col[a] = a;
    p.W[a] = full.W[full.row_ptr[a]];
  }
  p.W_operator = &op;
  return p;
}

double MaxNorm(const std::vector<Vec3>& v) {
  double m = 0.0;
  for (const Vec3& x : v) m = std::max(m, x.norm());
  return m;
}

// The same Newton iterations up to the summation order of the products: after convergence
// to g <= 1e-20 the reactions agree to round-off amplified by the iteration (~1e-12 |R|).
TEST(MatrixFree, NewtonWithOperatorMatchesAssembledW) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const BlockProblem full = testing::MakeRandomNetwork(30, 25, seed);
    StoredOperator op(full);
    BlockProblem a = full, b = DiagonalOnly(full, op);
    NewtonOptions o;
    o.meritval = 1e-20;
    o.gsflag = false;
    const SolverStats sa = NewtonSolver(o).Solve(a);
    const SolverStats sb = NewtonSolver(o).Solve(b);
    ASSERT_EQ(sa.error, "OK") << seed;
    ASSERT_EQ(sb.error, "OK") << seed;
    EXPECT_GT(op.products, 0);
    EXPECT_EQ(op.assemblies, 0);  // Newton never needs the blocks
    EXPECT_EQ(b.W_operator, &op);
    const double scale = MaxNorm(a.R);
    for (int r = 0; r < a.size(); ++r) {
      EXPECT_LT((a.R[r] - b.R[r]).norm(), 1e-10 * scale) << seed << " row " << r;
      EXPECT_LT((a.U[r] - b.U[r]).norm(), 1e-10 * MaxNorm(a.B)) << seed << " row " << r;
    }
  }
}

// Gauss-Seidel (alone or as Newton's fallback) assembles W through the operator once.
TEST(MatrixFree, GaussSeidelFallbackAssemblesTheOperatorOnce) {
  testing::Stack s = testing::MakeStack(4, 0.5, 3);
  StoredOperator op(s.problem);
  BlockProblem p = DiagonalOnly(s.problem, op);
  NewtonOptions o;
  o.maxiter = 1;
  o.meritval = 1e-16;
  NewtonSolver newton(o);
  const SolverStats st = newton.Solve(p);
  EXPECT_TRUE(newton.fell_back());
  EXPECT_EQ(op.assemblies, 1);
  EXPECT_EQ(p.W_operator, nullptr);
  EXPECT_EQ(st.error, "OK");
  for (int k = 0; k < p.size(); ++k)  // analytic static reactions of the stack
    EXPECT_NEAR(p.R[k].z(), s.expected_RN[k], 1e-6 * s.expected_RN[0]) << k;
}

TEST(MatrixFree, ComputeUAndMeritUseTheOperator) {
  const BlockProblem full = testing::MakeRandomNetwork(10, 12, 7);
  StoredOperator op(full);
  BlockProblem a = full, b = DiagonalOnly(full, op);
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int r = 0; r < a.size(); ++r) a.R[r] = b.R[r] = Vec3(0.1 * u(gen), 0.1 * u(gen), u(gen));
  const double ga = ComputeMerit(a), gb = ComputeMerit(b);
  EXPECT_NEAR(ga, gb, 1e-14 * ga);  // same sums in the same order
  for (int r = 0; r < a.size(); ++r) EXPECT_NEAR((a.U[r] - b.U[r]).norm(), 0.0, 1e-14);
}

TEST(MatrixFree, NewtonReportsMatrixFreeOnlyWithLocdynOff) {
  NewtonOptions o;
  EXPECT_FALSE(NewtonSolver(o).matrix_free());
  o.locdyn = false;
  EXPECT_TRUE(NewtonSolver(o).matrix_free());
  EXPECT_FALSE(GaussSeidelSolver().matrix_free());
}

}  // namespace
}  // namespace solfec::solvers
