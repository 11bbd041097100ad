// Tests of the reduced bases (body/fem/modal_analysis.h): modal analysis of a free-free bar
// against beam theory, rigid modes and co-rotated displacements.
#include "body/fem/modal_analysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "base/math.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"

namespace solfec::body {
namespace {

// Bar 0.1 x 0.1 x L (L = 1) along z, E = 1e6, nu = 0 (the 1-D bar and beam formulas then hold
// without Poisson corrections), rho = 1e3: c = sqrt(E / rho) = 31.62 m/s.
constexpr double kE = 1e6, kRho = 1e3, kA = 0.1, kL = 1.0;

FeBody Bar(int nxy, int nz) {
  material::BulkMaterial m = testing::Material(kRho);
  m.young = kE;
  m.poisson = 0.0;
  return FeBody(testing::HexMeshShape(Vec3::Zero(), Vec3(kA, kA, kL), nxy, nxy, nz), m, "");
}

// Fraction of the mode's mass-weighted norm carried by the z components.
double AxialFraction(const FeBody& b, const VecX& v) {
  const VecX& m = b.lumped_mass();
  double z = 0.0, all = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    all += m[i] * v[i] * v[i];
    if (i % 3 == 2) z += m[i] * v[i] * v[i];
  }
  return z / all;
}

// First longitudinal and first bending angular frequencies of a modal base.
std::pair<double, double> Frequencies(const FeBody& b, const ModalBase& base) {
  double longitudinal = 0.0, bending = 0.0;
  for (Eigen::Index k = 6; k < base.evals.size(); ++k) {
    const double f = AxialFraction(b, base.evecs.col(k));
    if (bending == 0.0 && f < 0.1) bending = std::sqrt(base.evals[k]);
    if (longitudinal == 0.0 && f > 0.9) longitudinal = std::sqrt(base.evals[k]);
  }
  return {longitudinal, bending};
}

// The 2 x 2 x 20 bar (567 dofs, Lanczos path): rigid modes first with exactly zero eigenvalues
// and Rayleigh quotients below 1e-8 of the first elastic eigenvalue (K0 E_rigid is round-off of
// K0's entries), E^T M E = I to 1e-10 (Gram-Schmidt applied twice), elastic residuals
// |K v - lambda M v| <= 1e-8 |lambda M v| (tolerance 1e-11 plus a Rayleigh-Ritz step).
TEST(ModalAnalysis, FreeBarBaseIsMassOrthonormalWithRigidModesFirst) {
  FeBody b = Bar(2, 2 * 10);
  const ModalBase base = ModalAnalysis(b, 14);
  ASSERT_EQ(base.evecs.rows(), 3 * b.num_nodes());
  ASSERT_EQ(base.evecs.cols(), 14);
  EXPECT_FALSE(base.dense);
  const SparseMat K = ReferenceStiffness(b);
  const SparseMat M = b.MassMatrix();
  const MatX G = base.evecs.transpose() * (M * base.evecs);
  EXPECT_LT((G - MatX::Identity(14, 14)).cwiseAbs().maxCoeff(), 1e-10);
  const double first = base.evals[6];
  EXPECT_GT(first, 0.0);
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(base.evals[k], 0.0);
    const VecX v = base.evecs.col(k);
    EXPECT_LT(std::abs(v.dot(K * v)) / first, 1e-8) << "rigid mode " << k;
  }
  for (int k = 6; k < 14; ++k) {
    const VecX v = base.evecs.col(k);
    const VecX Mv = M * v;
    EXPECT_LT((K * v - base.evals[k] * Mv).norm(), 1e-8 * base.evals[k] * Mv.norm()) << k;
    if (k > 6) {
      EXPECT_GE(base.evals[k], base.evals[k - 1]);
    }
  }
}

// Longitudinal: omega = (pi / L) sqrt(E / rho) = 99.35 rad/s; linear elements with lumped mass
// underestimate it by about (pi h / L)^2 / 24 (0.10% at 20 elements, 0.026% at 40): within
// 0.3% and the error decreases under refinement (measured 99.244, 99.320). Bending
// (Euler-Bernoulli free-free): omega_EB = 4.730^2 sqrt(E I / (rho A L^4)) = 20.42 rad/s. Shear
// flexibility and rotary inertia (Timoshenko, first order) lower the 3-D value by
// (beta r)^2 / 2 (1 + E / (kappa G)) = 3.2% (beta = 4.730 / L, r^2 = a^2 / 12, kappa = 5/6,
// nu = 0) to omega_T = 19.78; fully integrated HEX8 lock in shear (stiffer): the coarse mesh
// lies within 5% of omega_EB and the refined one closer to omega_T (measured 20.68, 20.03).
TEST(ModalAnalysis, FreeBarFrequenciesMatchBarAndBeamTheory) {
  const double c = std::sqrt(kE / kRho);
  const double longitudinal = kPi / kL * c;
  const double r2 = kA * kA / 12.0, beta = 4.730 / kL;
  const double bending = 4.730 * 4.730 * std::sqrt(kE * r2 / (kRho * kL * kL * kL * kL));
  const double timoshenko = bending * (1.0 - 0.5 * beta * beta * r2 * (1.0 + 2.0 / (5.0 / 6.0)));
  FeBody coarse = Bar(2, 20), fine = Bar(4, 40);
  const auto [lc, bc] = Frequencies(coarse, ModalAnalysis(coarse, 14));
  const auto [lf, bf] = Frequencies(fine, ModalAnalysis(fine, 14));
  ASSERT_GT(lc * lf * bc * bf, 0.0);
  std::printf("longitudinal %.5f (coarse) %.5f (fine) exact %.5f; bending %.4f %.4f EB %.4f "
              "Timoshenko %.4f\n", lc, lf, longitudinal, bc, bf, bending, timoshenko);
  EXPECT_LT(std::abs(lc - longitudinal) / longitudinal, 3e-3);
  EXPECT_LT(std::abs(lf - longitudinal), std::abs(lc - longitudinal));
  EXPECT_LT(std::abs(bc - bending) / bending, 0.05);
  EXPECT_LT(std::abs(bf - timoshenko), std::abs(bc - timoshenko));
}

