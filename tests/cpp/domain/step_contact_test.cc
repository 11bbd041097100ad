// Domain::Step with contacts (DetectContacts, AssembleLocalDynamics, SolveConstraints,
// EndIntegration) on a rigid cube on an obstacle slab, against the closed forms of the
// velocity-level Signorini-Coulomb step (manual chapter 1 and 6):
// - at rest the contact forces carry the weight: their sum is m g up the normal, the cube
//   does not move;
// - sliding at v0 with friction mu the sum of the tangential forces is mu m g, so the
//   velocity drops by mu g h a step, u_{k+1} = max(u_k - mu g h, 0), and the midpoint rule
//   moves the cube by h (u_k + u_{k+1}) / 2 a step; once stopped it sticks.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "body/body_factory.h"
#include "body/box_shape.h"
#include "body/rigid_body.h"
#include "domain/domain.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::domain {
namespace {

using body::BodyKind;

constexpr double kG = 10.0;  // [m/s^2] along -z
constexpr double kH = 0.01;  // [s]
constexpr double kA = 0.2;   // cube edge [m]; density 1000: mass 8 kg
// The cube starts 0.1 mm into the slab: contacts are found from overlaps, and a velocity-level
// law keeps the overlap as it is (neither pushed out nor deeper).
constexpr double kOverlap = 1e-4;

struct Scene {
  Domain d{Analysis::kDynamic, kH};
  body::RigidBody* cube = nullptr;
};

// An OBSTACLE slab [-2, 2] x [-1, 1] x [-0.2, 0] and the cube on it at x in [-0.1, 0.1].
void Build(Scene& s, double friction) {
  s.d.gravity() = {ScalarOrSeries(0.0), ScalarOrSeries(0.0), ScalarOrSeries(-kG)};
  material::SurfaceMaterial m;
  m.friction = friction;
  m.restitution = 0.0;
  s.d.surface_materials().Insert(m);
  s.d.contact_settings().contact_points =
      4;  // the corners of the contact square: the cube cannot rock
  const material::BulkMaterial bulk = testing::Material(1000.0);
  s.d.AddBody(body::MakeBody(BodyKind::kObstacle,
                             testing::BoxShape(Vec3(-2, -1, -0.2), Vec3(4, 2, 0.2)), bulk, "slab"));
  s.cube = &static_cast<body::RigidBody&>(s.d.AddBody(body::MakeBody(
      BodyKind::kRigid, testing::BoxShape(Vec3(-0.5 * kA, -0.5 * kA, -kOverlap), Vec3(kA, kA, kA)),
      bulk, "cube")));
}

solvers::GaussSeidelSolver Tight() {
  solvers::GaussSeidelOptions o;
  o.epsilon = 1e-12;
  o.maxiter = 10000;
  return solvers::GaussSeidelSolver(o);
}

// Sum over the contacts of the force on the cube, spatial (R acts on body2 along the base).
Vec3 ContactForceOnCube(const Scene& s, int* count = nullptr) {
  Vec3 f = Vec3::Zero();
  int n = 0;
  for (const contact::Constraint& c : s.d.constraints()) {
    if (c.kind != contact::ConstraintKind::kContact) continue;
    ++n;
    const Vec3 r = c.base * c.R;
    if (c.body2 == s.cube)
      f += r;
    else if (c.body1 == s.cube)
      f -= r;
  }
  if (count) *count = n;
  return f;
}

TEST(DomainStepContact, CubeRestingOnAnObstacleCarriesItsWeight) {
  Scene s;
  Build(s, 0.3);
  const Vec3 x0 = s.cube->position();
  const double weight = s.cube->mass() * kG;
  ASSERT_NEAR(s.cube->mass(), 8.0, 1e-12);
  auto gs = Tight();
  for (int i = 0; i < 10; ++i) {
    s.d.Step(gs);
    int contacts = 0;
    const Vec3 f = ContactForceOnCube(s, &contacts);
    ASSERT_GE(contacts, 1) << "step " << i;
    EXPECT_EQ(s.d.num_contacts(), contacts);
    // Gauss-Seidel to a relative change of 1e-12; measured: round-off (4e-16 of the weight)
    EXPECT_NEAR(f.z(), weight, 1e-10 * weight) << "step " << i;
    EXPECT_NEAR(std::hypot(f.x(), f.y()), 0.0, 1e-10 * weight) << "step " << i;
  }
  EXPECT_NEAR((s.cube->position() - x0).norm(), 0.0, 1e-12);  // measured 1e-18 m
  EXPECT_NEAR(s.cube->u().norm(), 0.0, 1e-12);                // measured 8e-17 m/s
}

TEST(DomainStepContact, SlidingCubeStopsByCoulombsLaw) {
  const double mu = 0.3, v0 = 1.0;
  Scene s;
  Build(s, mu);
  s.cube->SetInitialVelocity(Vec3(v0, 0, 0), Vec3::Zero());
  const Vec3 x0 = s.cube->position();
  auto gs = Tight();
  double u = v0, x = x0.x();
  const int steps = 50;  // stops in step 34 (v0 / (mu g h) = 33.3)
  for (int k = 0; k < steps; ++k) {
    s.d.Step(gs);
    const double next = std::max(u - mu * kG * kH, 0.0);
    x += 0.5 * kH * (u + next);
    u = next;
    // Gauss-Seidel to a relative change of 1e-12 each step; measured: within 2e-15 m/s
    // over the run, forces within 6e-14 of m g (the first steps, while the patch forms)
    EXPECT_NEAR(s.cube->linear_velocity().x(), u, 1e-10) << "step " << k;
    const Vec3 f = ContactForceOnCube(s);
    if (u > 0.0) {  // sliding: friction mu m g against the motion
      EXPECT_NEAR(f.x(), -mu * s.cube->mass() * kG, 1e-10 * s.cube->mass() * kG) << k;
    }
    EXPECT_NEAR(f.z(), s.cube->mass() * kG, 1e-10 * s.cube->mass() * kG) << "step " << k;
  }
  EXPECT_EQ(u, 0.0);
  EXPECT_NEAR(s.cube->position().x(), x, 1e-10);                    // measured 2e-16 m
  EXPECT_NEAR(x - x0.x(), v0 * v0 / (2 * mu * kG), 0.5 * v0 * kH);  // the continuous stop
  EXPECT_NEAR(s.cube->position().z(), x0.z(), 1e-12);          // neither sinks nor lifts (6e-17 m)
  EXPECT_NEAR(s.cube->angular_velocity().norm(), 0.0, 1e-10);  // does not tip (3e-14 rad/s)
}

}  // namespace
}  // namespace solfec::domain
