// Domain::Step stage by stage on small rigid models with closed-form answers: free flight
// (BeginIntegration / EndIntegration), a fixed point carrying a cube's weight and breaking
// above its strength (AssembleLocalDynamics, SolveConstraints, BreakConstraints), RUN
// callbacks and step observers on their intervals (IntervalEvent), and a distributed
// decomposition: the solver's coupling capability is checked before anything moves, and
// the coupled solve over a single process reproduces the serial step.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/errors.h"
#include "base/interval_event.h"
#include "body/body_factory.h"
#include "domain/domain.h"
#include "solvers/auto_solver.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/newton_solver.h"

namespace solfec::domain {
namespace {

constexpr double kG = 10.0;  // gravity [m/s^2], along -z

geometry::Shape Cube(double half, const Vec3& c) {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i)
    p.push_back(c + half * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
  geometry::Shape s;
  s.convexes.push_back(geometry::Hull(p, 1, 1));
  return s;
}

// A rigid cube of edge 0.2 m (density 1000: mass 8 kg) centred at c, under gravity.
body::Body& AddCube(Domain& d, const Vec3& c) {
  material::BulkMaterial m;
  m.label = "m";
  d.gravity() = {ScalarOrSeries(0.0), ScalarOrSeries(0.0), ScalarOrSeries(-kG)};
  return d.AddBody(body::MakeBody(body::BodyKind::kRigid, Cube(0.1, c), m, "cube"));
}

// FIX_POINT at the cube's mass centre (as the deck routine builds it).
contact::Constraint& FixCentre(Domain& d, body::Body& b, double strength) {
  contact::Constraint c;
  c.kind = contact::ConstraintKind::kFixPoint;
  c.body1 = &b;
  c.X1 = b.center();
  c.X_origin = b.SpatialPoint(b.center());
  c.strength = strength;
  return d.AddConstraint(std::move(c));
}

solvers::GaussSeidelSolver TightGaussSeidel() {
  solvers::GaussSeidelOptions o;
  o.epsilon = 1e-12;
  o.maxiter = 1000;
  return solvers::GaussSeidelSolver(o);
}

// The midpoint scheme q(t+h) = q(t+h/2) + h/2 u(t+h), u(t+h) = u(t) + h g is exact for a
// constant acceleration: after n steps from rest z = z0 - g (n h)^2 / 2 and the kinetic
// energy is m (g n h)^2 / 2 (round-off only).
TEST(DomainStep, FreeFlightUnderGravityIsExact) {
  Domain d(Analysis::kDynamic, 0.01);
  body::Body& b = AddCube(d, Vec3(0, 0, 1));
  auto gs = TightGaussSeidel();
  for (int i = 0; i < 25; ++i) d.Step(gs);
  const double t = 25 * 0.01;
  EXPECT_NEAR(d.time(), t, 1e-15);
  EXPECT_EQ(d.step_count(), 25);
  EXPECT_NEAR(b.SpatialPoint(b.center()).z(), 1.0 - 0.5 * kG * t * t, 1e-13);
  EXPECT_NEAR(b.KineticEnergy(), 0.5 * b.mass() * (kG * t) * (kG * t), 1e-11);
  EXPECT_NEAR(b.mass(), 8.0, 1e-12);
}

// A cube held at its centre: the fixed point's average force is the weight m g, and the
// cube stays at rest. The constraint survives a strength above m g and breaks (is removed
// after the step) below it.
TEST(DomainStep, FixedPointCarriesTheWeightAndBreaksAboveItsStrength) {
  for (const double factor : {1.01, 0.99}) {
    Domain d(Analysis::kDynamic, 0.01);
    body::Body& b = AddCube(d, Vec3(0, 0, 1));
    const double weight = b.mass() * kG;
    FixCentre(d, b, factor * weight);
    auto gs = TightGaussSeidel();
    d.Step(gs);
    ASSERT_EQ(d.last_problem().size(), 1);
    EXPECT_NEAR(d.last_problem().R[0].norm(), weight, 1e-9 * weight);
    EXPECT_NEAR(b.SpatialPoint(b.center()).z(), 1.0, 1e-12);  // held in this step either way
    EXPECT_EQ(d.constraints().size(), factor > 1.0 ? 1u : 0u) << factor;
    d.Step(gs);  // broken: free fall from rest over one step, z = 1 - g h^2 / 2
    const double z = factor > 1.0 ? 1.0 : 1.0 - 0.5 * kG * 0.01 * 0.01;
    EXPECT_NEAR(b.SpatialPoint(b.center()).z(), z, 1e-12) << factor;
  }
}

// RUN callbacks every 0.3 s with steps of 0.1 s fire at t = 0.3, 0.6, 0.9 although the
// summed steps land 1 ulp off (0.30000000000000004); a step observer runs after each step;
// a callback returning false stops RUN at its time.
TEST(DomainStep, CallbacksAndObserversFollowTheirIntervals) {
  Domain d(Analysis::kDynamic, 0.1);
  AddCube(d, Vec3(0, 0, 1));
  std::vector<double> called;
  int observed = 0;
  d.AddCallback(0.3, [&] {
    called.push_back(d.time());
    return true;
  });
  d.AddStepObserver([&](const Domain&) { ++observed; });
  auto gs = TightGaussSeidel();
  EXPECT_TRUE(d.Run(gs, 1.0));
  ASSERT_EQ(called.size(), 3u);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(called[k], 0.3 * (k + 1), 1e-12);
  EXPECT_EQ(observed, 10);

  Domain e(Analysis::kDynamic, 0.1);
  AddCube(e, Vec3(0, 0, 1));
  e.AddCallback(0.2, [] { return false; });
  EXPECT_FALSE(e.Run(gs, 1.0));
  EXPECT_NEAR(e.time(), 0.2, 1e-12);
}

TEST(IntervalEvent, DueWithinOneBillionthOfAStep) {
  IntervalEvent e{0.3, 0.3};
  const double h = 0.1;
  EXPECT_TRUE(e.Due(0.3 - 0.5e-9 * h, h));
  EXPECT_FALSE(e.Due(0.3 - 2e-9 * h, h));
  const double t = 0.1 + 0.1 + 0.1;  // 0.30000000000000004
  EXPECT_TRUE(e.Due(t, h));
  e.MovePast(t, h, e.interval);
  EXPECT_NEAR(e.next, 0.6, 1e-15);
  e.MovePast(0.9 + 1e-12, h, e.interval);  // several intervals at once
  EXPECT_NEAR(e.next, 1.2, 1e-15);
}

// A decomposition that says the step is distributed over a single rank, coupling the
// solver through a SerialCoupling (no other processes).
class OneRank final : public Decomposition {
 public:
  void BeginStep(Domain&) override { ++steps; }
  bool Owns(const body::Body&) const override { return true; }
  bool Active(const body::Body&) const override { return true; }
  bool Home(const contact::Constraint&) const override { return true; }
  solvers::ProcessCoupling* PrepareSolve(Domain&, const std::vector<contact::Constraint*>&,
                                         solvers::BlockProblem&) override {
    return &coupling;
  }
  void FinishSolve(Domain&) override {}
  std::vector<Id> GatherIds(const std::vector<Id>& mine) override { return mine; }
  void Synchronize(Domain&) override {}
  void GatherProblem(const Domain& d, solvers::BlockProblem& whole,
                     std::vector<ProblemRow>& rows) override {
    whole = d.last_problem();
    rows = d.last_problem_rows();
  }
  void SetBalance(double, bool, double, double, int) override {}
  std::map<std::string, double> Stats() override { return {}; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int steps = 0;
  solvers::SerialCoupling coupling;
};

// A solver without a coupled solve (AUTO_SOLVER) is refused before anything moves; the
// coupled Gauss-Seidel and Newton solves over one process give the serial trajectory of a
// cube held by a fixed point off its centre (a swinging pendulum: rows with friction-free
// equality laws and a rotating body), to round-off.
TEST(DomainStep, DistributedStepChecksTheSolverAndCouplesOverOneRank) {
  Domain refused(Analysis::kDynamic, 0.01);
  AddCube(refused, Vec3(0, 0, 1));
  refused.SetDecomposition(std::make_unique<OneRank>());
  ASSERT_TRUE(refused.distributed());
  solvers::AutoSolver automatic;
  try {
    refused.Step(automatic);
    FAIL() << "AUTO_SOLVER accepted in a distributed step";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("AUTO_SOLVER"), std::string::npos) << e.what();
  }
  EXPECT_EQ(refused.time(), 0.0);