// A 2 x 2 x 2 cube (81 dofs) takes the dense path: the same claims hold there.
TEST(ModalAnalysis, DensePathOfTinyMeshSatisfiesEigenEquations) {
  material::BulkMaterial m = testing::Material(kRho);
  FeBody b(testing::HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), m, "");
  const ModalBase base = ModalAnalysis(b, 20);
  EXPECT_TRUE(base.dense);
  const SparseMat K = ReferenceStiffness(b);
  const SparseMat M = b.MassMatrix();
  const MatX G = base.evecs.transpose() * (M * base.evecs);
  EXPECT_LT((G - MatX::Identity(20, 20)).cwiseAbs().maxCoeff(), 1e-10);
  for (int k = 6; k < 20; ++k) {
    const VecX v = base.evecs.col(k);
    const VecX Mv = M * v;
    EXPECT_LT((K * v - base.evals[k] * Mv).norm(), 1e-9 * base.evals[k] * Mv.norm()) << k;
  }
}

TEST(ModalAnalysis, RejectsModeCountOutsideRange) {
  FeBody b = Bar(1, 2);
  EXPECT_THROW(ModalAnalysis(b, 5), InputError);
  EXPECT_THROW(ModalAnalysis(b, 3 * b.num_nodes() + 1), InputError);
}

// E^T E = I to round-off and K0 E = 0 relative to |K0| |E| (rigid motions are strain free;
// 1e-12 covers the round-off of the assembled entries), also for a displaced body.
TEST(RigidDisplacements, AreOrthonormalAndStrainFree) {
  FeBody b = Bar(2, 10);
  for (int i = 0; i < b.num_nodes(); ++i)
    b.mutable_q().segment<3>(3 * i) = AxisAngle(Vec3(1, 2, 3).normalized(), 0.7) *
                                      b.mesh().nodes[i] + Vec3(1, 2, 3);
  const MatX E = RigidDisplacements(b);
  EXPECT_LT((E.transpose() * E - MatX::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-13);
  const SparseMat K = ReferenceStiffness(b);
  EXPECT_LT((K * E).norm(), 1e-12 * K.norm());
  EXPECT_NEAR(b.node(0).x(), 1.0 + (AxisAngle(Vec3(1, 2, 3).normalized(), 0.7) *
                                     b.mesh().nodes[0]).x(), 1e-15);  // q restored
  const MatX Em = RigidDisplacements(b, true);
  EXPECT_LT((Em.transpose() * b.MassMatrix() * Em - MatX::Identity(6, 6)).cwiseAbs().maxCoeff(),
            1e-12);
}

// x = R U (Z - Z_c) + c: the co-rotated displacement is (U - I)(Z - Z_c) exactly (U symmetric,
// so the appendix-A fit returns R; U = I gives zero), to round-off 1e-12 of the bar size.
TEST(CorotatedDisplacements, RemoveRigidMotionAndKeepStretch) {
  FeBody b = Bar(2, 10);
  const int n = 3 * b.num_nodes();
  const VecX& m = b.lumped_mass();
  Vec3 Zc = Vec3::Zero();
  for (int a = 0; a < b.num_nodes(); ++a) Zc += m[3 * a] * b.mesh().nodes[a];
  Zc /= b.mass();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Mat3 U = Vec3(1.02, 0.99, 1.05).asDiagonal();
  MatX X(n, 4);
  for (int k = 0; k < 4; ++k) {
    const Mat3 R = AxisAngle(Vec3(u(rng), u(rng), u(rng)).normalized(), 3.0 * u(rng));
    const Mat3 F = k % 2 ? Mat3(R * U) : R;
    const Vec3 shift(u(rng), 0.5, -2.0);
    for (int a = 0; a < b.num_nodes(); ++a)
      X.block<3, 1>(3 * a, k) = F * (b.mesh().nodes[a] - Zc) + shift;
  }
  std::vector<Mat3> rotations;
  const MatX D = CorotatedDisplacements(b, X, &rotations);
  ASSERT_EQ(rotations.size(), 4u);
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < b.num_nodes(); ++a) {
      const Vec3 expected =
          k % 2 ? Vec3((U - Mat3::Identity()) * (b.mesh().nodes[a] - Zc)) : Vec3::Zero();
      EXPECT_LT((D.block<3, 1>(3 * a, k) - expected).norm(), 1e-12) << k << " " << a;
    }
  EXPECT_THROW(CorotatedDisplacements(b, MatX::Zero(n - 3, 1), nullptr), InputError);
}

}  // namespace
}  // namespace solfec::body
