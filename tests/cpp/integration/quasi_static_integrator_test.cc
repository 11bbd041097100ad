// Tests of the QUASI_STATIC stepping: rigid bodies under a net load, the contraction of the
// equilibrium error of pseudo-rigid and finite-element bodies to the static SVK solution,
// and the absence of kinetic memory.
#include "integration/quasi_static_integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "body/rigid_body.h"
#include "integration/integrator.h"

namespace solfec::integration {
namespace {

using body::BodyKind;

void QsStep(body::Body& b, double t, double h, const Vec3& g = Vec3::Zero()) {
  const auto in = MakeIntegrator(b, Mode::kQuasiStatic);
  in->CheckStep(h);
  in->BeginStep(t, h);
  in->FreeVelocity(t, h, g);
  in->EndStep(t, h);
}

material::BulkMaterial Mat(double young, double poisson) {
  material::BulkMaterial m = testing::Material(1e3);
  m.young = young;
  m.poisson = poisson;
  return m;
}

// Uniaxial SVK stretch under the nominal stress s: lambda (lambda^2 - 1) / 2 E = s, by
// Newton's method from lambda = 1 (monotone cubic, converges to round-off).
double SvkStretch(double s, double young) {
  double l = 1.0;
  for (int k = 0; k < 50; ++k)
    l -= (0.5 * young * l * (l * l - 1) - s) / (0.5 * young * (3 * l * l - 1));
  return l;
}

// A free rigid body under gravity: A = diag(J, m I), so every step moves it by h^2 g with
// the velocity h g, the same in every step (no kinetic memory: the velocity is not carried).
TEST(QuasiStaticIntegrator, RigidBodyUnderANetLoadMovesByHSquaredGEveryStep) {
  body::RigidBody b(BodyKind::kRigid, testing::BoxShape(Vec3::Zero(), Vec3(1, 1, 1)),
                    testing::Material(1e3), "cube");
  const Vec3 g(0, 0, -10), x0 = b.position();
  const double h = 0.5;
  for (int n = 0; n < 3; ++n) {
    QsStep(b, n * h, h, g);
    EXPECT_NEAR((b.linear_velocity() - h * g).norm(), 0.0, 1e-14);
  }
  EXPECT_NEAR((b.position() - (x0 + 3 * h * h * g)).norm(), 0.0, 1e-13);
  EXPECT_NEAR((b.rotation() - Mat3::Identity()).norm(), 0.0, 1e-15);
  // External work (f(t) + f(t+h))/2 . dq with constant gravity: m g . displacement.
  EXPECT_NEAR(b.external_work, b.mass() * g.dot(b.position() - x0), 1e-9);
}

// Pulling a pseudo-rigid cube by opposite forces +-T along x at X = +-1/2 (net force zero,
// generalized F-force T e_x e_x^T): the static solution is the uniaxial SVK stretch with
// nu = 0 (P11 = T / A, A = 1). The first step is one Newton step from F = I (error
// ~ 3/2 strain relative); each later step contracts the error at least by the Newton rate
// plus the regularisation factor 1/(1 + (h w)^2), w^2 = 12 E / rho = 12000 at h = 1.
TEST(QuasiStaticIntegrator, PseudoRigidCubeConvergesToTheStaticSvkStretch) {
  body::PseudoRigidBody b(testing::BoxShape(Vec3(-0.5, -0.5, -0.5), Vec3(1, 1, 1)),
                          Mat(1e6, 0.0), "cube");
  const double T = 1e4;  // strain ~ 1e-2
  for (double sign : {-1.0, 1.0}) {
    body::PointLoad load;
    load.point = Vec3(0.5 * sign, 0, 0);
    load.direction = Vec3(sign, 0, 0);
    load.value = ScalarOrSeries(T);
    b.loads().push_back(load);
  }
  const double lam = SvkStretch(T, 1e6);
  const double h = 1.0;
  double err_prev = 1.0;
  for (int n = 0; n < 6; ++n) {
    QsStep(b, n * h, h);
    const double err = std::abs(b.deformation()(0, 0) - lam) / (lam - 1);
    if (n == 0) {
      EXPECT_LT(err, 0.03);
    } else if (err_prev > 1e-12) {
      EXPECT_LT(err, 0.05 * err_prev);
    }
    err_prev = err;
  }
  EXPECT_LT(err_prev, 1e-10);
  EXPECT_NEAR(b.deformation()(1, 1), 1.0, 1e-12);  // nu = 0: no lateral contraction
  EXPECT_NEAR(b.position().norm(), 0.0, 1e-14);    // self-equilibrated load
  // Pseudo-velocity: the last increment over h, which has become negligible.
  EXPECT_LT(b.u().norm(), 1e-10);
}

// The bar of fe_integrator_test in QUASI_STATIC: 4 HEX8 in a row, end loads +-T (nu = 0,
// uniform stress, exact for the trilinear field): the stretch reaches the SVK solution to
// round-off in a few steps instead of the 750 damped dynamic steps.
TEST(QuasiStaticIntegrator, FeBarReachesTheSvkStretchInAFewSteps) {
  body::FeBody bar(testing::HexMeshShape(Vec3::Zero(), Vec3(4, 1, 1), 4, 1, 1), Mat(1e6, 0.0),
                   "bar");
  const double T = 1e3;
  VecX fn = VecX::Zero(bar.num_dofs());
  for (int i = 0; i < bar.num_nodes(); ++i) {
    const double X = bar.mesh().nodes[i].x();
    if (X < 1e-12) fn[3 * i] = -T / 4;
    if (X > 4 - 1e-12) fn[3 * i] = T / 4;
  }
  body::PointLoad load;
  load.callback = [fn](const VecX&, const VecX&, double, double) { return fn; };
  bar.loads().push_back(load);
  const double h = 1.0;  // lowest axial w = pi c / L ~ 25 rad/s: h w ~ 25
  for (int n = 0; n < 6; ++n) QsStep(bar, n * h, h);
  for (int i = 0; i < bar.num_nodes(); ++i) {
    const Vec3 X = bar.mesh().nodes[i];
    // Uniform stretch about the (unmoved) mid-section: x = 2 + lam (X - 2).
    EXPECT_NEAR(bar.node(i).x() - 2.0, SvkStretch(T, 1e6) * (X.x() - 2.0), 1e-10);
    EXPECT_NEAR(bar.node(i).y(), X.y(), 1e-12);
  }
  // Work of the constant end loads equals T times the elongation (trapezoid, exact here).
  EXPECT_NEAR(bar.external_work, T * 4 * (SvkStretch(T, 1e6) - 1), 1e-9);
}

}  // namespace
}  // namespace solfec::integration
