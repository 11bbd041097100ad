// Tests of the appendix-A rotation fit (body/fem/corotation.h).
#include "body/fem/corotation.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "base/math.h"
#include "body/fe_mesh.h"

namespace solfec::body {
namespace {

geometry::Mesh Bar() {
  return testing::HexMeshShape(Vec3(0, 0, 0), Vec3(0.1, 0.1, 1.0), 2, 2, 20).meshes[0];
}

VecX Coordinates(const geometry::Mesh& m, const Mat3& R, const Vec3& c) {
  VecX x(3 * m.nodes.size());
  for (size_t a = 0; a < m.nodes.size(); ++a) x.segment<3>(3 * a) = R * m.nodes[a] + c;
  return x;
}

// The normals integrate a closed surface: sum n_a = int N dGamma = 0 and
// sum n_a x X_a = vec[int (grad X - grad X^T) dV] = 0, to round-off.
TEST(CorotationFit, NormalsOfClosedSurfaceSumToZero) {
  const geometry::Mesh m = Bar();
  CorotationFit fit(m);
  Vec3 sum = Vec3::Zero(), moment = Vec3::Zero();
  double total = 0.0;
  for (const auto& [a, n] : fit.normals()) {
    sum += n;
    moment += n.cross(m.nodes[a]);
    total += n.norm();
  }
  EXPECT_LT(sum.norm(), 1e-14 * total);
  EXPECT_LT(moment.norm(), 1e-14 * total);
  EXPECT_LT(fit.Residual(Coordinates(m, Mat3::Identity(), Vec3::Zero()), Mat3::Identity()).norm(),
            1e-14);
}

// A rigid motion x = R X + c is fitted exactly from a start 30 degrees away (Gauss-Newton on a
// zero-residual problem converges quadratically; 1e-12 is round-off of a 20-iteration cap).
TEST(CorotationFit, RecoversRotationOfRigidMotion) {
  const geometry::Mesh m = Bar();
  CorotationFit fit(m);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 10; ++k) {
    const Vec3 axis = Vec3(u(rng), u(rng), u(rng)).normalized();
    const Mat3 R = AxisAngle(axis, 3.0 * u(rng));
    const Vec3 c(u(rng), u(rng), u(rng));
    const Mat3 start = R * AxisAngle(Vec3(u(rng), u(rng), u(rng)), kPi / 6);
    const Mat3 L = fit.Update(Coordinates(m, R, c), start);
    EXPECT_LT((L - R).norm(), 1e-12) << "case " << k;
  }
}

// A pure symmetric stretch U (no rotation) superposed on R leaves the fitted rotation at R:
// grad d = R (U - I) + ... has no antisymmetric part once rotated back.
TEST(CorotationFit, IgnoresSymmetricStretch) {
  const geometry::Mesh m = Bar();
  CorotationFit fit(m);
  Mat3 U;
  U << 1.02, 0.01, 0.0, 0.01, 0.97, 0.005, 0.0, 0.005, 1.05;
  const Mat3 R = AxisAngle(Vec3(1, 2, 3), 0.8);
  const Mat3 L = fit.Update(Coordinates(m, R * U, Vec3(0.3, -1, 2)), Mat3::Identity());
  EXPECT_LT((L - R).norm(), 1e-10);
}

// Bending the bar in its y-z plane about a tilted centre line: the fitted rotation is about x
// (the deformation has no other rotation), and its angle lies within the range of the
// cross-section rotations theta0 +- kappa L / 2.
TEST(CorotationFit, BentBarRotatesAboutBendingAxis) {
  const geometry::Mesh m = Bar();
  CorotationFit fit(m);
  VecX x(3 * m.nodes.size());
  const double kappa = 0.2, theta0 = 0.4;  // curvature [1/m], tilt of the centre line [rad]
  for (size_t a = 0; a < m.nodes.size(); ++a) {
    const Vec3 X = m.nodes[a];
    const double s = X.z() - 0.5, y = X.y() - 0.05;
    const double phi = theta0 + kappa * s;  // cross-section rotation about x
    x.segment<3>(3 * a) = Vec3(X.x(), -s * std::sin(theta0) + y * std::cos(phi),
                               s * std::cos(theta0) + y * std::sin(phi));
  }
  const Mat3 L = fit.Update(x, Mat3::Identity());
  EXPECT_NEAR(L(0, 0), 1.0, 1e-12);
  EXPECT_NEAR(L(0, 1), 0.0, 1e-12);
  EXPECT_NEAR(L(0, 2), 0.0, 1e-12);
  const double angle = std::atan2(L(2, 1), L(1, 1));
  EXPECT_GT(angle, theta0 - 0.5 * kappa);
  EXPECT_LT(angle, theta0 + 0.5 * kappa);
}

}  // namespace
}  // namespace solfec::body
