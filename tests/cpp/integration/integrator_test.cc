// Tests of MakeIntegrator (integrator.h): the integrator chosen once for a body's class, form
// and analysis performs exactly (bitwise) the steps of that class's step functions, follows a
// scheme changed after it was made, and answers CheckStep and CriticalStep for its row.
#include "integration/integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include <Eigen/QR>

#include "base/errors.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "body/fem/ffr_body.h"
#include "body/fem/reduced_fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "body/rigid_body.h"
#include "integration/corotated_integrator.h"
#include "integration/fe_integrator.h"
#include "integration/ffr_integrator.h"
#include "integration/pseudo_rigid_integrator.h"
#include "integration/quasi_static_integrator.h"
#include "integration/reduced_integrator.h"
#include "integration/rigid_integrator.h"

namespace solfec::integration {
namespace {

using body::BodyKind;
using body::FeBody;
using body::FeForm;
using body::FfrBody;
using body::PseudoRigidBody;
using body::ReducedFeBody;
using body::RigidBody;
using body::Scheme;

constexpr double kH = 1e-3;
const Vec3 kGravity(0.0, 0.0, -10.0);

material::BulkMaterial Soft() {
  material::BulkMaterial m = testing::Material(1e3);
  m.young = 1e6;
  m.poisson = 0.25;
  return m;
}

geometry::Shape Cube() { return testing::BoxShape(Vec3::Zero(), Vec3(1.0, 0.7, 0.5)); }
geometry::Shape Mesh() {
  return testing::HexMeshShape(Vec3::Zero(), Vec3(1.0, 0.7, 0.5), 2, 2, 1);
}

// The typed step functions of one row of the table (one body class and mode).
template <class B>
struct Kernels {
  std::function<void(B&, double, double)> begin;
  std::function<void(B&, double, double, const Vec3&)> free;
  std::function<void(B&, double, double)> end;
};

// Steps body a with MakeIntegrator(a, mode) and its twin b with the kernels; with a spin and
// gravity, any other row's functions would give other numbers. Exact equality: the chosen
// integrator must call the same arithmetic in the same order.
template <class B>
void ExpectSameSteps(B& a, B& b, Mode mode, const Kernels<B>& k, int steps = 5) {
  a.SetInitialVelocity(Vec3(0.3, 0.1, -0.2), Vec3(0.4, 1.0, 2.0));
  b.SetInitialVelocity(Vec3(0.3, 0.1, -0.2), Vec3(0.4, 1.0, 2.0));
  const auto in = MakeIntegrator(a, mode);
  for (int n = 0; n < steps; ++n) {
    const double t = n * kH;
    in->CheckStep(kH);
    in->BeginStep(t, kH);
    in->FreeVelocity(t, kH, kGravity);
    in->EndStep(t, kH);
    k.begin(b, t, kH);
    k.free(b, t, kH, kGravity);
    k.end(b, t, kH);
  }
  ASSERT_EQ(a.q().size(), b.q().size());
  EXPECT_TRUE(a.q() == b.q()) << "max |dq| = " << (a.q() - b.q()).cwiseAbs().maxCoeff();
  EXPECT_TRUE(a.u() == b.u()) << "max |du| = " << (a.u() - b.u()).cwiseAbs().maxCoeff();
  EXPECT_EQ(a.external_work, b.external_work);
  EXPECT_GT(a.u().norm(), 0.0);  // it did move
}

TEST(MakeIntegrator, RigidAndObstacleGetTheRigidSchemes) {
  const Kernels<RigidBody> k{BeginRigidStep, RigidFreeVelocity, EndRigidStep};
  for (BodyKind kind : {BodyKind::kRigid, BodyKind::kObstacle})
    for (Scheme s : {Scheme::kDefault, Scheme::kRigPos, Scheme::kRigImp}) {
      RigidBody a(kind, Cube(), Soft(), "a"), b(kind, Cube(), Soft(), "b");
      a.scheme = b.scheme = s;
      ExpectSameSteps(a, b, Mode::kDynamic, k);
    }
}

TEST(MakeIntegrator, PseudoRigidGetsItsSchemes) {
  const Kernels<PseudoRigidBody> k{BeginPseudoRigidStep, PseudoRigidFreeVelocity,
                                   EndPseudoRigidStep};
  for (Scheme s : {Scheme::kDefExp, Scheme::kDefLim}) {
    PseudoRigidBody a(Cube(), Soft(), "a"), b(Cube(), Soft(), "b");
    a.scheme = b.scheme = s;
    ExpectSameSteps(a, b, Mode::kDynamic, k);
  }
}

TEST(MakeIntegrator, FiniteElementFormsTlAndBcGetTheirOwnFunctions) {
  for (Scheme s : {Scheme::kDefExp, Scheme::kDefLim}) {
    FeBody a(Mesh(), Soft(), "a"), b(Mesh(), Soft(), "b");
    a.scheme = b.scheme = s;
    ExpectSameSteps(a, b, Mode::kDynamic,
                    Kernels<FeBody>{BeginFeStep, FeFreeVelocity, EndFeStep});
    FeBody c(Mesh(), Soft(), "c"), d(Mesh(), Soft(), "d");
    c.set_form(FeForm::kBC);
    d.set_form(FeForm::kBC);
    c.scheme = d.scheme = s;
    const Kernels<FeBody> bc{BeginCorotatedStep, CorotatedFreeVelocity, EndCorotatedStep};
    ExpectSameSteps(c, d, Mode::kDynamic, bc);
  }
}

// The rigid modes of the mesh nodes, orthonormalised: a valid 'BC-RO' base.
MatX RigidModes(const geometry::Shape& s) {
  const auto& nodes = s.meshes[0].nodes;
  const int N = static_cast<int>(nodes.size());
  Vec3 c = Vec3::Zero();
  for (const Vec3& X : nodes) c += X / N;
  MatX R = MatX::Zero(3 * N, 6);
  for (int a = 0; a < N; ++a)
    for (int k = 0; k < 3; ++k) {
      R(3 * a + k, k) = 1.0;
      R.block<3, 1>(3 * a, 3 + k) = Vec3::Unit(k).cross(nodes[a] - c);
    }
  Eigen::HouseholderQR<MatX> qr(R);
  return qr.householderQ() * MatX::Identity(3 * N, 6);
}

body::FeOptions RigidBase() {
  const geometry::Shape s = Mesh();
  body::FeOptions fe;
  fe.form = FeForm::kBCRO;
  fe.evecs = RigidModes(s);
  fe.evals = VecX::Zero(6);
  fe.Validate(static_cast<int>(s.meshes[0].nodes.size()));
  return fe;
}

TEST(MakeIntegrator, ReducedAndFfrFormsGetTheirFunctionsInBothModes) {
  ReducedFeBody a(Mesh(), Soft(), "a", std::nullopt, RigidBase());
  ReducedFeBody b(Mesh(), Soft(), "b", std::nullopt, RigidBase());
  a.scheme = b.scheme = Scheme::kDefLim;
  const Kernels<ReducedFeBody> k{
      [](ReducedFeBody& r, double t, double h) { BeginReducedStep(r, t, h, false); },
      [](ReducedFeBody& r, double t, double h, const Vec3& g) {
        ReducedFreeVelocity(r, t, h, g, false);
      },
      [](ReducedFeBody& r, double t, double h) { EndReducedStep(r, t, h, false); }};
  ExpectSameSteps(a, b, Mode::kDynamic, k);
  // QUASI_STATIC is refused before anything moves.
  EXPECT_THROW(MakeIntegrator(a, Mode::kQuasiStatic)->CheckStep(kH), InputError);

  for (Mode mode : {Mode::kDynamic, Mode::kQuasiStatic}) {
    const bool qs = mode == Mode::kQuasiStatic;
    FfrBody c(Mesh(), Soft(), "c"), d(Mesh(), Soft(), "d");
    c.scheme = d.scheme = Scheme::kDefLim;
    ExpectSameSteps(c, d, mode,
                    Kernels<FfrBody>{
                        [qs](FfrBody& f, double t, double h) { BeginFfrStep(f, t, h, qs); },
                        [qs](FfrBody& f, double t, double h, const Vec3& g) {
                          FfrFreeVelocity(f, t, h, g, qs);
                        },
                        [qs](FfrBody& f, double t, double h) { EndFfrStep(f, t, h, qs); }});
  }
}

// QUASI_STATIC rows: nothing moves in BeginStep, then the class's quasi-static functions.
template <class B>
Kernels<B> QuasiStatic() {
  return {[](B&, double, double) {},
          [](B& b, double t, double h, const Vec3& g) { QuasiStaticFreeVelocity(b, t, h, g); },
          [](B& b, double, double h) { EndQuasiStaticStep(b, h); }};
}

TEST(MakeIntegrator, QuasiStaticRowsOfRigidPseudoRigidAndFiniteElementBodies) {
  RigidBody a(BodyKind::kRigid, Cube(), Soft(), "a"), b(BodyKind::kRigid, Cube(), Soft(), "b");
  ExpectSameSteps(a, b, Mode::kQuasiStatic, QuasiStatic<RigidBody>());
  PseudoRigidBody c(Cube(), Soft(), "c"), d(Cube(), Soft(), "d");
  ExpectSameSteps(c, d, Mode::kQuasiStatic, QuasiStatic<PseudoRigidBody>());
  for (FeForm form : {FeForm::kTL, FeForm::kBC}) {
    FeBody e(Mesh(), Soft(), "e"), f(Mesh(), Soft(), "f");
    e.set_form(form);
    f.set_form(form);
    ExpectSameSteps(e, f, Mode::kQuasiStatic, QuasiStatic<FeBody>());
  }
}

// The scheme is read at every step: an integrator made for DEF_EXP follows BODY.scheme set
// to DEF_LIM later, and its CriticalStep with it.
TEST(MakeIntegrator, FollowsASchemeChangedAfterItWasMade) {
  PseudoRigidBody a(Cube(), Soft(), "a");
  a.scheme = Scheme::kDefExp;
  const auto in = MakeIntegrator(a);
  EXPECT_EQ(in->CriticalStep(), PseudoRigidCriticalStep(a));
  EXPECT_TRUE(std::isfinite(in->CriticalStep()));
  a.scheme = Scheme::kDefLim;
  EXPECT_EQ(in->CriticalStep(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(MakeIntegrator(a, Mode::kQuasiStatic)->CriticalStep(),
            std::numeric_limits<double>::infinity());

  FeBody b(Mesh(), Soft(), "b"), c(Mesh(), Soft(), "c");
  const auto fe = MakeIntegrator(b);
  b.scheme = c.scheme = Scheme::kDefLim;  // after MakeIntegrator
  for (int n = 0; n < 3; ++n) {
    fe->BeginStep(n * kH, kH);
    fe->FreeVelocity(n * kH, kH, kGravity);
    fe->EndStep(n * kH, kH);
    BeginFeStep(c, n * kH, kH);
    FeFreeVelocity(c, n * kH, kH, kGravity);
    EndFeStep(c, n * kH, kH);
  }
  EXPECT_TRUE(b.q() == c.q());
  EXPECT_EQ(fe->CriticalStep(), std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace solfec::integration
