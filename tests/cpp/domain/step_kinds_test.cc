// Domain::Step with every body kind, form and scheme a deck can make: each body is stepped
// by its own integrator (one dispatch per kind) and obeys the closed form of free flight.
//
// Under a uniform gravity g every scheme moves the mass centre by the midpoint/leapfrog rule
// q(t+h) = q(t) + h/2 (u(t) + u(t+h)), u(t+h) = u(t) + h g, which is exact for a constant
// acceleration: from rest z = z0 - g t^2 / 2, velocity -g t, kinetic energy m (g t)^2 / 2.
// A uniform translation is in the null space of the stiffness of every deformable form (TL,
// BC, BC-RO, FFR, PSEUDO_RIGID), so they fall undeformed: internal energy zero. A spinning
// rigid body's spin momentum Lambda J Omega is constant (gravity has no torque about the
// mass centre) and RIG_NEG / RIG_IMP keep it exactly (rigid_integrator.cc). An OBSTACLE
// does not move.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <memory>
#include <string>
#include <vector>

#include "body/body_factory.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "body/rigid_body.h"
#include "domain/domain.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::domain {
namespace {

using body::BodyKind;
using body::FeForm;
using body::Scheme;

constexpr double kG = 9.81;  // [m/s^2] along -z
constexpr double kH = 1e-3;  // step [s]: below half the critical step of the DEF_EXP bodies
constexpr int kSteps = 20;
constexpr double kZ0 = 2.0;  // the bodies' lowest corner height [m]
// Round-off of kSteps steps on O(1) positions (a few operations a step, and for the
// deformable forms one factorized solve of a well-conditioned matrix at this step).
// Measured: positions within 9e-16 m, velocities within 3e-14 of g t (FE TL), kinetic
// energy within 1.5e-15; 1e-12 leaves room for other compilers and BLAS orderings.
constexpr double kTol = 1e-12;

struct Case {
  std::string name;
  BodyKind kind;
  FeForm form;
  Scheme scheme;
  int modes;  // BC-RO base columns (the lowest modes, rigid ones among them), else 0
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

const material::BulkMaterial kMat = testing::ElasticMaterial(1e6, 0.3, 1000.0);
const Vec3 kLo(0.0, 0.0, kZ0), kSize(1.0, 0.5, 0.25);

std::unique_ptr<body::Body> Make(const Case& c) {
  if (c.kind != BodyKind::kFiniteElement)
    return body::MakeBody(c.kind, testing::BoxShape(kLo, kSize), kMat, c.name);
  const geometry::Shape s = testing::HexMeshShape(kLo, kSize, 2, 1, 1);
  body::FeOptions fe;
  fe.form = c.form;
  if (c.modes > 0) {  // the lowest modes of K0 E = M E diag(lambda) (MODAL_ANALYSIS's base)
    const auto probe = body::MakeBody(BodyKind::kFiniteElement, s, kMat, "probe");
    const auto& p = static_cast<const body::FeBody&>(*probe);
    const MatX K = MatX(p.ReferentialStiffness());
    const VecX w = p.lumped_mass().cwiseSqrt().cwiseInverse();
    Eigen::SelfAdjointEigenSolver<MatX> es(w.asDiagonal() * (0.5 * (K + K.transpose())) *
                                           w.asDiagonal());
    fe.evecs = w.asDiagonal() * es.eigenvectors().leftCols(c.modes);
    fe.evals = es.eigenvalues().head(c.modes).cwiseMax(0.0);
  }
  return body::MakeBody(c.kind, s, kMat, c.name, std::nullopt, fe);
}

solvers::GaussSeidelSolver Solver() {
  solvers::GaussSeidelOptions o;
  o.epsilon = 1e-12;
  return solvers::GaussSeidelSolver(o);
}

class StepEveryKind : public ::testing::TestWithParam<Case> {};

TEST_P(StepEveryKind, FallsFreelyByTheClosedFormBesideAnObstacle) {
  const Case& c = GetParam();
  Domain d(Analysis::kDynamic, kH);
  d.gravity() = {ScalarOrSeries(0.0), ScalarOrSeries(0.0), ScalarOrSeries(-kG)};
  body::Body& wall = d.AddBody(body::MakeBody(
      BodyKind::kObstacle, testing::BoxShape(Vec3(5, 0, 0), Vec3(1, 1, 1)), kMat, "wall"));
  body::Body& b = d.AddBody(Make(c));
  b.scheme = c.scheme;  // as a deck sets it, after BODY
  const Vec3 x0 = b.SpatialPoint(b.center()), w0 = wall.SpatialPoint(wall.center());
  auto gs = Solver();
  for (int i = 0; i < kSteps; ++i) d.Step(gs);
  ASSERT_EQ(d.step(), kH) << "the step was lowered (critical step of a DEF_EXP body)";
  const double t = kSteps * kH;
  const Vec3 x = b.SpatialPoint(b.center());
  EXPECT_NEAR(x.x(), x0.x(), kTol);
  EXPECT_NEAR(x.y(), x0.y(), kTol);
  EXPECT_NEAR(x.z(), x0.z() - 0.5 * kG * t * t, kTol);
  const Vec3 v = b.PointVelocity(b.center());
  EXPECT_NEAR((v - Vec3(0, 0, -kG * t)).norm(), 0.0, kTol * kG * t);
  const double ke = 0.5 * b.mass() * (kG * t) * (kG * t);
  EXPECT_NEAR(b.KineticEnergy(), ke, kTol * ke);
  EXPECT_NEAR(b.InternalEnergy(), 0.0, kTol * ke);  // undeformed
  EXPECT_EQ(wall.SpatialPoint(wall.center()), w0);
  EXPECT_EQ(d.constraints().size(), 0u);  // 3 m apart: no contact
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, StepEveryKind,
    ::testing::Values(
        Case{"RIGID_RIG_NEG", BodyKind::kRigid, FeForm::kTL, Scheme::kRigNeg, 0},
        Case{"RIGID_RIG_POS", BodyKind::kRigid, FeForm::kTL, Scheme::kRigPos, 0},
        Case{"RIGID_RIG_IMP", BodyKind::kRigid, FeForm::kTL, Scheme::kRigImp, 0},
        Case{"PSEUDO_RIGID_DEF_EXP", BodyKind::kPseudoRigid, FeForm::kTL, Scheme::kDefExp, 0},
        Case{"PSEUDO_RIGID_DEF_LIM", BodyKind::kPseudoRigid, FeForm::kTL, Scheme::kDefLim, 0},
        Case{"FE_TL_DEF_EXP", BodyKind::kFiniteElement, FeForm::kTL, Scheme::kDefExp, 0},
        Case{"FE_TL_DEF_LIM", BodyKind::kFiniteElement, FeForm::kTL, Scheme::kDefLim, 0},
        Case{"FE_BC_DEF_LIM", BodyKind::kFiniteElement, FeForm::kBC, Scheme::kDefLim, 0},
        Case{"FE_BC_RO_DEF_LIM", BodyKind::kFiniteElement, FeForm::kBCRO, Scheme::kDefLim, 8},
        Case{"FE_FFR", BodyKind::kFiniteElement, FeForm::kFFR, Scheme::kDefault, 0}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// A box spinning about a tilted axis (three distinct principal moments, so Omega changes
// direction in the body) while it falls: RIG_NEG and RIG_IMP keep Lambda J Omega to
// round-off; its mass centre still falls by the closed form.
TEST(StepEveryKind, SpinningRigidBodyKeepsItsSpinMomentum) {
  for (const Scheme scheme : {Scheme::kRigNeg, Scheme::kRigImp}) {
    Domain d(Analysis::kDynamic, kH);
    d.gravity() = {ScalarOrSeries(0.0), ScalarOrSeries(0.0), ScalarOrSeries(-kG)};
    auto& b = static_cast<body::RigidBody&>(d.AddBody(
        body::MakeBody(BodyKind::kRigid, testing::BoxShape(kLo, kSize), kMat, "spinner")));
    b.scheme = scheme;
    b.SetInitialVelocity(Vec3::Zero(), Vec3(3.0, -2.0, 5.0));
    const Vec3 spin0 = b.SpinMomentum(), x0 = b.position();
    auto gs = Solver();
    for (int i = 0; i < 200; ++i) d.Step(gs);
    const double t = 200 * kH;
    EXPECT_GT((b.rotation() - Mat3::Identity()).norm(), 0.5) << "it turned";
    // 200 steps of rotation updates: measured 1.9e-14 (RIG_NEG), 4.5e-15 (RIG_IMP) of |L|
    EXPECT_NEAR((b.SpinMomentum() - spin0).norm(), 0.0, 1e-12 * spin0.norm())
        << body::SchemeName(scheme);
    EXPECT_NEAR((b.position() - x0 + Vec3(0, 0, 0.5 * kG * t * t)).norm(), 0.0, kTol);
  }
}

}  // namespace
}  // namespace solfec::domain
