// Tests of RigidBody: inertia of a box, state layouts, H operator, inverse inertia, loads.
#include "body/rigid_body.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "base/errors.h"
#include "base/math.h"
#include "body/body_factory.h"
#include "body/box_shape.h"

namespace solfec::body {
namespace {

using testing::BoxShape;
using testing::Material;

// Box 1 x 2 x 3 at (1, -2, 0.5), density 2: m = 12, centre = lo + size/2.
std::unique_ptr<RigidBody> MakeBox(BodyKind kind = BodyKind::kRigid) {
  return std::make_unique<RigidBody>(kind, BoxShape(Vec3(1, -2, 0.5), Vec3(1, 2, 3)),
                                     Material(2.0), "box");
}

Mat3 RandomRotation(std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  return ExpMap(Vec3(d(rng), d(rng), d(rng)) * 2.0);
}

TEST(RigidBody, BoxMassCentreAndTensorMatchClosedForm) {
  auto b = MakeBox();
  const double m = 2.0 * 6.0, a = 1, bb = 2, c = 3;
  // Polyhedral integration is exact: only round-off (~1e-15 relative) remains.
  EXPECT_NEAR(b->volume(), 6.0, 1e-12);
  EXPECT_NEAR(b->mass(), m, 1e-12);
  EXPECT_LT((b->center() - Vec3(1.5, -1.0, 2.0)).norm(), 1e-12);
  Mat3 J = Vec3(m * (bb * bb + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + bb * bb) / 12)
               .asDiagonal();
  EXPECT_LT((b->tensor() - J).norm(), 1e-12 * J.norm());
  EXPECT_LT((b->inverse_tensor() * b->tensor() - Mat3::Identity()).norm(), 1e-14);
  EXPECT_EQ(b->num_dofs(), 6);
  EXPECT_EQ(b->q().size(), 12);
  EXPECT_STREQ(KindName(b->kind()), "RIGID");
  EXPECT_STREQ(SchemeName(Scheme::kRigNeg), "RIG_NEG");
}

TEST(RigidBody, ConfAndVeloFollowManualTables44And45) {
  auto b = MakeBox();
  // At creation: identity rotation, x = referential centre, at rest.
  for (int i = 0; i < 9; ++i) EXPECT_EQ(b->q()[i], (i % 4 == 0) ? 1.0 : 0.0);
  EXPECT_EQ(b->q().tail<3>(), b->center());
  std::mt19937 rng(7);
  const Mat3 L = RandomRotation(rng);
  b->set_rotation(L);
  b->set_position(Vec3(4, 5, 6));
  // conf: column-wise rotation matrix followed by the mass centre.
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) EXPECT_EQ(b->q()[3 * col + row], L(row, col));
  EXPECT_EQ(b->q().tail<3>(), Vec3(4, 5, 6));
  // velo: referential angular velocity (INITIAL_VELOCITY takes it spatial), then v.
  const Vec3 w(0.3, -0.2, 0.9), v(1, 2, 3);
  b->SetInitialVelocity(v, w);
  EXPECT_LT((L * b->u().head<3>() - w).norm(), 1e-15);
  EXPECT_EQ(b->u().tail<3>(), v);
}

TEST(RigidBody, SpatialAndReferentialPointsAreInverseMotions) {
  auto b = MakeBox();
  std::mt19937 rng(3);
  b->set_rotation(RandomRotation(rng));
  b->set_position(Vec3(-1, 0.5, 7));
  const Vec3 X(1.2, -1.7, 3.1);
  const Vec3 x = b->SpatialPoint(X);
  EXPECT_LT((x - (Vec3(-1, 0.5, 7) + b->rotation() * (X - b->center()))).norm(), 1e-14);
  EXPECT_LT((b->ReferentialPoint(x) - X).norm(), 1e-14);  // round-off of O(10) coordinates
}

TEST(RigidBody, HTimesVelocityEqualsFiniteDifferencePointVelocity) {
  auto b = MakeBox();
  std::mt19937 rng(11);
  const Mat3 L = RandomRotation(rng);
  const Vec3 x(0.2, 0.4, -0.3), W(0.7, -1.1, 0.4), v(0.5, -0.25, 2.0);
  b->set_rotation(L);
  b->set_position(x);
  b->mutable_u() << W, v;
  const Vec3 X(1.9, -0.3, 3.4);
  const Mat3 base = RandomRotation(rng);
  HOperator H;
  b->ComputeH(X, base, H);
  ASSERT_EQ(H.dofs.size(), 6u);
  const Vec3 U = H.values * b->u();
  // Central difference of x(X) along the motion Lambda exp[s W], x + s v: O(d^2) = 1e-12
  // truncation plus 1e-16/1e-6 round-off; tolerance 1e-8.
  const double d = 1e-6;
  auto point = [&](double s) { return Vec3(x + s * v + L * ExpMap(s * W) * (X - b->center())); };
  const Vec3 fd = (point(d) - point(-d)) / (2 * d);
  EXPECT_LT((U - base.transpose() * fd).norm(), 1e-8);
  EXPECT_LT((base.transpose() * b->PointVelocity(X) - U).norm(), 1e-14);
}

TEST(RigidBody, InverseInertiaGivesSymmetricPsdW) {
  auto b = MakeBox();
  std::mt19937 rng(5);
  b->set_rotation(RandomRotation(rng));
  const Mat3 base = RandomRotation(rng);
  auto W_at = [&](const Vec3& X) {
    HOperator H;
    b->ComputeH(X, base, H);
    MatX G = H.values.transpose();
    b->ApplyInverseInertia(G);
    return Mat3(H.values * G);
  };
  const Mat3 W = W_at(Vec3(2.0, 0.1, 0.6));
  EXPECT_LT((W - W.transpose()).norm(), 1e-14 * W.norm());
  Eigen::SelfAdjointEigenSolver<Mat3> eig(W);
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);  // full rank: 3 independent directions
  // At the mass centre only translation acts: W = base^T base / m = I / m (round-off).
  EXPECT_LT((W_at(b->center()) - Mat3::Identity() / b->mass()).norm(), 1e-15);
  // Away from it the rotational part adds a PSD term: W - I/m is PSD.
  Eigen::SelfAdjointEigenSolver<Mat3> eig2(W - Mat3::Identity() / b->mass());
  EXPECT_GT(eig2.eigenvalues().minCoeff(), -1e-15);
}

