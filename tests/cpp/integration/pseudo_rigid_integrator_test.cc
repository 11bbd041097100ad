// Tests of the DEF_EXP / DEF_LIM pseudo-rigid integrators against closed-form small-strain
// vibrations, rigid motions, damping decay and the explicit stability limit.
#include "integration/pseudo_rigid_integrator.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/errors.h"
#include "body/box_shape.h"
#include "body/pseudo_rigid_body.h"
#include "integration/integrator.h"

namespace solfec::integration {
namespace {

using body::PseudoRigidBody;
using body::Scheme;

// Unit cube centred at the origin: rho = 1e3, E = 1e6 (rho E = diag(1e3/12)).
std::unique_ptr<PseudoRigidBody> MakeCube(double poisson, double young = 1e6) {
  material::BulkMaterial m = testing::Material(1e3);
  m.young = young;
  m.poisson = poisson;
  return std::make_unique<PseudoRigidBody>(
      testing::BoxShape(Vec3(-0.5, -0.5, -0.5), Vec3(1, 1, 1)), m, "cube");
}

void Step(PseudoRigidBody& b, double t, double h, const Vec3& g = Vec3::Zero()) {
  const auto in = MakeIntegrator(b);
  in->BeginStep(t, h);
  in->FreeVelocity(t, h, g);
  in->EndStep(t, h);
}

double Energy(const PseudoRigidBody& b) { return b.KineticEnergy() + b.InternalEnergy(); }

// Initial Fdot = diag(a, 0, 0) of a cube (side 1): with small strains the diagonal modes
// are the volumetric one, w_v^2 = 12 (3 lambda + 2 mu) / rho, carrying 1/3 of the velocity,
// and the deviatoric one, w_d^2 = 12 (2 mu) / rho, carrying 2/3:
//   F11(t) - 1 = a/3 sin(w_v t)/w_v + 2a/3 sin(w_d t)/w_d.
// For poisson = 0 both coincide: w^2 = 12 E / rho (= E V / (rho E_xx)).
double UniaxialClosedForm(double poisson, double a, double t) {
  const double E = 1e6, rho = 1e3;
  const double lambda = E * poisson / ((1 + poisson) * (1 - 2 * poisson));
  const double mu = E / (2 + 2 * poisson);
  const double wv = std::sqrt(12 * (3 * lambda + 2 * mu) / rho);
  const double wd = std::sqrt(12 * 2 * mu / rho);
  return a / 3 * std::sin(wv * t) / wv + 2 * a / 3 * std::sin(wd * t) / wd;
}

class UniaxialVibration : public ::testing::TestWithParam<std::tuple<Scheme, double>> {};

TEST_P(UniaxialVibration, FollowsTheSmallStrainClosedForm) {
  const auto [scheme, poisson] = GetParam();
  auto b = MakeCube(poisson);
  b->scheme = scheme;
  const double a = 0.01;  // strain amplitude ~ a / w ~ 1e-4: nonlinearity ~ 1e-4 relative
  Mat3 D = Mat3::Zero();
  D(0, 0) = a;
  b->set_deformation_rate(D);
  const double h = 1e-4, amp = a / std::sqrt(12e3);
  double worst = 0.0;
  for (int i = 0; i < 1000; ++i) {  // 0.1 s: ~2.5 periods of the volumetric mode
    Step(*b, i * h, h);
    const double t = (i + 1) * h;
    const double exact = UniaxialClosedForm(poisson, a, t);
    worst = std::max(worst, std::abs(b->deformation()(0, 0) - 1 - exact));
  }
  // Phase error of the midpoint-type schemes ~ w t (w h)^2 / 12 < 3e-4 rad, plus geometric
  // nonlinearity ~ 1e-4: 3e-3 of the amplitude bounds both.
  EXPECT_LT(worst, 3e-3 * amp);
  // Poisson 0 decouples F11 from F22, F33 (lambda = 0).
  if (poisson == 0.0) {
    EXPECT_LT(std::abs(b->deformation()(1, 1) - 1), 1e-12);
  }
  // The centre does not move.
  EXPECT_LT(b->position().norm(), 1e-15);
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, UniaxialVibration,
    ::testing::Values(std::make_tuple(Scheme::kDefExp, 0.0), std::make_tuple(Scheme::kDefLim, 0.0),
                      std::make_tuple(Scheme::kDefExp, 0.25),
                      std::make_tuple(Scheme::kDefLim, 0.25)));

TEST(PseudoRigidIntegrator, CriticalStepOfACubeIsTwoOverTheVolumetricFrequency) {
  auto b = MakeCube(0.25);
  // Largest mode at F = I: volumetric, w^2 = 12 (3 lambda + 2 mu) / rho = 24000.
  EXPECT_NEAR(PseudoRigidCriticalStep(*b), 2.0 / std::sqrt(24000.0), 1e-10);
}

TEST(PseudoRigidIntegrator, ExplicitSchemeRefusesAStepAboveTheCriticalStep) {
  auto b = MakeCube(0.25);
  b->set_id(4);
  try {
    Step(*b, 0.0, 0.02);  // > 0.01291
    FAIL() << "no exception";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("exceeds the critical step 0.0129"), std::string::npos) << msg;
    EXPECT_NE(msg.find("body 4 ('cube')"), std::string::npos) << msg;
    EXPECT_NE(msg.find("DEF_LIM"), std::string::npos) << msg;
  }
  // The linearly implicit scheme takes the same step (and stays bounded).
  b->scheme = Scheme::kDefLim;
  Mat3 D = Mat3::Zero();
  D(0, 0) = 0.01;
  b->set_deformation_rate(D);
  const double e0 = Energy(*b);
  for (int i = 0; i < 200; ++i) Step(*b, i * 0.02, 0.02);
  EXPECT_LT(Energy(*b), 1.01 * e0);
}

TEST(PseudoRigidIntegrator, FreeFlightUnderGravityIsExact) {
  for (Scheme s : {Scheme::kDefExp, Scheme::kDefLim}) {
    auto b = MakeCube(0.25);
    b->scheme = s;
    const Vec3 g(0, 0, -9.81), v0(1, -2, 5);
    b->SetInitialVelocity(v0, Vec3::Zero());
    const double h = 1e-3;
    for (int i = 0; i < 500; ++i) Step(*b, i * h, h, g);
    const double t = 0.5;
    // Midpoint rule is exact for a constant force; F stays the identity.
    EXPECT_LT((b->position() - (v0 * t + 0.5 * g * t * t)).norm(), 1e-12);
    EXPECT_LT((b->deformation() - Mat3::Identity()).norm(), 1e-14);
    // External work = kinetic energy change.
    EXPECT_NEAR(b->external_work, b->KineticEnergy() - 0.5 * 1e3 * v0.squaredNorm(), 1e-6);
  }
}

TEST(PseudoRigidIntegrator, RigidRotationKeepsFNearlyOrthogonalAndEnergyBounded) {
  auto b = MakeCube(0.25, 1e8);
  b->scheme = Scheme::kDefLim;
  const Vec3 w(1, 2, 3);
  b->SetInitialVelocity(Vec3::Zero(), w);
  const double e0 = Energy(*b), h = 1e-3;
  double worst_orth = 0, worst_energy = 0;
  for (int i = 0; i < 3000; ++i) {
    Step(*b, i * h, h);
    const Mat3 F = b->deformation();
    worst_orth = std::max(worst_orth, (F.transpose() * F - Mat3::Identity()).cwiseAbs().maxCoeff());
    worst_energy = std::max(worst_energy, std::abs(Energy(*b) - e0) / e0);
  }
  // Centrifugal strain ~ rho |w|^2 a^2 / E = 1e3 * 14 * 0.25 / 1e8 = 3.5e-5.
  EXPECT_LT(worst_orth, 5e-4);
  EXPECT_LT(worst_energy, 1e-3);
  // The body has turned: F differs from I by O(1) after 3 s of |w| = 3.7 rad/s.
  EXPECT_GT((b->deformation() - Mat3::Identity()).norm(), 0.5);
}

TEST(PseudoRigidIntegrator, StiffnessProportionalDampingDecaysEnergyAtEtaOmegaSquared) {
  auto b = MakeCube(0.0);
  b->scheme = Scheme::kDefLim;
  b->damping = 1e-4;
  Mat3 D = Mat3::Zero();
  D(0, 0) = 0.01;
  b->set_deformation_rate(D);
  const double e0 = Energy(*b), h = 1e-4;
  const double w = std::sqrt(12e3), period = 2 * M_PI / w;
  const int n = static_cast<int>(std::round(10 * period / h));
  for (int i = 0; i < n; ++i) Step(*b, i * h, h);
  // Modal damping xi = eta w / 2: over whole periods E(t) = E0 exp(-2 xi w t) = exp(-eta w^2 t)
  // up to O(xi) = 0.5% ripple and the rounding of t to a step.
  const double t = n * h;
  EXPECT_NEAR(Energy(*b) / e0, std::exp(-1e-4 * w * w * t), 0.01);
}

}  // namespace
}  // namespace solfec::integration
