// Tests of the contact W assembly of form 'BC' bodies from cached columns of A0^-1: the blocks
// equal those of direct solves with L A0^-1 L^T, the cache is hit instead of re-solving, and
// its bound and the refactorization of A0 are respected.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include <Eigen/Geometry>

#include "base/math.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "contact/constraint.h"
#include "local_dynamics/local_dynamics.h"
#include "solvers/block_problem.h"

namespace solfec::integration {
namespace {

using body::FeBody;

constexpr double kH = 0.01;                      // time step [s]
constexpr double kC = 0.25 * kH * kH;            // A0 = M + c K0 of DEF_LIM without damping
constexpr int kNx = 2, kNy = 2, kNz = 6;         // 0.1 x 0.1 x 1 m bar, 63 nodes, 189 dofs

// A BC bar (E 2e6, nu 0.26, rho 7.8e3) turned by 1.3 rad about (1, 2, 3), stretched 1% along
// its turned x axis and moved off the origin, with the co-rotated operator at its fitted L.
std::unique_ptr<FeBody> RotatedBar() {
  auto b = std::make_unique<FeBody>(
      testing::HexMeshShape(Vec3::Zero(), Vec3(0.1, 0.1, 1.0), kNx, kNy, kNz),
      testing::ElasticMaterial(2e6, 0.26, 7.8e3), "bar");
  b->set_form(body::FeForm::kBC);
  const Mat3 R = Eigen::AngleAxisd(1.3, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (int a = 0; a < b->num_nodes(); ++a) {
    Vec3 Z = b->mesh().nodes[a];
    Z.x() += 0.01 * (Z.x() - 0.05);
    b->mutable_q().segment<3>(3 * a) = R * Z + Vec3(0.3, -0.2, 0.5);
  }
  b->UpdateShape();
  b->UpdateCorotation();
  b->SetCorotatedOperator(b->corotation(), kC);
  b->u_free() = VecX::Zero(b->num_dofs());
  b->impulse() = VecX::Zero(b->num_dofs());
  return b;
}

// Contacts of `b` with the ground at referential points on three faces (several share
// elements, so W has coupled blocks), each with its own normal.
std::vector<contact::Constraint> Contacts(FeBody& b) {
  const std::vector<Vec3> X = {{0.1, 0.02, 0.05}, {0.1, 0.07, 0.12}, {0.1, 0.05, 0.5},
                               {0.0, 0.03, 0.51}, {0.04, 0.0, 0.93}, {0.08, 0.1, 0.97},
                               {0.1, 0.09, 0.99}, {0.02, 0.0, 0.3}};
  std::vector<contact::Constraint> cons(X.size());
  for (size_t i = 0; i < X.size(); ++i) {
    cons[i].kind = contact::ConstraintKind::kContact;
    cons[i].body1 = &b;
    cons[i].X1 = X[i];
    cons[i].base = BaseFromNormal(Vec3(1.0, 0.3 * i, 2.0 - 0.2 * i).normalized());
  }
  return cons;
}

std::vector<contact::Constraint*> Pointers(std::vector<contact::Constraint>& cons) {
  std::vector<contact::Constraint*> p;
  for (auto& c : cons) p.push_back(&c);
  return p;
}

// max |W_ij - h H_i A^-1 H_j^T| / max |W| over all blocks, the reference from direct solves
// (ApplyInverseInertia = L A0^-1 L^T with one CHOLMOD solve per constraint).
double MaxRelativeError(const FeBody& b, const std::vector<contact::Constraint>& cons,
                        const solvers::BlockProblem& P) {
  const int n = static_cast<int>(cons.size()), nd = b.num_dofs();
  std::vector<body::HOperator> H(n);
  std::vector<MatX> G(n);
  for (int i = 0; i < n; ++i) {
    b.ComputeH(cons[i].X1, cons[i].base, H[i]);
    G[i].setZero(nd, 3);
    for (size_t k = 0; k < H[i].dofs.size(); ++k) G[i].row(H[i].dofs[k]) = H[i].values.col(k);
    b.ApplyInverseInertia(G[i]);
  }
  double err = 0.0, scale = 0.0;
  int blocks = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = P.row_ptr[i]; k < P.row_ptr[i + 1]; ++k, ++blocks) {
      const int j = P.col[k];
      Mat3 W = Mat3::Zero();
      for (size_t d = 0; d < H[i].dofs.size(); ++d)
        W += H[i].values.col(d) * G[j].row(H[i].dofs[d]);
      W *= kH;
      err = std::max(err, (P.W[k] - W).cwiseAbs().maxCoeff());
      scale = std::max(scale, W.cwiseAbs().maxCoeff());
    }
  }
  EXPECT_EQ(blocks, n * n);  // one body: every pair of rows is coupled
  return err / scale;
}

int DistinctNodes(const FeBody& b, const std::vector<contact::Constraint>& cons) {
  std::vector<int> nodes;
  body::HOperator H;
  for (const auto& c : cons) {
    b.ComputeH(c.X1, c.base, H);
    for (int dof : H.dofs) nodes.push_back(dof / 3);
  }
  std::sort(nodes.begin(), nodes.end());
  return static_cast<int>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
}

// The cached-column blocks agree with direct solves to round-off: both apply the same
// Cholesky factor to linear combinations of unit vectors; A0 = M + h^2/4 K0 is well
// conditioned here (h^2/4 K0 / M ~ 2.5), so the differences stay ~1e-15 relative (tolerance
// 1e-12). The first assembly solves each contact node's columns once, in one blocked solve
// (< 64 nodes); the second, after the body turned further (new L, same A0), solves nothing
// and reads every node of the 8 contacts' elements from the cache.
TEST(CorotatedWCache, CachedColumnWEqualsDirectSolveWAndSecondAssemblyHitsTheCache) {
  auto bar = RotatedBar();
  FeBody& b = *bar;
  auto cons = Contacts(b);
  const int nodes = DistinctNodes(b, cons);
  ASSERT_GT(nodes, 8);
  local_dynamics::LocalDynamics ld;
  solvers::BlockProblem P;
  ld.Assemble(Pointers(cons), 0.0, kH, P);
  EXPECT_EQ(b.corotated_factorizations(), 1);
  EXPECT_EQ(b.corotated_solves(), 1);  // one blocked solve of all contact-node columns
  EXPECT_EQ(b.corotated_columns().stats().misses, nodes);
  EXPECT_EQ(b.corotated_columns().size(), nodes);
  EXPECT_LT(MaxRelativeError(b, cons, P), 1e-12);

  // Turn the body by a further 0.7 rad: L changes, A0 (and so the cached columns) does not.
  const Mat3 T = Eigen::AngleAxisd(0.7, Vec3(0, 1, 1).normalized()).toRotationMatrix();
  for (int a = 0; a < b.num_nodes(); ++a) b.mutable_q().segment<3>(3 * a) = T * b.node(a);
  b.UpdateShape();
  b.UpdateCorotation();
  b.SetCorotatedOperator(b.corotation(), kC);
  const long solves = b.corotated_solves();
  const long hits = b.corotated_columns().stats().hits;
  ld.Assemble(Pointers(cons), kH, kH, P);
  EXPECT_EQ(b.corotated_factorizations(), 1);
  EXPECT_EQ(b.corotated_solves(), solves);  // no solve at all
  EXPECT_EQ(b.corotated_columns().stats().misses, nodes);
  // Each contact reads the columns of its element's 8 nodes (prefetch touches not counted).
  EXPECT_EQ(b.corotated_columns().stats().hits - hits, 8 * static_cast<long>(cons.size()));
  EXPECT_LT(MaxRelativeError(b, cons, P), 1e-12);
}

// A cache bounded to 5 nodes (fewer than the contact nodes) evicts the least recently used
// columns, never holds more than 5, and still gives the direct-solve W (misses are solved
// one node at a time). A new coefficient c refactorizes A0 and empties the cache.
TEST(CorotatedWCache, BoundedCacheEvictsAndStaysExactAndRefactorizationClearsIt) {
  auto bar = RotatedBar();
  FeBody& b = *bar;
  b.set_corotated_cache_bytes(5 * sizeof(double) * 3 * b.num_dofs());
  auto cons = Contacts(b);
  local_dynamics::LocalDynamics ld;
  solvers::BlockProblem P;
  ld.Assemble(Pointers(cons), 0.0, kH, P);
  EXPECT_EQ(b.corotated_columns().capacity_nodes(b.num_dofs()), 5);
  EXPECT_EQ(b.corotated_columns().size(), 5);
  EXPECT_GT(b.corotated_columns().stats().evictions, 0);
  EXPECT_LT(MaxRelativeError(b, cons, P), 1e-12);

  b.SetCorotatedOperator(b.corotation(), 2.0 * kC);
  EXPECT_EQ(b.corotated_factorizations(), 2);
  EXPECT_EQ(b.corotated_columns().size(), 0);
  ld.Assemble(Pointers(cons), 0.0, kH, P);
  EXPECT_LT(MaxRelativeError(b, cons, P), 1e-12);
}

// A total Lagrangian body (no co-rotated operator) keeps the direct path: no columns cached.
TEST(CorotatedWCache, TotalLagrangianBodyDoesNotUseTheCache) {
  auto b = std::make_unique<FeBody>(
      testing::HexMeshShape(Vec3::Zero(), Vec3(0.1, 0.1, 1.0), kNx, kNy, kNz),
      testing::ElasticMaterial(2e6, 0.26, 7.8e3), "bar");
  b->SetStiffnessOperator(b->Stiffness(), kC);
  b->u_free() = VecX::Zero(b->num_dofs());
  b->impulse() = VecX::Zero(b->num_dofs());
  auto cons = Contacts(*b);
  local_dynamics::LocalDynamics ld;
  solvers::BlockProblem P;
  ld.Assemble(Pointers(cons), 0.0, kH, P);
  EXPECT_FALSE(b->corotated_operator());
  EXPECT_EQ(b->corotated_columns().size(), 0);
  EXPECT_LT(MaxRelativeError(*b, cons, P), 1e-14);  // the same solves in both: identical
}

}  // namespace
}  // namespace solfec::integration