TEST(RigidBody, ObstacleHasInfiniteInertiaNoLoadsAndNoKineticEnergy) {
  auto b = MakeBox(BodyKind::kObstacle);
  MatX G = MatX::Ones(6, 3);
  b->ApplyInverseInertia(G);
  EXPECT_EQ(G.norm(), 0.0);
  b->loads().push_back(PointLoad{});
  b->loads().back().value = ScalarOrSeries(10.0);
  EXPECT_EQ(b->ExternalForce(0.0, 0.1, Vec3(0, 0, -9.81)).norm(), 0.0);
  b->SetInitialVelocity(Vec3(1, 0, 0), Vec3(0, 0, 1));
  EXPECT_EQ(b->KineticEnergy(), 0.0);
  EXPECT_STREQ(KindName(b->kind()), "OBSTACLE");
}

TEST(RigidBody, LoadsGiveReferentialTorqueAndSpatialForce) {
  auto b = MakeBox();
  const Mat3 L = AxisAngle(Vec3(0, 0, 1), 0.5 * kPi);  // 90 deg about z: x -> y
  b->set_rotation(L);
  const Vec3 g(0, 0, -10), X = b->center() + Vec3(1, 0, 0);
  const double m = b->mass();
  // Spatial force 2 e_z at X: its arm is L (1,0,0) = e_y; torque e_y x 2 e_z = 2 e_x
  // spatial, i.e. L^T (2,0,0) = (0,-2,0) referential.
  PointLoad f;
  f.point = X;
  f.direction = Vec3::UnitZ();
  f.value = ScalarOrSeries(2.0);
  b->loads().push_back(f);
  VecX F = b->ExternalForce(0.0, 0.1, g);
  EXPECT_LT((F.tail<3>() - (m * g + Vec3(0, 0, 2))).norm(), 1e-12);
  EXPECT_LT((F.head<3>() - Vec3(0, -2, 0)).norm(), 1e-14);
  // The same force CONVECTED along referential e_x: spatial direction e_y, parallel to the
  // arm: no torque.
  b->loads()[0].convected = true;
  b->loads()[0].direction = Vec3::UnitX();
  F = b->ExternalForce(0.0, 0.1, Vec3::Zero());
  EXPECT_LT((F.tail<3>() - Vec3(0, 2, 0)).norm(), 1e-14);
  EXPECT_LT(F.head<3>().norm(), 1e-14);
  // Torques: spatial e_x (referential -e_y after the pull-back) and convected e_z.
  b->loads().clear();
  PointLoad ts;
  ts.type = PointLoad::Type::kTorque;
  ts.direction = Vec3::UnitX();
  ts.value = ScalarOrSeries(TimeSeries({0.0, 1.0}, {0.0, 4.0}));  // 4 t
  b->loads().push_back(ts);
  ts.convected = true;
  ts.direction = Vec3::UnitZ();
  ts.value = ScalarOrSeries(3.0);
  b->loads().push_back(ts);
  F = b->ExternalForce(0.5, 0.1, Vec3::Zero());
  EXPECT_LT((F.head<3>() - Vec3(0, -2, 3)).norm(), 1e-14);
  EXPECT_LT(F.tail<3>().norm(), 1e-14);
  // Callback: (spatial force, spatial torque, referential torque).
  b->loads().clear();
  PointLoad cb;
  cb.callback = [](const VecX& q, const VecX& u, double t, double h) {
    VecX r(9);
    r << 1, 2, 3, 1, 0, 0, 0, 0, 5;
    return r;
  };
  b->loads().push_back(cb);
  F = b->ExternalForce(0.0, 0.1, Vec3::Zero());
  EXPECT_LT((F.tail<3>() - Vec3(1, 2, 3)).norm(), 1e-14);
  EXPECT_LT((F.head<3>() - Vec3(0, -1, 5)).norm(), 1e-14);
  b->loads()[0].callback = [](const VecX&, const VecX&, double, double) { return VecX(6); };
  EXPECT_THROW(b->ExternalForce(0.0, 0.1, Vec3::Zero()), InputError);
}

