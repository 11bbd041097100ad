// kSpring rows (PUT_SPRING's linearised spring-dashpot law R_N = f + s (U_N - U0), R_T = 0)
// in every solver against closed forms: one spring row alone, and a spring plus a contact.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "base/errors.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/merit.h"
#include "solvers/newton_solver.h"
#include "solvers/penalty_solver.h"
#include "solver_test_problems.h"

namespace solfec::solvers {
namespace {

using testing::CoupledBlock;
using testing::SingleRow;

// Closed forms and one linear row: round-off ~1e-15 on O(1) data; Newton stops at merit
// 1e-24 (relative residual ~1e-12), hence the looser kNewton.
constexpr double kExact = 1e-12;
constexpr double kNewton = 1e-9;

Law Spring(double force, double slope, double U0) {
  Law law;
  law.kind = LawKind::kSpring;
  law.spring_force = force;
  law.spring_slope = slope;
  law.spring_U0 = U0;
  return law;
}

// The three solvers, tuned tight.
std::vector<std::unique_ptr<ConstraintSolver>> AllSolvers() {
  std::vector<std::unique_ptr<ConstraintSolver>> v;
  GaussSeidelOptions g;
  g.epsilon = 1e-14;
  g.meritval = 1e-26;
  g.maxiter = 5000;
  v.push_back(std::make_unique<GaussSeidelSolver>(g));
  NewtonOptions n;
  n.meritval = 1e-24;
  n.gsflag = false;
  v.push_back(std::make_unique<NewtonSolver>(n));
  v.push_back(std::make_unique<PenaltySolver>());
  return v;
}

double Tolerance(const ConstraintSolver& s) {
  return std::string(s.name()) == "NEWTON_SOLVER" ? kNewton : kExact;
}

// One row: U = B + W R, R_T = 0, R_N = f + s (U_N - U0) gives
// R_N = (f + s (B_N - U0)) / (1 - s W_NN).
TEST(SpringLaw, SingleSpringRowHasTheClosedFormReactionInEverySolver) {
  const Mat3 W = CoupledBlock();
  const Vec3 B(0.3, -0.2, 0.7);
  const double f = -1.5, s = -2.0, U0 = 0.1;
  const double RN = (f + s * (B.z() - U0)) / (1.0 - s * W(2, 2));
  for (const auto& solver : AllSolvers()) {
    BlockProblem p = SingleRow(W, B, Spring(f, s, U0));
    p.step = 1e-3;
    const SolverStats st = solver->Solve(p);
    const double tol = Tolerance(*solver);
    EXPECT_EQ(st.error, "OK") << solver->name();
    EXPECT_NEAR(p.R[0].x(), 0.0, tol) << solver->name();
    EXPECT_NEAR(p.R[0].y(), 0.0, tol) << solver->name();
    EXPECT_NEAR(p.R[0].z(), RN, tol * std::abs(RN)) << solver->name();
    // The law holds with the returned U.
    EXPECT_NEAR(p.R[0].z(), f + s * (p.U[0].z() - U0), tol) << solver->name();
    const Vec3 U = B + W * p.R[0];
    EXPECT_NEAR((p.U[0] - U).norm(), 0.0, kExact) << solver->name();
  }
}

// The merit share of a spring row is the energy of the force error, <W dR, dR> / den:
// zero at the solution and (W_NN dR_N^2) / <W^-1 B, B> for R off by dR_N along N.
TEST(SpringLaw, MeritIsTheEnergyOfTheForceError) {
  const Mat3 W = CoupledBlock();
  const Vec3 B(0.3, -0.2, 0.7);
  const double f = 2.0, s = -0.5, U0 = 0.0;
  BlockProblem p = SingleRow(W, B, Spring(f, s, U0));
  const double RN = (f + s * (B.z() - U0)) / (1.0 - s * W(2, 2));
  p.R = {Vec3(0.0, 0.0, RN)};
  EXPECT_NEAR(ComputeMerit(p), 0.0, 1e-28);  // round-off squared
  const double dR = 0.01;
  p.R = {Vec3(0.0, 0.0, RN + dR)};
  // R_N - f - s (U_N - U0) = dR (1 - s W_NN) after the shift of U_N by W_NN dR.
  const double e = dR * (1.0 - s * W(2, 2));
  const double expected = e * e * W(2, 2) / B.dot(W.inverse() * B);
  EXPECT_NEAR(ComputeMerit(p), expected, 1e-12 * expected);
}

// A point mass m on a floor (contact row 0, normal +z) held by a spring to the ground
// (row 1, single-body, base = identity so U_1 = v): W = h/m for both rows, coupled by the
// shared body. Resting (v_N = 0): R_spring = f - s U0 and R_contact = m g - R_spring.
// Lifted (f > m g): the contact opens (R_contact = 0) and v_N solves
// v_N = -g h + (h/m) (f + s (v_N - U0)).
BlockProblem MassOnFloorWithSpring(double m, double g, double h, const Law& spring) {
  BlockProblem p;
  p.Resize(2);
  p.step = h;
  const Mat3 w = Mat3::Identity() * (h / m);
  p.row_ptr = {0, 2, 4};
  p.col = {0, 1, 1, 0};
  p.W = {w, w, w, w};
  const Vec3 vfree(0.0, 0.0, -g * h);
  p.B = {vfree, vfree};
  Law contact;
  contact.friction = 0.5;
  p.laws = {contact, spring};
  return p;
}

TEST(SpringLaw, SpringAndContactShareTheLoadOfARestingMass) {
  const double m = 2.0, g = 9.81, h = 1e-3, U0 = 0.05, s = -30.0, f = 5.0;
  const double Rs = f - s * U0;  // 6.5 N < m g = 19.62 N: the contact stays closed
  for (const auto& solver : AllSolvers()) {
    if (std::string(solver->name()) == "PENALTY_SOLVER") continue;  // contacts as springs
    BlockProblem p = MassOnFloorWithSpring(m, g, h, Spring(f, s, U0));
    const SolverStats st = solver->Solve(p);
    const double tol = Tolerance(*solver);
    EXPECT_EQ(st.error, "OK") << solver->name();
    EXPECT_NEAR(p.U[0].z(), 0.0, tol) << solver->name();
    EXPECT_NEAR(p.R[1].z(), Rs, tol * Rs) << solver->name();
    EXPECT_NEAR(p.R[0].z(), m * g - Rs, tol * m * g) << solver->name();
    EXPECT_NEAR(p.R[0].head<2>().norm() + p.R[1].head<2>().norm(), 0.0, tol) << solver->name();
  }
}

TEST(SpringLaw, AStrongSpringLiftsTheMassOffTheFloor) {
  const double m = 2.0, g = 9.81, h = 1e-3, U0 = 0.0, s = -30.0, f = 50.0;
  // v_N (1 - s h/m) = -g h + (h/m)(f - s U0).
  const double vN = (-g * h + (h / m) * (f - s * U0)) / (1.0 - s * h / m);
  ASSERT_GT(vN, 0.0);
  for (const auto& solver : AllSolvers()) {
    if (std::string(solver->name()) == "PENALTY_SOLVER") continue;  // contacts as springs
    BlockProblem p = MassOnFloorWithSpring(m, g, h, Spring(f, s, U0));
    const SolverStats st = solver->Solve(p);
    const double tol = Tolerance(*solver);
    EXPECT_EQ(st.error, "OK") << solver->name();
    EXPECT_NEAR(p.R[0].norm(), 0.0, tol * f) << solver->name();
    EXPECT_NEAR(p.U[0].z(), vN, tol) << solver->name();
    EXPECT_NEAR(p.R[1].z(), f + s * (vN - U0), tol * f) << solver->name();
  }
}

// Under PENALTY_SOLVER the spring row is solved with the contact (a spring-dashpot of
// stiffness k, no dashpot) fixed, sweep after sweep: at the fixed point the spring law
// holds exactly with the returned U.
TEST(SpringLaw, PenaltySolverSatisfiesTheSpringLawNextToAPenaltyContact) {
  const double m = 2.0, g = 9.81, h = 1e-3, U0 = 0.05, s = -30.0, f = 5.0;
  BlockProblem p = MassOnFloorWithSpring(m, g, h, Spring(f, s, U0));
  p.laws[0].spring = 1e5;
  p.laws[0].gap = -1e-4;
  PenaltySolver solver;
  const SolverStats st = solver.Solve(p);
  EXPECT_TRUE(st.converged);
  EXPECT_NEAR(p.R[1].z(), f + s * (p.U[1].z() - U0), 1e-9);  // sweeps stop at 1e-8 relative
  EXPECT_NEAR(p.R[1].head<2>().norm(), 0.0, kExact);
}

TEST(SpringLaw, ValidateRejectsNonFiniteSpringData) {
  BlockProblem p = SingleRow(CoupledBlock(), Vec3(0, 0, 1), Spring(1.0, NAN, 0.0));
  EXPECT_THROW(p.Validate("RUN"), SolverError);
  p.laws[0] = Spring(1.0, -1.0, 0.0);
  EXPECT_NO_THROW(p.Validate("RUN"));
}

// A positive slope with 1 - s W_NN <= 0 has no solution: the Gauss-Seidel row fails.
TEST(SpringLaw, UnstableSlopeIsReportedAsDiagonalFailure) {
  const Mat3 W = CoupledBlock();  // W_NN = 1
  BlockProblem p = SingleRow(W, Vec3(0, 0, 1), Spring(1.0, 2.0, 0.0));
  GaussSeidelSolver gs;
  const SolverStats st = gs.Solve(p);
  EXPECT_EQ(st.error, "DIAGONAL_FAILED");
}

}  // namespace
}  // namespace solfec::solvers
