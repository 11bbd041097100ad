// Tests of the DEF_LIM / DEF_EXP finite-element integrators: the homogeneous vibration of a
// single HEX8 against its closed form and the pseudo-rigid model, energy behaviour, a bar
// in static uniaxial tension and the explicit stability limit.
#include "integration/fe_integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>

#include "base/errors.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "integration/integrator.h"

namespace solfec::integration {
namespace {

using body::FeBody;
using body::Scheme;

material::BulkMaterial Mat(double poisson) {
  material::BulkMaterial m = testing::Material(1e3);
  m.young = 1e6;
  m.poisson = poisson;
  return m;
}

template <class B>
void Step(B& b, double t, double h) {
  const auto in = MakeIntegrator(b);
  in->BeginStep(t, h);
  in->FreeVelocity(t, h, Vec3::Zero());
  in->EndStep(t, h);
}

// Times of the upward zero crossings of g(t) sampled along a run.
template <class F>
std::vector<double> Crossings(F step_and_value, double h, int steps) {
  std::vector<double> out;
  double prev = step_and_value(0);
  for (int n = 1; n <= steps; ++n) {
    const double v = step_and_value(n);
    if (prev < 0.0 && v >= 0.0) out.push_back(h * (n - 1 + prev / (prev - v)));
    prev = v;
  }
  return out;
}

// A unit cube as one HEX8 (poisson 0) with the homogeneous velocity u_a = a (X_a - c)_x e_x
// vibrates in the homogeneous uniaxial mode (forces of a homogeneous F are homogeneous, so
// the hourglass modes stay at rest). With lumped masses m/8 at the corners the mode's inertia
// is sum m_a A_x^2 = 1e3/4 against rho E_xx = 1e3/12 of the pseudo-rigid model, so
// w_fe^2 = E V / 250 = 4000 (period 0.09935 s) and T_fe / T_prb = sqrt(3). The midpoint
// scheme with h = T/400 has a relative period error (w h)^2/24 ~ 1e-5; amplitude strain
// 1e-4 keeps the nonlinear shift below 1e-6: tolerance 1e-3.
TEST(FeIntegrator, SingleHexVibratesAtTheLumpedMassFrequencyAndSqrt3TimesThePrbPeriod) {
  const double a = 1e-2, w = std::sqrt(4000.0), T = 2 * M_PI / w, h = T / 400;
  FeBody fe(testing::HexMeshShape(Vec3::Zero(), Vec3::Ones(), 1, 1, 1), Mat(0.0), "fe");
  fe.scheme = Scheme::kDefLim;
  for (int i = 0; i < fe.num_nodes(); ++i) fe.mutable_u()[3 * i] = a * (fe.node(i).x() - 0.5);
  auto fe_strain = [&](int n) {
    if (n > 0) Step(fe, (n - 1) * h, h);
    return fe.node(1).x() - fe.node(0).x() - 1.0;  // F11 - 1 (nodes 0, 1 along x)
  };
  const std::vector<double> tf = Crossings(fe_strain, h, 1300);
  ASSERT_GE(tf.size(), 3u);
  const double T_fe = (tf.back() - tf.front()) / (tf.size() - 1);
  EXPECT_NEAR(T_fe / T, 1.0, 1e-3);

  body::PseudoRigidBody prb(testing::BoxShape(Vec3::Zero(), Vec3::Ones()), Mat(0.0), "prb");
  prb.scheme = Scheme::kDefLim;
  Mat3 D = Mat3::Zero();
  D(0, 0) = a;
  prb.set_deformation_rate(D);
  const double hp = h / std::sqrt(3.0);
  auto prb_strain = [&](int n) {
    if (n > 0) Step(prb, (n - 1) * hp, hp);
    return prb.deformation()(0, 0) - 1.0;
  };
  const std::vector<double> tp = Crossings(prb_strain, hp, 1300);
  ASSERT_GE(tp.size(), 3u);
  const double T_prb = (tp.back() - tp.front()) / (tp.size() - 1);
  EXPECT_NEAR(T_fe / T_prb, std::sqrt(3.0), 2e-3);
  // Undamped DEF_LIM: the energy of the linear mode is conserved to O((w h)^2) ~ 1e-4.
  const double E0 = 0.5 * 1e3 / 4 * a * a;
  EXPECT_NEAR(fe.KineticEnergy() + fe.InternalEnergy(), E0, 1e-3 * E0);
}

// A 4 x 1 x 1 bar (HEX 4x1x1, poisson 0) pulled by nodal forces +-T/4 on its end faces: at
// rest (DEF_LIM with stiffness damping) the nominal stress T/A equals the SVK uniaxial law
// P = E lam (lam^2 - 1)/2 of the stretch lam, within the 1e-6 residual of the damped
// transient (t = 1.5 s, slowest decay rate ~15 1/s); and it is E * strain within 1% for
// T/A = E/1000.
TEST(FeIntegrator, BarInUniaxialTensionReachesTheSvkStaticStretch) {
  FeBody bar(testing::HexMeshShape(Vec3::Zero(), Vec3(4, 1, 1), 4, 1, 1), Mat(0.0), "bar");
  bar.scheme = Scheme::kDefLim;
  bar.damping = 0.05;  // modal ratio 0.62 for the first mode (w = pi c / L = 24.8 rad/s)
  const double Tforce = 1e3;  // E / 1000 over A = 1
  VecX fn = VecX::Zero(bar.num_dofs());
  for (int i = 0; i < bar.num_nodes(); ++i) {
    const double X = bar.mesh().nodes[i].x();
    if (X < 1e-12) fn[3 * i] = -Tforce / 4;
    if (X > 4 - 1e-12) fn[3 * i] = Tforce / 4;
  }
  body::PointLoad load;
  load.callback = [fn](const VecX&, const VecX&, double, double) { return fn; };
  bar.loads().push_back(load);
  const double h = 2e-3;
  for (int n = 0; n < 750; ++n) Step(bar, n * h, h);
  double x0 = 0.0, x1 = 0.0;
  for (int i = 0; i < bar.num_nodes(); ++i) {
    if (bar.mesh().nodes[i].x() < 1e-12) x0 += bar.node(i).x() / 4;
    if (bar.mesh().nodes[i].x() > 4 - 1e-12) x1 += bar.node(i).x() / 4;
  }
  const double lam = (x1 - x0) / 4.0;
  EXPECT_NEAR(1e6 * lam * (lam * lam - 1) / 2, Tforce, 1e-3 * Tforce);
  EXPECT_NEAR(1e6 * (lam - 1), Tforce, 1e-2 * Tforce);
  EXPECT_LT(bar.u().norm(), 1e-6);
}

// DEF_EXP: a step above the element bound 2/w_max is refused before anything moves; a step
// at 0.9 of it runs a stable vibration (energy bounded by the leapfrog estimate).
TEST(FeIntegrator, ExplicitSchemeRefusesStepsAboveTheCriticalStep) {
  FeBody b(testing::HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), Mat(0.3), "cube");
  b.scheme = Scheme::kDefExp;
  const double hc = FeCriticalStep(b);
  // The single-element bound for an element of side 1/2 with lumped masses is of order
  // 2 sqrt(m_a / k) ~ 1e-3 s here; finite and positive.
  ASSERT_TRUE(std::isfinite(hc));
  ASSERT_GT(hc, 0.0);
  const VecX q0 = b.q();
  EXPECT_THROW(MakeIntegrator(b)->BeginStep(0.0, 1.01 * hc), InputError);
  EXPECT_EQ((b.q() - q0).norm(), 0.0);
  for (int i = 0; i < b.num_nodes(); ++i)
    b.mutable_u()[3 * i] = 0.01 * (b.node(i).x() - 0.5) * (1 + b.node(i).y());
  // The element bound is an upper bound of the assembled w_max (element-by-element theorem).
  const VecX s = b.lumped_mass().cwiseSqrt().cwiseInverse();
  const MatX A = s.asDiagonal() * MatX(b.Stiffness()) * s.asDiagonal();
  Eigen::SelfAdjointEigenSolver<MatX> es(0.5 * (A + A.transpose()), Eigen::EigenvaluesOnly);
  const double w2 = es.eigenvalues().maxCoeff();
  EXPECT_LE(w2, b.MaxFrequencySquared() * (1 + 1e-12));
  const double E0 = b.KineticEnergy(), h = 0.9 * hc;
  // Leapfrog conserves a modified energy; the plain energy of a mode w deviates from it by
  // at most r / (1 - r), r = (w h / 2)^2 (largest for w_max). Growth would be exponential.
  const double r = 0.25 * w2 * h * h, tol = r / (1 - r);
  double worst = 0.0;
  for (int n = 0; n < 2000; ++n) {
    Step(b, n * h, h);
    worst = std::max(worst, std::abs(b.KineticEnergy() + b.InternalEnergy() - E0));
  }
  EXPECT_LT(worst, tol * E0);
}

// Gravity alone: every node falls with g (lumped masses, no internal force).
TEST(FeIntegrator, FreeFallIsExactForConstantGravity) {
  FeBody b(testing::TetCubeShape(Vec3::Zero(), 1.0), Mat(0.25), "tets");
  b.scheme = Scheme::kDefLim;
  const double h = 1e-3;
  const Vec3 g(0, 0, -9.81);
  for (int n = 0; n < 100; ++n) {
    const auto in = MakeIntegrator(b);
    in->BeginStep(n * h, h);
    in->FreeVelocity(n * h, h, g);
    in->EndStep(n * h, h);
  }
  for (int i = 0; i < b.num_nodes(); ++i) {
    EXPECT_NEAR(b.u()[3 * i + 2], -0.981, 1e-10);
    EXPECT_NEAR(b.node(i).z() - b.mesh().nodes[i].z(), -0.5 * 9.81 * 0.01, 1e-8);
  }
}

}  // namespace
}  // namespace solfec::integration
