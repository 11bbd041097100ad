// Body state codec (body/body_state.h): what output, restart and MPI migration carry of a
// body is its whole state. For every body kind and FE form, a body's state packed after a
// few steps and unpacked into a fresh body made from the same input gives the same q, u and
// work counters bit for bit, the same current shape and energies, and the next step of both
// bodies agrees (nothing the next step reads is missing from the state).
#include "body/body_state.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "body/body_factory.h"
#include "body/box_shape.h"
#include "body/fem/fe_body.h"
#include "body/fe_mesh.h"
#include "integration/integrator.h"

namespace solfec::body {
namespace {

using testing::BoxShape;
using testing::ElasticMaterial;
using testing::HexMeshShape;

struct Case {
  std::string name;
  BodyKind kind;
  FeForm form;
  int modes;  // reduced base columns (BC-RO, BC-MODAL), else 0
};

std::unique_ptr<Body> Make(const Case& c) {
  const material::BulkMaterial m = ElasticMaterial(1e6, 0.3, 1000.0);
  if (c.kind != BodyKind::kFiniteElement)
    return MakeBody(c.kind, BoxShape(Vec3::Zero(), Vec3(1.0, 0.5, 0.25)), m, c.name);
  const geometry::Shape s = HexMeshShape(Vec3::Zero(), Vec3(1.0, 0.5, 0.25), 2, 1, 1);
  FeOptions fe;
  fe.form = c.form;
  if (c.modes > 0) {
    // The lowest modes of the lumped problem K0 E = M E diag(lambda), E^T M E = I (six rigid
    // modes first), from a TL body of the same mesh: the base MODAL_ANALYSIS gives.
    const auto probe = MakeBody(BodyKind::kFiniteElement, s, m, "probe");
    const auto& fe_probe = static_cast<const FeBody&>(*probe);
    const MatX K = MatX(fe_probe.ReferentialStiffness());
    const VecX w = fe_probe.lumped_mass().cwiseSqrt().cwiseInverse();
    const MatX S = w.asDiagonal() * (0.5 * (K + K.transpose())) * w.asDiagonal();
    Eigen::SelfAdjointEigenSolver<MatX> es(S);
    fe.evecs = w.asDiagonal() * es.eigenvectors().leftCols(c.modes);
    fe.evals = es.eigenvalues().head(c.modes).cwiseMax(0.0);
  }
  return MakeBody(c.kind, s, m, c.name, std::nullopt, fe);
}

void Step(Body& b, double t, double h) {
  const auto in = integration::MakeIntegrator(b);
  in->BeginStep(t, h);
  in->FreeVelocity(t, h, Vec3(0.0, 0.0, -9.81));
  in->EndStep(t, h);
}

class BodyStateRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(BodyStateRoundTrip, FlatStateIntoAFreshBodyContinuesTheSameMotion) {
  const Case& c = GetParam();
  std::unique_ptr<Body> a = Make(c), b = Make(c);
  a->set_id(7);
  b->set_id(7);
  a->SetInitialVelocity(Vec3(0.3, -0.2, 0.1), Vec3(0.5, 1.0, -0.7));
  const double h = 1e-3;
  for (int n = 0; n < 5; ++n) Step(*a, n * h, h);
  a->external_work = 1.25;
  a->contact_work = -0.5;
  a->friction_work = 0.125;
  if (c.kind != BodyKind::kObstacle) ASSERT_GT((a->u()).norm(), 0.0);

  std::vector<double> flat;
  AppendFlatState(*a, flat);
  ASSERT_EQ(flat.size(), FlatStateSize(*a));
  const double* p = flat.data();
  const BodyState s = ReadFlatState(p);
  EXPECT_EQ(p, flat.data() + flat.size());
  EXPECT_EQ(s.id, 7);
  ASSERT_TRUE(StateFits(*b, s));
  UnpackState(*b, s);

  // Bit for bit: the codec copies, it computes nothing.
  EXPECT_EQ(b->q(), a->q());
  EXPECT_EQ(b->u(), a->u());
  EXPECT_EQ(WorkOf(*b), WorkOf(*a));
  // Derived state (current shape, rotations, reduced coordinates) follows from q and u; the
  // body co-rotated forms fit their rotation afresh (CorotationStart), equal to round-off.
  const double scale = 1.0 + std::abs(a->KineticEnergy()) + std::abs(a->InternalEnergy());
  EXPECT_NEAR(b->KineticEnergy(), a->KineticEnergy(), 1e-12 * scale);
  EXPECT_NEAR(b->InternalEnergy(), a->InternalEnergy(), 1e-9 * scale);
  // Reduced forms rebuild the full nodes x = Lambda (Z + E q_bar) (eq. 58) from q: equal to
  // the stepped x up to the round-off of the projection q_bar = P Lambda^T (x - Lambda Z),
  // amplified by the condition of E^T E (measured 5e-11 m for BC-RO on this base).
  const double tol = c.modes > 0 ? 1e-9 : 1e-12;
  const Vec3 X(0.8, 0.4, 0.2);
  EXPECT_LT((b->SpatialPoint(X) - a->SpatialPoint(X)).norm(), tol);
  EXPECT_LT((b->PointVelocity(X) - a->PointVelocity(X)).norm(), tol);

  // The next step reads nothing beyond the state: both bodies take the same step.
  Step(*a, 5 * h, h);
  Step(*b, 5 * h, h);
  EXPECT_LT((b->q() - a->q()).norm(), 100 * tol * (1.0 + a->q().norm()));
  EXPECT_LT((b->u() - a->u()).norm(), 1e4 * tol * (1.0 + a->u().norm()));
}

TEST_P(BodyStateRoundTrip, ViewOfOneBodyUnpacksIntoAnotherAndSizesAreChecked) {
  const Case& c = GetParam();
  std::unique_ptr<Body> a = Make(c), b = Make(c);
  a->SetInitialVelocity(Vec3(0.0, 0.0, 1.0), Vec3(0.0, 0.2, 0.0));
  Step(*a, 0.0, 1e-3);
  a->contact_work = 3.0;
  UnpackState(*b, PackState(*a));
  EXPECT_EQ(b->q(), a->q());
  EXPECT_EQ(b->u(), a->u());
  EXPECT_EQ(b->contact_work, 3.0);
  BodyState wrong = PackState(*a);
  wrong.nq -= 1;
  EXPECT_FALSE(StateFits(*b, wrong));
  EXPECT_THROW(UnpackState(*b, wrong), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, BodyStateRoundTrip,
    ::testing::Values(Case{"RIGID", BodyKind::kRigid, FeForm::kTL, 0},
                      Case{"PSEUDO_RIGID", BodyKind::kPseudoRigid, FeForm::kTL, 0},
                      Case{"FE_TL", BodyKind::kFiniteElement, FeForm::kTL, 0},
                      Case{"FE_BC", BodyKind::kFiniteElement, FeForm::kBC, 0},
                      Case{"FE_BC_RO", BodyKind::kFiniteElement, FeForm::kBCRO, 8},
                      Case{"FE_BC_MODAL", BodyKind::kFiniteElement, FeForm::kBCModal, 8},
                      Case{"FE_FFR", BodyKind::kFiniteElement, FeForm::kFFR, 0},
                      Case{"OBSTACLE", BodyKind::kObstacle, FeForm::kTL, 0}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace solfec::body
