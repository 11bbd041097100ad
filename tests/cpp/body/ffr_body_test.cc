// Tests of the floating frame of reference body (form 'FFR') and its time integrator.
#include "body/fem/ffr_body.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "base/errors.h"
#include "base/math.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "integration/integrator.h"
#include "integration/rigid_rotation.h"

namespace solfec::body {
namespace {

using testing::HexMeshShape;

// The paper's stone (example 4.1): rho 2500, E 35 GPa, nu 0.2.
material::BulkMaterial Stone() {
  material::BulkMaterial m = testing::Material(2500.0);
  m.young = 35e9;
  m.poisson = 0.2;
  return m;
}

// The paper's 1 x 1 x 2 cuboid centred at the origin, coarser mesh (2 x 2 x 4) for speed.
FfrBody Cuboid(int nx = 2, int ny = 2, int nz = 4, material::BulkMaterial m = Stone()) {
  return FfrBody(HexMeshShape(Vec3(-0.5, -0.5, -1.0), Vec3(1, 1, 2), nx, ny, nz), m, "");
}

void Step(FfrBody& b, double t, double h, bool quasi_static = false) {
  const auto mode = quasi_static ? integration::Mode::kQuasiStatic : integration::Mode::kDynamic;
  const auto in = integration::MakeIntegrator(b, mode);
  in->BeginStep(t, h);
  in->FreeVelocity(t, h, Vec3::Zero());
  in->EndStep(t, h);
}

VecX RandomVec(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = d(rng);
  return v;
}

// Dense 3 x ndofs matrix of an H operator.
MatX Dense(const HOperator& H, int ndofs) {
  MatX D = MatX::Zero(3, ndofs);
  for (size_t k = 0; k < H.dofs.size(); ++k) D.col(H.dofs[k]) += H.values.col(k);
  return D;
}

TEST(FfrBody, StateLayoutAndFrameOriginAtTheMassCentre) {
  FfrBody b = Cuboid();
  const int n = b.num_nodes();  // 3 x 3 x 5 = 45
  EXPECT_EQ(n, 45);
  EXPECT_EQ(b.q().size(), 12 + 3 * n);
  EXPECT_EQ(b.num_dofs(), 6 + 3 * n);
  EXPECT_LT(b.frame_origin().norm(), 1e-14);        // symmetric mesh: centre at 0
  EXPECT_NEAR(b.frame_mass(), 2500.0 * 2.0, 1e-8);  // lumped masses sum to rho V
  // Identity frame and zero psi: the current shape is the referential mesh.
  EXPECT_LT((b.SpatialPoint(Vec3(0.3, -0.2, 0.9)) - Vec3(0.3, -0.2, 0.9)).norm(), 1e-14);
}

TEST(FfrBody, RigidMotionIsExactForASpinAboutAPrincipalAxis) {
  // Paper 4.1: v0 = (1,0,0), omega0 = (0, w, 0). The frame must follow the rigid solution
  // x_C = t v0, O = exp(t w e_y) to round-off (the RIG_IMP rotation is exact for a constant
  // Omega); the point (0,0,1) then follows x = t + sin(w t) up to the elastic stretch due to
  // the centrifugal load, rho w^2 L^2 / E ~ 2500 (4 pi)^2 / 35e9 ~ 1e-5 (tolerance 1e-4).
  FfrBody b = Cuboid();
  const double w = 4.0 * kPi, h = 1e-3;
  b.SetInitialVelocity(Vec3(1, 0, 0), Vec3(0, w, 0));
  double t = 0.0;
  for (int k = 0; k < 250; ++k, t += h) Step(b, t, h);
  EXPECT_LT((b.position() - Vec3(t, 0, 0)).norm(), 1e-12);
  const Mat3 exact = ExpMap(Vec3(0, w * t, 0));
  EXPECT_LT((b.rotation() - exact).norm(), 1e-10);
  const Vec3 x = b.SpatialPoint(Vec3(0, 0, 1));
  EXPECT_NEAR(x.x(), t + std::sin(w * t), 1e-4);
  EXPECT_NEAR(x.z(), std::cos(w * t), 1e-4);
  // The deformation is small but nonzero: centrifugal stretch along z.
  EXPECT_GT(b.displacements().cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LT(b.displacements().cwiseAbs().maxCoeff(), 1e-4);
}

TEST(FfrBody, MeanAxisConditionsHoldUnderSpinAndImpulses) {
  // A tumbling spin (not about a principal axis) plus random point impulses: the elastic
  // velocities and displacements keep zero momentum and zero angular momentum about the
  // frame origin, relative to m |lambda|_max (round-off level, tolerance 1e-10).
  FfrBody b = Cuboid(2, 2, 3, [] {
    material::BulkMaterial m = Stone();
    m.young = 1e7;  // soft, so that the deformation is visible
    return m;
  }());
  std::mt19937 rng(7);
  b.SetInitialVelocity(Vec3(0.1, 0, 0), Vec3(1, 2, 3));
  double t = 0.0;
  const double h = 1e-3;
  for (int k = 0; k < 20; ++k, t += h) {
    const auto in = integration::MakeIntegrator(b);
    in->BeginStep(t, h);
    in->FreeVelocity(t, h, Vec3(0, 0, -9.81));
    HOperator H;
    const Vec3 X = 0.5 * RandomVec(3, rng);
    b.ComputeH(X, Mat3::Identity(), H);
    const Vec3 r = 1e3 * RandomVec(3, rng);
    b.impulse() += Dense(H, b.num_dofs()).transpose() * r * h;
    in->EndStep(t, h);
  }
  const VecX lam = b.elastic_velocities(), psi = b.displacements();
  const double m = b.frame_mass();
  ASSERT_GT(lam.cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LT(b.MomentumOf(lam).norm(), 1e-10 * m * lam.cwiseAbs().maxCoeff());
  EXPECT_LT(b.AngularMomentumOf(lam).norm(), 1e-10 * m * lam.cwiseAbs().maxCoeff());
  EXPECT_LT(b.MomentumOf(psi).norm(), 1e-10 * m * psi.cwiseAbs().maxCoeff());
  EXPECT_LT(b.AngularMomentumOf(psi).norm(), 1e-10 * m * psi.cwiseAbs().maxCoeff());
}

TEST(FfrBody, HMatchesFiniteDifferencesOfThePointMotion) {
  // With psi = 0 the velocity of X is exactly H u (base = I): compare with the central
  // difference of SpatialPoint along q(e) = (x_C + e v, O exp(e Omega), e lambda); the
  // O(e^2) truncation with e = 1e-6 and round-off bound the error by ~1e-8.
  FfrBody b = Cuboid();
  std::mt19937 rng(3);
  b.set_position(Vec3(1, 2, 3));
  b.set_rotation(ExpMap(Vec3(0.3, -0.5, 0.8)));
  b.UpdateShape();
  const VecX u = RandomVec(b.num_dofs(), rng);
  const VecX q0 = b.q();
  const double e = 1e-6;
  auto moved = [&](double s) {
    b.mutable_q() = q0;
    b.set_position(b.position() + s * u.head<3>());
    b.set_rotation(b.rotation() * ExpMap(s * Vec3(u.segment<3>(3))));
    b.displacements() = s * u.tail(3 * b.num_nodes());
    b.UpdateShape();
  };
  for (const Vec3& X : {Vec3(0.5, 0.5, 1.0), Vec3(0.1, -0.3, 0.2), Vec3(-0.5, 0.2, -0.7)}) {
    moved(e);
    const Vec3 xp = b.SpatialPoint(X);
    moved(-e);
    const Vec3 xm = b.SpatialPoint(X);
    moved(0.0);
    HOperator H;
    const Mat3 base = ExpMap(Vec3(0.1, 0.2, 0.3));
    b.ComputeH(X, base, H);
    const Vec3 Hu = Dense(H, b.num_dofs()) * u;
    EXPECT_LT((Hu - base.transpose() * (xp - xm) / (2 * e)).norm(), 1e-7);
  }
}

TEST(FfrBody, InverseInertiaIsSymmetricAndMatchesTheKineticEnergy) {
  // W = H1 A^-1 H2^T must equal (H2 A^-1 H1^T)^T (with c = 1e-6 > 0 so that K couples the
  // two points' elements: with c = 0 and a lumped M, W12 = N1 M^-1 N2^T vanishes for
  // elements without common nodes, which the frame/elastic split reproduces to 1e-19).
  // With A_e = M (c = 0) the kinetic energy of the velocity A^-1 H^T r produced by an
  // impulse r at X is r . W r / 2 (A is the kinetic energy metric on the mean-axis
  // subspace). Relative tolerance 1e-10.
  FfrBody b = Cuboid();
  b.set_rotation(ExpMap(Vec3(0.2, 0.4, -0.1)));
  b.UpdateShape();
  b.SetElasticOperator(1e-6);
  const int nd = b.num_dofs();
  HOperator H1, H2;
  b.ComputeH(Vec3(0.5, 0.1, 0.9), Mat3::Identity(), H1);
  b.ComputeH(Vec3(-0.2, -0.5, -0.3), ExpMap(Vec3(1, 0, 0)), H2);
  const MatX D1 = Dense(H1, nd), D2 = Dense(H2, nd);
  MatX G1 = D1.transpose(), G2 = D2.transpose();
  b.ApplyInverseInertia(G1);
  b.ApplyInverseInertia(G2);
  const MatX W12 = D1 * G2, W21 = D2 * G1;
  ASSERT_GT(W12.norm(), 1e-6);  // ~ 1/m = 2e-4: coupled through the frame and K
  EXPECT_LT((W12 - W21.transpose()).norm(), 1e-10 * W12.norm());
  b.SetElasticOperator(0.0);
  G1 = D1.transpose();
  b.ApplyInverseInertia(G1);
  const Vec3 r(3, -1, 2);
  b.mutable_u() = G1 * r;
  const double energy = b.KineticEnergy();
  EXPECT_NEAR(energy, 0.5 * r.dot(D1 * G1 * r), 1e-10 * energy);
  // The mean-axis projection does not change the frame's rigid response: the mass centre
  // moves with r / m.
  EXPECT_LT((Vec3(b.u().head<3>()) - r / b.frame_mass()).norm(), 1e-14);
}

TEST(FfrBody, PointForceIsTheTransposeOfH) {
  // The generalized force of a point FORCE at X equals H(X)^T f (base = I), so loads and
  // contact impulses enter the same way (tolerance: round-off).
  FfrBody b = Cuboid();
  b.set_rotation(ExpMap(Vec3(-0.3, 0.7, 0.2)));
  b.UpdateShape();
  const Vec3 X(0.25, -0.4, 0.6), f(10, -20, 5);
  PointLoad load;
  load.point = X;
  load.direction = f.normalized();
  load.value = ScalarOrSeries(f.norm());
  b.loads().push_back(load);
  HOperator H;
  b.ComputeH(X, Mat3::Identity(), H);
  const VecX expected = Dense(H, b.num_dofs()).transpose() * f;
  EXPECT_LT((b.ExternalForce(0.0, 1e-3, Vec3::Zero()) - expected).norm(), 1e-10);
}

TEST(FfrBody, TrapezoidalStepConservesEnergyWithoutSpin) {
  // No spin, no loads, no damping: the scheme is the trapezoidal rule for the linear
  // elastic vibration in the frame, which conserves 1/2 lambda M lambda + 1/2 psi K psi
  // exactly (round-off, tolerance 1e-9 relative) and keeps the frame at rest.
  FfrBody b = Cuboid(2, 2, 4, [] {
    material::BulkMaterial m = Stone();
    m.young = 1e6;
    return m;
  }());
  std::mt19937 rng(11);
  VecX lam = RandomVec(3 * b.num_nodes(), rng);
  b.ProjectVelocity(lam);
  b.elastic_velocities() = lam;
  const double e0 = b.KineticEnergy() + b.InternalEnergy();
  double t = 0.0;
  const double h = 1e-2;
  for (int k = 0; k < 200; ++k, t += h) Step(b, t, h);
  EXPECT_NEAR(b.KineticEnergy() + b.InternalEnergy(), e0, 1e-9 * e0);
  EXPECT_GT(b.InternalEnergy(), 1e-3 * e0);  // it did vibrate
  EXPECT_LT(b.linear_velocity().norm() + b.angular_velocity().norm(), 1e-12);
}

TEST(FfrBody, RestoredStateRebuildsTheCurrentShape) {
  // READ mode sets q and u and calls UpdateShape: a fresh body given another body's state
  // must have the same current geometry (node coordinates, to round-off).
  FfrBody a = Cuboid(), b = Cuboid();
  a.SetInitialVelocity(Vec3(1, 0, 0), Vec3(0.5, 1, 0));
  a.scheme = Scheme::kDefault;
  double t = 0.0;
  for (int k = 0; k < 10; ++k, t += 1e-2) Step(a, t, 1e-2);
  b.mutable_q() = a.q();
  b.mutable_u() = a.u();
  b.UpdateShape();
  EXPECT_LT((b.mesh_body().q() - a.mesh_body().q()).norm(), 1e-14);
  for (size_t c = 0; c < a.shape().convexes.size(); ++c)
    for (size_t v = 0; v < a.shape().convexes[c].vertices.size(); ++v)
      EXPECT_LT((a.shape().convexes[c].vertices[v] - b.shape().convexes[c].vertices[v]).norm(),
                1e-14);
  const Vec3 X(0.1, 0.2, 0.3);
  EXPECT_LT((a.PointVelocity(X) - b.PointVelocity(X)).norm(), 1e-14);
}

TEST(FfrBody, QuasiStaticStepMovesAnUnheldBodyByTheLoad) {
  // Quasi-static, no constraints: the frame takes h u = h^2 F / m per step (as a RIGID body
  // in QUASI_STATIC) and the elastic part does not see a uniform load (tolerance round-off).
  FfrBody b = Cuboid();
  const double h = 0.1;
  const auto in = integration::MakeIntegrator(b, integration::Mode::kQuasiStatic);
  in->BeginStep(0.0, h);
  in->FreeVelocity(0.0, h, Vec3(0, 0, -10));
  in->EndStep(0.0, h);
  EXPECT_NEAR(b.position().z(), -h * h * 10.0, 1e-12);
  EXPECT_LT(b.displacements().norm(), 1e-12);
}

TEST(FfrBody, RejectsExplicitScheme) {
  FfrBody b = Cuboid();
  b.scheme = Scheme::kDefExp;
  EXPECT_THROW(integration::MakeIntegrator(b)->CheckStep(1e-3), InputError);
}

}  // namespace
}  // namespace solfec::body
