// Tests of DEF_SEMI_EXPLICIT (Peng, Feng & Joli 2018): the critical step of eq. 46, equality
// with DEF_EXP below it, automatic sub-stepping above it and energy behaviour of Blatz-Ko.
#include "integration/semi_explicit_integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "integration/fe_integrator.h"

namespace solfec::integration {
namespace {

using body::FeBody;
using body::Scheme;

std::unique_ptr<FeBody> Cube(const std::string& model, double poisson, int n, Scheme scheme) {
  material::BulkMaterial m = testing::Material(800.0);
  m.model = model;
  m.young = 5e7;
  m.poisson = poisson;
  auto p = std::make_unique<FeBody>(
      testing::HexMeshShape(Vec3::Zero(), Vec3(0.5, 0.5, 0.5), n, n, n), m, "cube");
  FeBody& b = *p;
  b.scheme = scheme;
  // A smooth, non-homogeneous velocity field: twist plus squeeze (amplitude ~ 5 m/s).
  for (int a = 0; a < b.num_nodes(); ++a) {
    const Vec3 X = b.node(a) - Vec3(0.25, 0.25, 0.25);
    b.mutable_u().segment<3>(3 * a) = 20.0 * Vec3(-X.y(), X.x(), 0.0) * X.z() +
                                      Vec3(0.0, 0.0, -10.0 * X.z());
  }
  return p;
}

void Step(FeBody& b, double t, double h) {
  BeginFeStep(b, t, h);
  FeFreeVelocity(b, t, h, Vec3::Zero());
  EndFeStep(b, t, h);
}

// Eq. 46 with nu = 0 (c = sqrt(E / rho) exactly the paper's c_L): one unit HEX8 gives
// h_c = 0.5 * 0.5 m / sqrt(5e7 / 800) = 1e-3 s (the shortest node distance is the edge).
TEST(SemiExplicit, CriticalStepIsEq46WithTheShortestEdge) {
  const auto pb = Cube("BLATZ_KO", 0.0, 1, Scheme::kDefSemiExplicit);
  const FeBody& b = *pb;
  EXPECT_NEAR(SemiExplicitCriticalStep(b), 0.5 * 0.5 / std::sqrt(5e7 / 800.0), 1e-15);
}

// Below the critical step DEF_SEMI_EXPLICIT is the DEF_EXP update (same leapfrog, same
// lumped mass): 50 steps agree to rounding (1e-10 relative; the two differ in the order of
// the position additions only).
TEST(SemiExplicit, BelowTheCriticalStepItIsTheExplicitLeapfrog) {
  auto pa = Cube("KIRCHHOFF", 0.25, 2, Scheme::kDefExp);
  auto pb = Cube("KIRCHHOFF", 0.25, 2, Scheme::kDefSemiExplicit);
  FeBody &a = *pa, &b = *pb;
  const double h = 0.5 * SemiExplicitCriticalStep(b);
  for (int n = 0; n < 50; ++n) Step(a, n * h, h), Step(b, n * h, h);
  EXPECT_LT((a.q() - b.q()).cwiseAbs().maxCoeff(), 1e-10 * a.q().cwiseAbs().maxCoeff());
  EXPECT_LT((a.u() - b.u()).cwiseAbs().maxCoeff(), 1e-10 * a.u().cwiseAbs().maxCoeff());
}

// Above it, one step of h is n = ceil(h / h_c) leapfrog sub-steps of h/n: it equals n
// separate steps of h/n (1e-10 relative), and one warning naming the body is printed.
TEST(SemiExplicit, LargeStepIsSubSteppedWithOneWarning) {
  auto pa = Cube("NEO_HOOKEAN", 0.25, 2, Scheme::kDefSemiExplicit);
  auto pb = Cube("NEO_HOOKEAN", 0.25, 2, Scheme::kDefSemiExplicit);
  FeBody &a = *pa, &b = *pb;
  const double hc = SemiExplicitCriticalStep(a);
  const double h = 3.5 * hc;  // n = 4
  ::testing::internal::CaptureStderr();
  Step(a, 0.0, h);
  Step(a, h, h);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("DEF_SEMI_EXPLICIT"), std::string::npos);
  EXPECT_NE(err.find("'cube'"), std::string::npos);
  EXPECT_EQ(err.find("DEF_SEMI_EXPLICIT", err.find("DEF_SEMI_EXPLICIT") + 1), std::string::npos)
      << "warned more than once: " << err;
  EXPECT_EQ(a.step_state().substeps, 4);
  for (int n = 0; n < 8; ++n) Step(b, n * h / 4, h / 4);
  EXPECT_LT((a.q() - b.q()).cwiseAbs().maxCoeff(), 1e-10 * a.q().cwiseAbs().maxCoeff());
  EXPECT_LT((a.u() - b.u()).cwiseAbs().maxCoeff(), 1e-10 * a.u().cwiseAbs().maxCoeff());
}

// No damping, no contact: the leapfrog conserves a modified energy, so the total energy
// (kinetic + Blatz-Ko strain energy) measured at full steps oscillates by O(h^2) without
// secular drift. Measured over a fixed time (4 ms, a few vibration periods of the 0.5 m
// cube): largest relative deviation 1.1e-2 at h = h_c/2 and 2.9e-3 at h_c/4 (ratio 4 =
// second order); bounds 2e-2 and 5e-3, and the ratio in [3, 5].
double WorstEnergyDeviation(double fraction) {
  auto pb = Cube("BLATZ_KO", 0.25, 3, Scheme::kDefSemiExplicit);
  FeBody& b = *pb;
  const double h = fraction * SemiExplicitCriticalStep(b);
  const int steps = static_cast<int>(std::lround(4e-3 / h));
  const double e0 = b.KineticEnergy() + b.InternalEnergy();
  double worst = 0.0, strain = 0.0;
  for (int n = 0; n < steps; ++n) {
    Step(b, n * h, h);
    worst = std::max(worst, std::abs(b.KineticEnergy() + b.InternalEnergy() - e0) / e0);
    strain = std::max(strain, b.InternalEnergy() / e0);
  }
  EXPECT_GT(strain, 0.1);  // the body really deforms (energy exchange kinetic <-> strain)
  return worst;
}

TEST(SemiExplicit, BlatzKoCubeConservesEnergyWithoutDampingOrContact) {
  const double coarse = WorstEnergyDeviation(0.5), fine = WorstEnergyDeviation(0.25);
  std::printf("energy deviation %.3e (h_c/2), %.3e (h_c/4)\n", coarse, fine);
  EXPECT_LT(coarse, 2e-2);
  EXPECT_LT(fine, 5e-3);
  EXPECT_GT(coarse / fine, 3.0);
  EXPECT_LT(coarse / fine, 5.0);
}

}  // namespace
}  // namespace solfec::integration
