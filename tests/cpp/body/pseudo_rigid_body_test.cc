// Tests of the pseudo-rigid body: inertia of a box, the H operator, the inverse inertia,
// the Saint Venant-Kirchhoff response and generalized point loads.
#include "body/pseudo_rigid_body.h"

#include <gtest/gtest.h>

#include <random>

#include "base/errors.h"
#include "base/math.h"
#include "body/box_shape.h"

namespace solfec::body {
namespace {

// Box of edges (2, 1, 0.5) with corner (1, 2, 3), density 100, E = 1e6, nu = 0.25.
std::unique_ptr<PseudoRigidBody> MakeBox() {
  material::BulkMaterial m = testing::Material(100.0);
  m.young = 1e6;
  m.poisson = 0.25;
  return std::make_unique<PseudoRigidBody>(
      testing::BoxShape(Vec3(1, 2, 3), Vec3(2, 1, 0.5)), m, "box");
}

// A random state (deformation near identity, rates and centre velocity of order one).
void Randomize(PseudoRigidBody& b, std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-0.3, 0.3);
  for (int i = 0; i < 12; ++i) b.mutable_q()[i] += d(rng);
  for (int i = 0; i < 12; ++i) b.mutable_u()[i] = 3.0 * d(rng);
}

TEST(PseudoRigidBody, MassAndEulerTensorOfABoxMatchClosedForm) {
  auto b = MakeBox();
  const double V = 2 * 1 * 0.5, rho = 100.0;
  EXPECT_NEAR(b->volume(), V, 1e-13);
  EXPECT_NEAR(b->mass(), rho * V, 1e-11);
  EXPECT_LT((b->center() - Vec3(2, 2.5, 3.25)).norm(), 1e-13);
  // rho int A A^T dV = rho V diag(a^2, b^2, c^2) / 12 for a box of edges a, b, c.
  const Mat3 E = rho * V / 12.0 * Vec3(4, 1, 0.25).asDiagonal().toDenseMatrix();
  EXPECT_LT((b->euler_inertia() - E).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_EQ(b->num_dofs(), 12);
  EXPECT_EQ(b->q().size(), 12);
  EXPECT_LT((b->deformation() - Mat3::Identity()).norm(), 1e-15);
  EXPECT_LT((b->position() - b->center()).norm(), 1e-15);
}

TEST(PseudoRigidBody, KineticEnergyIsTheIntegralOverTheBox) {
  auto b = MakeBox();
  Mat3 D;
  D << 0.1, -0.4, 0.3, 0.2, 0.5, -0.6, 0.7, 0.05, -0.2;
  const Vec3 v(1, -2, 0.5);
  b->set_deformation_rate(D);
  b->set_linear_velocity(v);
  // 1/2 rho int |D A + v|^2 dV = 1/2 m |v|^2 + 1/2 rho V sum_i |D e_i|^2 s_i^2 / 12.
  const double rho = 100, V = 1, s[3] = {2, 1, 0.5};
  double ke = 0.5 * rho * V * v.squaredNorm();
  for (int i = 0; i < 3; ++i) ke += 0.5 * rho * V * D.col(i).squaredNorm() * s[i] * s[i] / 12;
  EXPECT_NEAR(b->KineticEnergy(), ke, 1e-12 * ke);
  // and equals 1/2 u^T M u with the block inertia.
  MatX Mu = b->u();
  Mu.topRows<9>() = b->MassFF() * b->u().head<9>();
  Mu.bottomRows<3>() *= b->mass();
  EXPECT_NEAR(0.5 * b->u().dot(Mu.col(0)), ke, 1e-12 * ke);
}

TEST(PseudoRigidBody, HTimesVelocityEqualsFiniteDifferencePointVelocity) {
  std::mt19937 rng(7);
  auto b = MakeBox();
  Randomize(*b, rng);
  const Mat3 base = AxisAngle(Vec3(1, 2, 3).normalized(), 0.7);
  const Vec3 X(2.7, 2.1, 3.4);
  HOperator H;
  b->ComputeH(X, base, H);
  Vec3 U = Vec3::Zero();
  for (size_t k = 0; k < H.dofs.size(); ++k) U += H.values.col(k) * b->u()[H.dofs[k]];
  // x(X) is linear in q: the central difference is exact up to round-off (1e-9 relative).
  const double eps = 1e-4;
  const VecX q0 = b->q();
  b->mutable_q() = q0 + eps * b->u();
  const Vec3 xp = b->SpatialPoint(X);
  b->mutable_q() = q0 - eps * b->u();
  const Vec3 xm = b->SpatialPoint(X);
  b->mutable_q() = q0;
  const Vec3 fd = base.transpose() * (xp - xm) / (2 * eps);
  EXPECT_LT((U - fd).norm(), 1e-9 * fd.norm());
  EXPECT_LT((base.transpose() * b->PointVelocity(X) - U).norm(), 1e-12 * U.norm());
}

TEST(PseudoRigidBody, ReferentialPointInvertsSpatialPoint) {
  std::mt19937 rng(3);
  auto b = MakeBox();
  Randomize(*b, rng);
  const Vec3 X(1.3, 2.9, 3.1);
  EXPECT_LT((b->ReferentialPoint(b->SpatialPoint(X)) - X).norm(), 1e-12);
  b->UpdateShape();
  // Vertex 6 of the box is the corner lo + size.
  EXPECT_LT((b->shape().convexes[0].vertices[6] - b->SpatialPoint(Vec3(3, 3, 3.5))).norm(),
            1e-12);
}

TEST(PseudoRigidBody, ApplyInverseInertiaInvertsTheMassMatrix) {
  auto b = MakeBox();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> d(-1, 1);
  MatX G(12, 3);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 3; ++j) G(i, j) = d(rng);
  MatX Y = G;
  b->ApplyInverseInertia(Y);
  MatX MY = Y;
  MY.topRows<9>() = b->MassFF() * Y.topRows<9>();
  MY.bottomRows<3>() *= b->mass();
  EXPECT_LT((MY - G).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(PseudoRigidBody, InternalForceAndStiffnessAreEnergyDerivatives) {
  std::mt19937 rng(5);
  auto b = MakeBox();
  Randomize(*b, rng);
  const Vec9 f = b->InternalForce();
  const Mat9 K = b->Stiffness();
  const VecX q0 = b->q();
  // Central differences of a quartic/cubic: O(eps^2) error, 1e-6 relative with eps = 1e-5.
  const double eps = 1e-5;
  for (int j = 0; j < 9; ++j) {
    b->mutable_q() = q0;
    b->mutable_q()[j] += eps;
    const double wp = b->InternalEnergy();
    const Vec9 fp = b->InternalForce();
    b->mutable_q()[j] -= 2 * eps;
    const double wm = b->InternalEnergy();
    const Vec9 fm = b->InternalForce();
    EXPECT_NEAR(-(wp - wm) / (2 * eps), f[j], 1e-6 * f.norm()) << j;
    EXPECT_LT((-(fp - fm) / (2 * eps) - K.col(j)).norm(), 1e-6 * K.norm()) << j;
  }
  EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-9 * K.norm());
}

TEST(PseudoRigidBody, RigidRotationIsStressFree) {
  auto b = MakeBox();
  b->set_deformation(AxisAngle(Vec3(1, -1, 2).normalized(), 1.1));
  // SVK: E_g = (R^T R - I)/2 = 0 exactly up to round-off.
  EXPECT_LT(b->InternalForce().norm(), 1e-9);
  EXPECT_LT(b->InternalEnergy(), 1e-20);
}

TEST(PseudoRigidBody, SmallStrainStiffnessIsLinearElasticity) {
  auto b = MakeBox();
  // At F = I: V P(I + e) ~ V (lambda tr(e) I + 2 mu sym(e)); uniaxial e11 gives
  // K(0,0) = V (lambda + 2 mu) = 1 * (4e5 + 8e5).
  EXPECT_NEAR(b->Stiffness()(0, 0), 1.2e6, 1e-6);
  // Shear e12 = e21: K(3,1) (dP12/dF21) = V mu.
  EXPECT_NEAR(b->Stiffness()(3, 1), 4e5, 1e-6);
}

TEST(PseudoRigidBody, PointForceAndTorqueDoTheRightPower) {
  std::mt19937 rng(9);
  auto b = MakeBox();
  Randomize(*b, rng);
  PointLoad f;
  f.point = Vec3(2.5, 2.2, 3.4);
  f.direction = Vec3(0, 0.6, 0.8);
  f.value = ScalarOrSeries(5.0);
  b->loads().push_back(f);
  const Vec3 g(0, 0, -9.81);
  const VecX gen = b->ExternalForce(0, 1e-3, g);
  // Power: f . v(X) + m g . v for any velocity u.
  const double power = 5.0 * f.direction.dot(b->PointVelocity(f.point)) +
                       b->mass() * g.dot(b->linear_velocity());
  EXPECT_NEAR(gen.dot(b->u()), power, 1e-12 * std::abs(power) + 1e-12);

  b->loads().clear();
  PointLoad t;
  t.type = PointLoad::Type::kTorque;
  t.direction = Vec3(1, 0, 0);
  t.value = ScalarOrSeries(2.0);
  b->loads().push_back(t);
  const Vec3 w(0.3, -1.0, 2.0);
  b->SetInitialVelocity(Vec3::Zero(), w);  // Fdot = [w]x F
  const VecX gt = b->ExternalForce(0, 1e-3, Vec3::Zero());
  EXPECT_NEAR(gt.dot(b->u()), 2.0 * w.x(), 1e-12);
}

TEST(PseudoRigidBody, InitialVelocityIsARigidMotionField) {
  std::mt19937 rng(13);
  auto b = MakeBox();
  Randomize(*b, rng);
  const Vec3 v(1, 2, 3), w(-0.5, 0.25, 2.0), X(1.5, 2.5, 3.0);
  b->SetInitialVelocity(v, w);
  const Vec3 expect = v + w.cross(b->SpatialPoint(X) - b->position());
  EXPECT_LT((b->PointVelocity(X) - expect).norm(), 1e-12);
}

// Solfec-1.0: a sphere of a PSEUDO_RIGID body keeps its radius, its centre follows F.
TEST(PseudoRigidBody, SphereCentresFollowFAndRadiiStay) {
  geometry::Shape s;
  for (double x : {-1.0, 1.0}) {
    s.spheres.push_back(geometry::Sphere{});
    s.spheres.back().center = Vec3(x, 0.0, 0.0);
    s.spheres.back().radius = 0.5;
  }
  PseudoRigidBody b(s, testing::Material(1.0), "balls");
  EXPECT_LT(b.center().norm(), 1e-14);
  b.mutable_q().head<9>() << 2, 0, 0, 0, 1, 0, 0, 0, 1;  // F = diag(2, 1, 1)
  b.mutable_q().tail<3>() = Vec3(0, 0, 3);
  b.UpdateShape();
  ASSERT_EQ(b.shape().spheres.size(), 2u);
  EXPECT_LT((b.shape().spheres[0].center - Vec3(-2, 0, 3)).norm(), 1e-14);
  EXPECT_LT((b.shape().spheres[1].center - Vec3(2, 0, 3)).norm(), 1e-14);
  EXPECT_EQ(b.shape().spheres[1].radius, 0.5);
}

}  // namespace
}  // namespace solfec::body