TEST(RigidBody, UpdateShapeMovesVerticesAndSphereCentres) {
  geometry::Shape s = BoxShape(Vec3(0, 0, 0), Vec3(2, 2, 2));
  geometry::Sphere sp;
  sp.center = Vec3(5, 1, 1);
  sp.radius = 0.5;
  s.spheres.push_back(sp);
  RigidBody b(BodyKind::kRigid, s, Material(1.0), "");
  std::mt19937 rng(1);
  b.set_rotation(RandomRotation(rng));
  b.set_position(Vec3(10, 0, 0));
  b.UpdateShape();
  for (size_t i = 0; i < 8; ++i)
    EXPECT_LT((b.shape().convexes[0].vertices[i] -
               b.SpatialPoint(b.ref_shape().convexes[0].vertices[i])).norm(), 1e-13);
  EXPECT_LT((b.shape().spheres[0].center - b.SpatialPoint(sp.center)).norm(), 1e-13);
  EXPECT_EQ(b.shape().spheres[0].radius, 0.5);
  // The referential shape is untouched.
  EXPECT_EQ(b.ref_shape().convexes[0].vertices[6], Vec3(2, 2, 2));
}

TEST(RigidBody, MeshIsConvertedToConvexesWithTheSameInertia) {
  const std::vector<Vec3> corners = {{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {2, 0, 1}, {2, 1, 1}, {0, 1, 1}};
  geometry::Shape s;
  s.meshes.push_back(geometry::Hex(corners, 2, 1, 1, 0, {1, 2, 3, 4, 5, 6}));
  RigidBody b(BodyKind::kRigid, s, Material(3.0), "");
  EXPECT_TRUE(b.ref_shape().meshes.empty());
  EXPECT_EQ(b.ref_shape().convexes.size(), 2u);
  RigidBody box(BodyKind::kRigid, BoxShape(Vec3::Zero(), Vec3(2, 1, 1)), Material(3.0), "");
  EXPECT_NEAR(b.mass(), 6.0, 1e-12);
  EXPECT_LT((b.center() - box.center()).norm(), 1e-13);
  EXPECT_LT((b.tensor() - box.tensor()).norm(), 1e-12);
}

TEST(RigidBody, FactoryRejectsEmptyDegenerateAndUnavailableKinds) {
  EXPECT_THROW(MakeBody(BodyKind::kRigid, geometry::Shape{}, Material(1.0), ""), InputError);
  try {
    MakeBody(BodyKind::kRigid, geometry::Shape{}, Material(1.0), "");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 'shape'"), std::string::npos);
  }
  EXPECT_THROW(MakeBody(BodyKind::kRigid, BoxShape(Vec3::Zero(), Vec3(1, 1, 0)), Material(1.0),
                        ""),
               InputError);
  EXPECT_THROW(MakeBody(BodyKind::kFiniteElement, BoxShape(Vec3::Zero(), Vec3(1, 1, 1)),
                        Material(1.0), ""),
               InputError);
  EXPECT_EQ(MakeBody(BodyKind::kPseudoRigid, BoxShape(Vec3::Zero(), Vec3(1, 1, 1)),
                     Material(1.0), "")->num_dofs(),
            12);
  auto ok = MakeBody(BodyKind::kObstacle, BoxShape(Vec3::Zero(), Vec3(1, 1, 1)), Material(1.0),
                     "floor");
  EXPECT_EQ(ok->kind(), BodyKind::kObstacle);
  EXPECT_EQ(ok->label(), "floor");
}

TEST(RigidBody, BodyCharsOverwriteInertiaAndKeepThePlacement) {
  auto b = MakeBox();
  std::mt19937 rng(9);
  b->set_rotation(RandomRotation(rng));
  b->set_position(Vec3(3, 3, 3));
  b->SetInitialVelocity(Vec3(1, 0, 0), Vec3(0, 2, 0));
  const Vec3 X(1.1, -1.5, 0.9);
  const Vec3 x_before = b->SpatialPoint(X), v_before = b->PointVelocity(X);
  const Mat3 J = Vec3(1, 2, 3).asDiagonal();
  b->SetCharacteristics(5.0, 2.0, Vec3(1.3, -1.2, 1.0), J);
  EXPECT_EQ(b->mass(), 5.0);
  EXPECT_EQ(b->volume(), 2.0);
  EXPECT_EQ(b->tensor(), J);
  EXPECT_LT((b->inverse_tensor() - Mat3(Vec3(1, 0.5, 1.0 / 3).asDiagonal())).norm(), 1e-15);
  EXPECT_LT((b->SpatialPoint(X) - x_before).norm(), 1e-14);
  EXPECT_LT((b->PointVelocity(X) - v_before).norm(), 1e-14);
  EXPECT_THROW(b->SetCharacteristics(-1.0, 1.0, Vec3::Zero(), J), InputError);
  EXPECT_THROW(b->SetCharacteristics(1.0, 1.0, Vec3::Zero(), -J), InputError);
}

TEST(RigidBody, MomentaAndKineticEnergyOfASpinningTranslatingBody) {
  auto b = MakeBox();
  b->SetCharacteristics(2.0, 1.0, b->center(), Mat3(Vec3(1, 2, 3).asDiagonal()));
  const Mat3 L = AxisAngle(Vec3(1, 0, 0), 0.5 * kPi);  // y -> z
  b->set_rotation(L);
  b->set_position(Vec3(1, 0, 0));
  b->mutable_u() << 0, 1, 0, 0, 3, 0;  // Omega = e_y referential = e_z spatial
  EXPECT_NEAR(b->KineticEnergy(), 0.5 * 2 + 0.5 * 2 * 9, 1e-14);
  EXPECT_LT((b->SpinMomentum() - Vec3(0, 0, 2)).norm(), 1e-15);
  // x cross m v = e_x cross 6 e_y = 6 e_z.
  EXPECT_LT((b->AngularMomentum() - Vec3(0, 0, 8)).norm(), 1e-14);
}

}  // namespace
}  // namespace solfec::body
