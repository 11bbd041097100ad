// Direct solve of all-equality local dynamics (solvers/equality_direct.h) and NEWTON_SOLVER's
// use of it: a mass held by FIX_POINT, a second linked to it by an equality row with a
// prescribed relative velocity, and a redundant FIX_DIRECTION row on the first mass; the
// masses' velocities must come out as prescribed (closed form), in one Newton iteration.
#include "solvers/equality_direct.h"

#include <gtest/gtest.h>

#include <random>

#include "solvers/newton_solver.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

struct Held {
  BlockProblem problem;
  std::vector<Mat3> M_inv;
  testing::Coupling coupling;
  std::vector<Vec3> u_free;
  Vec3 link_target;
};

// Rows: 0 FIX_POINT on body 0 (U = u0 = 0); 1 link U = u1 - u0 = t; 2 FIX_DIRECTION z on
// body 0 (U_N = u0_z = 0, R_T = 0), redundant with row 0.
Held MakeHeld() {
  Held m;
  std::mt19937 gen(5);
  m.M_inv = {testing::RandomInverseInertia(2.0, gen), testing::RandomInverseInertia(0.5, gen)};
  m.coupling.body = {{0}, {0, 1}, {0}};
  m.coupling.H = {{Mat3::Identity()}, {-Mat3::Identity(), Mat3::Identity()}, {Mat3::Identity()}};
  m.u_free = {Vec3(0.1, -0.2, -0.981), Vec3(0.3, 0.0, -0.981)};
  m.link_target = Vec3(0.05, -0.4, 0.2);
  BlockProblem& p = m.problem;
  p.Resize(3);
  testing::AssembleW(m.coupling, m.M_inv, p);
  p.laws[0].kind = LawKind::kEquality;
  p.laws[1].kind = LawKind::kEquality;
  p.laws[1].target = m.link_target;
  p.laws[2].kind = LawKind::kNormalEquality;
  p.B = {m.u_free[0], m.u_free[1] - m.u_free[0], m.u_free[0]};
  return m;
}

// Body velocities u = u_free + M^-1 sum H^T R.
std::vector<Vec3> Velocities(const Held& m) {
  std::vector<Vec3> u = m.u_free;
  for (int r = 0; r < 3; ++r)
    for (size_t i = 0; i < m.coupling.body[r].size(); ++i) {
      const int b = m.coupling.body[r][i];
      u[b] += m.M_inv[b] * m.coupling.H[r][i].transpose() * m.problem.R[r];
    }
  return u;
}

TEST(EqualityDirect, HeldMassesMoveAsPrescribed) {
  Held m = MakeHeld();
  ASSERT_TRUE(SolveEqualitiesDirectly(m.problem));
  const std::vector<Vec3> u = Velocities(m);
  EXPECT_LT(u[0].norm(), 1e-13);
  EXPECT_LT((u[1] - m.link_target).norm(), 1e-13);
  EXPECT_LT((m.problem.U[1] - m.link_target).norm(), 1e-13);
  EXPECT_EQ(m.problem.R[2].x(), 0.0);  // the normal-equality row has no tangential reaction
  EXPECT_EQ(m.problem.R[2].y(), 0.0);
}

TEST(EqualityDirect, NewtonSolvesInOneIteration) {
  Held m = MakeHeld();
  NewtonOptions o;
  o.meritval = 1e-24;
  NewtonSolver s(o);
  const SolverStats st = s.Solve(m.problem);
  EXPECT_TRUE(st.converged);
  EXPECT_EQ(st.iters, 1);
  EXPECT_LE(st.merit, 1e-24);
  const std::vector<Vec3> u = Velocities(m);
  EXPECT_LT(u[0].norm(), 1e-13);
  EXPECT_LT((u[1] - m.link_target).norm(), 1e-13);
}

TEST(EqualityDirect, ContactRowsAreNotSolvedDirectly) {
  Held m = MakeHeld();
  m.problem.laws[1] = testing::Contact(0.3);
  const std::vector<Vec3> R = m.problem.R;
  EXPECT_FALSE(SolveEqualitiesDirectly(m.problem));
  EXPECT_EQ(m.problem.R, R);
}


// A mass held by FIX_POINT (row 0) and by a redundant FIX_DIRECTION (row 2) with a second
// mass falling on it (row 1: contact, normal z, friction 0.9): both masses stop (u = 0),
// the contact reaction is -M_1 u_free_1 (inside the cone: M_1 departs from m I by < 30%).
Held MakeContactOnHeld() {
  Held m = MakeHeld();
  m.u_free[1] = Vec3(0.0, 0.0, -0.981);
  m.problem.laws[1] = testing::Contact(0.9);
  m.problem.B[1] = m.u_free[1] - m.u_free[0];
  return m;
}

TEST(EqualityDirect, EliminationLeavesTheContactRowsToNewton) {
  Held m = MakeContactOnHeld();
  EqualityElimination elimination;
  BlockProblem reduced;
  ASSERT_TRUE(elimination.Reduce(m.problem, reduced));
  ASSERT_EQ(reduced.size(), 1);
  NewtonOptions o;
  o.meritval = 1e-24;
  const SolverStats st = NewtonSolver(o).Solve(reduced);
  EXPECT_TRUE(st.converged);
  elimination.Expand(reduced, m.problem);
  const std::vector<Vec3> u = Velocities(m);
  EXPECT_LT(u[0].norm(), 1e-12);
  EXPECT_LT(u[1].norm(), 1e-12);
  EXPECT_LT((m.problem.R[1] + m.M_inv[1].inverse() * m.u_free[1]).norm(), 1e-12);
}

// The matrix-free form (locdyn 'OFF', where NEWTON_SOLVER eliminates the equality rows):
// products through a copy of the assembled W.
class StoredOperator final : public WOperator {
 public:
  explicit StoredOperator(const BlockProblem& full) : full_(full) {}
  void Apply(const std::vector<Vec3>& x, std::vector<Vec3>& y) const override {
    full_.MultiplyW(x, y);
  }
  void AssembleFull(BlockProblem& p) const override {
    ++assemblies;
    p.row_ptr = full_.row_ptr;
    p.col = full_.col;
    p.W = full_.W;
  }
  mutable int assemblies = 0;

 private:
  BlockProblem full_;
};

TEST(EqualityDirect, MatrixFreeNewtonOnMixedRowsHoldsTheSupportsExactly) {
  Held m = MakeContactOnHeld();
  const StoredOperator op(m.problem);
  BlockProblem& p = m.problem;
  for (int a = 0; a < 3; ++a) {  // diagonal blocks only, plus the operator
    const Mat3 d = p.W[p.row_ptr[a]];
    p.W[a] = d;
    p.col[a] = a;
  }
  p.W.resize(3);
  p.col.resize(3);
  for (int a = 0; a <= 3; ++a) p.row_ptr[a] = a;
  p.W_operator = &op;
  NewtonOptions o;
  o.meritval = 1e-24;
  o.locdyn = false;
  const SolverStats st = NewtonSolver(o).Solve(p);
  EXPECT_TRUE(st.converged);
  EXPECT_EQ(op.assemblies, 1);  // the elimination assembled W once
  const std::vector<Vec3> u = Velocities(m);
  EXPECT_LT(u[0].norm(), 1e-12);
  EXPECT_LT(u[1].norm(), 1e-12);
}

}  // namespace
}  // namespace solfec::solvers
