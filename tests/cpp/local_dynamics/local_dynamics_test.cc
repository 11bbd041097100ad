// Local dynamics assembly: W = h H A^-1 H^T blocks, symmetry, B = H u_free, drift targets.
#include "local_dynamics/local_dynamics.h"

#include <gtest/gtest.h>

#include <random>

#include "base/math.h"
#include "body/body_factory.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"

namespace solfec::local_dynamics {
namespace {

geometry::Shape Box(double a) {
  geometry::Convex c;
  c.vertices = {{0, 0, 0}, {a, 0, 0}, {a, a, 0}, {0, a, 0},
                {0, 0, a}, {a, 0, a}, {a, a, a}, {0, a, a}};
  c.faces = {{{0, 3, 2, 1}, 1}, {{0, 1, 5, 4}, 1}, {{1, 2, 6, 5}, 1},
             {{2, 3, 7, 6}, 1}, {{3, 0, 4, 7}, 1}, {{4, 5, 6, 7}, 1}};
  geometry::Shape s;
  s.convexes.push_back(c);
  return s;
}

std::unique_ptr<body::Body> MakeBox(double a, Id id) {
  material::BulkMaterial m;
  m.density = 1000.0;
  auto b = body::MakeBody(body::BodyKind::kRigid, Box(a), m, "");
  b->set_id(id);
  b->u_free() = VecX::Zero(6);
  b->impulse() = VecX::Zero(6);
  return b;
}

TEST(LocalDynamics, ContactAtMassCentreOfOneBodyGivesIdentityOverMass) {
  auto b = MakeBox(1.0, 0);  // mass 1000
  contact::Constraint c;
  c.kind = contact::ConstraintKind::kFixPoint;
  c.body1 = b.get();
  c.X1 = Vec3(0.5, 0.5, 0.5);
  c.X_origin = c.X1;
  c.base = Mat3::Identity();
  solvers::BlockProblem P;
  LocalDynamics ld;
  const double h = 0.01;
  ld.Assemble({&c}, 0.0, h, P);
  ASSERT_EQ(P.size(), 1);
  ASSERT_EQ(P.row_ptr[1], 1);
  // A point at the mass centre sees no rotation: W = h / m I exactly.
  EXPECT_TRUE(P.W[0].isApprox(Mat3::Identity() * h / 1000.0, 1e-14));
}

TEST(LocalDynamics, TwoConstraintsOnOneBodyCoupleSymmetrically) {
  auto b = MakeBox(1.0, 0);
  b->u_free() << 0.1, -0.2, 0.3, 1.0, 2.0, 3.0;
  std::vector<contact::Constraint> cons(2);
  const Vec3 pts[2] = {Vec3(0, 0, 0), Vec3(1, 0.3, 0.2)};
  for (int i = 0; i < 2; ++i) {
    cons[i].kind = contact::ConstraintKind::kFixPoint;
    cons[i].body1 = b.get();
    cons[i].X1 = pts[i];
    cons[i].X_origin = pts[i];
    cons[i].base = BaseFromNormal(Vec3(i, 1, 1).normalized());
  }
  solvers::BlockProblem P;
  LocalDynamics ld;
  ld.Assemble({&cons[0], &cons[1]}, 0.0, 0.01, P);
  ASSERT_EQ(P.row_ptr[1] - P.row_ptr[0], 2);
  ASSERT_EQ(P.col[0], 0);  // diagonal first
  ASSERT_EQ(P.col[1], 1);
  const Mat3 W01 = P.W[1];
  const Mat3 W10 = P.W[P.row_ptr[1] + 1];
  EXPECT_TRUE(W01.isApprox(W10.transpose(), 1e-12));
  // B = base^T v(X) for the free velocity.
  body::HOperator H;
  b->ComputeH(pts[1], cons[1].base, H);
  Vec3 B = Vec3::Zero();
  for (size_t k = 0; k < H.dofs.size(); ++k) B += H.values.col(k) * b->u_free()[H.dofs[k]];
  EXPECT_TRUE(P.B[1].isApprox(B, 1e-12));
}

// Lumped-mass FE bodies (A diagonal): W_ij = h H_i M^-1 H_j^T is nonzero only for rows
// sharing a dof, and the assembly stores just those blocks. Rows at nodes, edge and face
// points and inside elements of two 3 x 3 x 3 meshes, fixed points (one body) and contacts
// between the bodies and of a body with itself, against dense H M^-1 H^T.
TEST(LocalDynamics, LumpedMassRowsCoupleOnlyThroughSharedDofs) {
  std::vector<std::unique_ptr<body::FeBody>> fe;
  for (int k = 0; k < 2; ++k) {
    fe.push_back(std::make_unique<body::FeBody>(
        solfec::testing::HexMeshShape(Vec3(1.5 * k, 0, 0), Vec3(1, 1, 1), 3, 3, 3),
        solfec::testing::ElasticMaterial(1e6, 0.3, 100.0 * (k + 1)), "cube"));
    fe[k]->set_id(k);
    fe[k]->u_free() = VecX::Zero(fe[k]->num_dofs());
    ASSERT_NE(fe[k]->DiagonalInertia(), nullptr);
  }
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> node(0, 3);
  std::uniform_real_distribution<double> any(0.0, 1.0);
  // Points on the grid of the mesh (1/3 spacing) or anywhere inside.
  auto point = [&](int k) {
    const Vec3 lo(1.5 * k, 0, 0);
    if (any(rng) < 0.6) return Vec3(lo + Vec3(node(rng), node(rng), node(rng)) / 3.0);
    return Vec3(lo + Vec3(any(rng), any(rng), any(rng)));
  };
  material::SurfaceMaterial mat;
  std::vector<contact::Constraint> cons(40);
  for (int i = 0; i < 40; ++i) {
    contact::Constraint& c = cons[i];
    c.base = BaseFromNormal(Vec3(any(rng) - 0.5, any(rng) - 0.5, 1.0).normalized());
    const int k = i % 2;
    c.body1 = fe[k].get();
    c.X1 = point(k);
    if (i % 5 < 2) {  // fixed point
      c.kind = contact::ConstraintKind::kFixPoint;
      c.X_origin = c.body1->SpatialPoint(c.X1);
    } else {  // contact with the other body (i % 5 == 2, 3) or itself
      c.kind = contact::ConstraintKind::kContact;
      c.material = &mat;
      const int other = i % 5 == 4 ? k : 1 - k;
      c.body2 = fe[other].get();
      c.X2 = point(other);
    }
  }
  std::vector<contact::Constraint*> rows;
  for (auto& c : cons) rows.push_back(&c);
  solvers::BlockProblem P;
  LocalDynamics ld;
  const double h = 0.01;
  ld.Assemble(rows, 0.0, h, P);
  // Dense reference: the rows' H over both bodies' dofs (body 1 after body 0).
  const int n0 = fe[0]->num_dofs(), nd = n0 + fe[1]->num_dofs();
  const int n = static_cast<int>(rows.size());
  MatX H = MatX::Zero(3 * n, nd);
  VecX minv(nd);
  minv << fe[0]->DiagonalInertia()->cwiseInverse(), fe[1]->DiagonalInertia()->cwiseInverse();
  for (int i = 0; i < n; ++i) {
    const contact::Constraint& c = cons[i];
    for (int e = 0; e < (c.body2 ? 2 : 1); ++e) {
      const body::Body* b = e == 0 ? c.body1 : c.body2;
      body::HOperator Hb;
      b->ComputeH(e == 0 ? c.X1 : c.X2, c.base, Hb);
      const double sign = e == 0 && c.body2 ? -1.0 : 1.0;
      const int offset = b == fe[0].get() ? 0 : n0;
      for (size_t d = 0; d < Hb.dofs.size(); ++d)
        H.block<3, 1>(3 * i, offset + Hb.dofs[d]) += sign * Hb.values.col(d);
    }
  }
  const MatX W = h * H * minv.asDiagonal() * H.transpose();
  int stored = 0, zero = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<bool> seen(n, false);
    for (int p = P.row_ptr[i]; p < P.row_ptr[i + 1]; ++p) {
      const int j = P.col[p];
      ASSERT_FALSE(seen[j]) << i << " " << j;
      seen[j] = true;
      const Mat3 ref = W.block<3, 3>(3 * i, 3 * j), diag = W.block<3, 3>(3 * i, 3 * i);
      EXPECT_LE((P.W[p] - ref).norm(), 1e-12 * diag.norm()) << i << " " << j;
      EXPECT_GT(ref.norm(), 0.0) << i << " " << j;  // a stored block is a coupling
      ++stored;
    }
    EXPECT_EQ(P.col[P.row_ptr[i]], i);  // diagonal first
    for (int j = 0; j < n; ++j) {
      if (seen[j]) continue;
      const Mat3 ref = W.block<3, 3>(3 * i, 3 * j);
      EXPECT_EQ(ref.norm(), 0.0) << i << " " << j;
      ++zero;
    }
  }
  // Most pairs of rows on a body share no dof: W holds only the others.
  EXPECT_GT(zero, stored);
  // Matrix-free assembly stores the diagonal blocks alone: the same W_ii (self-contact rows
  // included: two entries of the row on one body).
  solvers::BlockProblem D;
  LocalDynamics::Options matrix_free;
  matrix_free.matrix_free = true;
  LocalDynamics ld_free;
  ld_free.Assemble(rows, 0.0, h, D, matrix_free);
  ASSERT_EQ(static_cast<int>(D.W.size()), n);
  for (int i = 0; i < n; ++i) {
    const Mat3 ref = W.block<3, 3>(3 * i, 3 * i);
    EXPECT_EQ(D.col[i], i);
    EXPECT_LE((D.W[i] - ref).norm(), 1e-12 * ref.norm()) << i;
  }
}

TEST(LocalDynamics, FixPointTargetReturnsDriftedPoint) {
  auto b = MakeBox(1.0, 0);
  contact::Constraint c;
  c.kind = contact::ConstraintKind::kFixPoint;
  c.body1 = b.get();
  c.X1 = Vec3(0, 0, 0);
  c.X_origin = Vec3(0, 0, 1e-3);  // the point has drifted 1 mm below its fixed position
  const double h = 0.01;
  const solvers::Law law = MakeLaw(c, 0.0, h);
  EXPECT_EQ(law.kind, solvers::LawKind::kEquality);
  // The error measured at x(t+h/2) is gone at the next mid-point x(t+3h/2) = x(t+h/2) + h U
  // (1/h, as RIGLNK: 2/h would make x(t+h) exact but keep a velocity along the constraint
  // alternating in sign step after step)  =>  U = 1e-3 / h along z.
  EXPECT_NEAR(law.target.z(), 1e-3 / h, 1e-12);
  // QUASI_STATIC: x(t+h) = x(t) + h U  =>  U = 1e-3 / h.
  const solvers::Law qs = MakeLaw(c, 0.0, h, /*quasi_static=*/true);
  EXPECT_NEAR(qs.target.z(), 1e-3 / h, 1e-12);
}

TEST(LocalDynamics, ScatterAddsImpulseToBothBodiesWithOppositeSigns) {
  auto a = MakeBox(1.0, 0), b = MakeBox(1.0, 1);
  contact::Constraint c;
  c.kind = contact::ConstraintKind::kContact;
  c.body1 = a.get();
  c.body2 = b.get();
  c.X1 = c.X2 = Vec3(0.5, 0.5, 0.5);
  c.base = Mat3::Identity();
  solvers::BlockProblem P;
  LocalDynamics ld;
  const double h = 0.01;
  ld.Assemble({&c}, 0.0, h, P);
  EXPECT_TRUE(P.W[0].isApprox(Mat3::Identity() * 2 * h / 1000.0, 1e-14));
  P.R[0] = Vec3(0, 0, 5.0);
  P.U[0] = Vec3::Zero();
  ld.Scatter({&c}, h, P);
  EXPECT_NEAR(b->impulse()[5], h * 5.0, 1e-15);
  EXPECT_NEAR(a->impulse()[5], -h * 5.0, 1e-15);
}

}  // namespace
}  // namespace solfec::local_dynamics