  const auto swing = [](bool distributed, solvers::ConstraintSolver& solver) {
    Domain d(Analysis::kDynamic, 0.005);
    body::Body& b = AddCube(d, Vec3(0, 0, 1));
    contact::Constraint c;
    c.kind = contact::ConstraintKind::kFixPoint;
    c.body1 = &b;
    c.X1 = b.center() + Vec3(0.1, 0, 0.1);  // an upper edge: the cube swings about it
    c.X_origin = b.SpatialPoint(c.X1);
    d.AddConstraint(std::move(c));
    OneRank* rank = nullptr;
    if (distributed) {
      auto one = std::make_unique<OneRank>();
      rank = one.get();
      d.SetDecomposition(std::move(one));
    }
    for (int i = 0; i < 40; ++i) d.Step(solver);
    if (rank) {
      EXPECT_EQ(rank->steps, 40);
    }
    return b.SpatialPoint(b.center());
  };
  auto gs = TightGaussSeidel();
  const Vec3 serial = swing(false, gs);
  EXPECT_GT((serial - Vec3(0, 0, 1)).norm(), 1e-3);  // it did swing
  EXPECT_NEAR((swing(true, gs) - serial).norm(), 0.0, 1e-12);
  solvers::NewtonOptions no;
  no.meritval = 1e-20;
  solvers::NewtonSolver newton(no);
  const Vec3 newton_serial = swing(false, newton);
  EXPECT_NEAR((newton_serial - serial).norm(), 0.0, 1e-9);  // both solve the rows exactly
  EXPECT_NEAR((swing(true, newton) - newton_serial).norm(), 0.0, 1e-12);
}

}  // namespace
}  // namespace solfec::domain
