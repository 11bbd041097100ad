// Tests of FINITE_ELEMENT bodies: mass, patch test, rigid-motion invariance, tangent,
// point location, the H operator and input errors.
#include "body/fem/fe_body.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "base/math.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "contact/face_projection.h"

namespace solfec::body {
namespace {

using testing::BoxShape;
using testing::HexMeshShape;
using testing::TetCubeShape;

material::BulkMaterial Mat(double young = 1e6, double poisson = 0.3) {
  material::BulkMaterial m = testing::Material(1e3);
  m.young = young;
  m.poisson = poisson;
  return m;
}

FeBody UnitHex2() { return FeBody(HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), Mat(), ""); }

int NodeAt(const FeBody& b, const Vec3& X) {
  for (int i = 0; i < b.num_nodes(); ++i)
    if ((b.mesh().nodes[i] - X).norm() < 1e-12) return i;
  return -1;
}

// Applies x = F X + c to every node.
void Deform(FeBody& b, const Mat3& F, const Vec3& c) {
  for (int i = 0; i < b.num_nodes(); ++i)
    b.mutable_q().segment<3>(3 * i) = F * b.mesh().nodes[i] + c;
  b.UpdateShape();
}

Mat3 SvkPiola(const Mat3& F, const material::BulkMaterial& m) {
  const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
  return F * (m.lame_lambda() * E.trace() * Mat3::Identity() + 2 * m.lame_mu() * E);
}

TEST(FeBody, HexCubeMassIsDensityAndLumpedMassesSumToIt) {
  const FeBody b = UnitHex2();
  EXPECT_EQ(b.num_nodes(), 27);
  EXPECT_NEAR(b.mass(), 1e3, 1e-9);  // rho * 1 m^3
  EXPECT_NEAR(b.volume(), 1.0, 1e-12);
  // Lumped masses per direction sum to the mass; a corner node carries 1/8 of one element
  // (1e3 / 8 / 8 = 15.625) and the centre node 8 of those (125).
  for (int d = 0; d < 3; ++d) {
    double sum = 0.0;
    for (int i = 0; i < b.num_nodes(); ++i) sum += b.lumped_mass()[3 * i + d];
    EXPECT_NEAR(sum, 1e3, 1e-9);
  }
  EXPECT_NEAR(b.lumped_mass()[3 * NodeAt(b, Vec3::Zero())], 15.625, 1e-10);
  EXPECT_NEAR(b.lumped_mass()[3 * NodeAt(b, Vec3::Constant(0.5))], 125.0, 1e-10);
}

TEST(FeBody, TetCubeHasUnitVolumeAndEqualQuarterMasses) {
  const FeBody b(TetCubeShape(Vec3::Zero(), 2.0), Mat(), "");
  EXPECT_NEAR(b.volume(), 8.0, 1e-12);
  EXPECT_NEAR(b.mass(), 8e3, 1e-9);
  // Nodes 0 and 6 belong to all 6 tetrahedra (volume 4/3 each): 6 * 1e3 * (4/3) / 4 = 2000.
  EXPECT_NEAR(b.lumped_mass()[0], 2000.0, 1e-9);
  EXPECT_NEAR(b.lumped_mass()[3 * 6], 2000.0, 1e-9);
  EXPECT_NEAR(b.lumped_mass().sum(), 3 * 8e3, 1e-8);
}

// Patch test: a homogeneous deformation x = F X + c of a 2x2x2 mesh whose centre node is
// moved off-centre (distorted elements) gives the exact constant SVK stress, so the interior
// node is in equilibrium and the nodes of the face X = 1 carry the traction -P e_x (face area
// 1) (divergence theorem, exact under 2x2x2 Gauss for trilinear maps). Round-off 1e-8 of |P|.
TEST(FeBody, PatchTestHomogeneousDeformationGivesExactInternalForces) {
  geometry::Shape s = HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2);
  geometry::Mesh& m = s.meshes[0];
  for (Vec3& n : m.nodes)
    if ((n - Vec3::Constant(0.5)).norm() < 1e-12) n = Vec3(0.55, 0.45, 0.6);
  FeBody b(s, Mat(), "");
  Mat3 F;
  F << 1.1, 0.05, -0.02, 0.03, 0.95, 0.04, -0.01, 0.02, 1.05;
  Deform(b, F, Vec3(0.3, -0.2, 0.1));
  const Mat3 P = SvkPiola(F, b.material());
  const VecX f = b.InternalForce();
  const int centre = NodeAt(b, Vec3(0.55, 0.45, 0.6));
  ASSERT_GE(centre, 0);
  const double tol = 1e-8 * P.norm();
  EXPECT_LT(f.segment<3>(3 * centre).norm(), tol);
  Vec3 face = Vec3::Zero(), total = Vec3::Zero();
  for (int i = 0; i < b.num_nodes(); ++i) {
    total += f.segment<3>(3 * i);
    if (std::abs(b.mesh().nodes[i].x() - 1.0) < 1e-12) face += f.segment<3>(3 * i);
  }
  EXPECT_LT(total.norm(), tol);
  EXPECT_LT((face + P.col(0)).norm(), tol);
  // Strain energy = V psi(F) exactly.
  const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
  const double lambda = b.material().lame_lambda(), mu = b.material().lame_mu();
  const double psi = 0.5 * lambda * E.trace() * E.trace() + mu * E.squaredNorm();
  EXPECT_NEAR(b.InternalEnergy(), psi, 1e-10 * psi);
}

// Rigid motions produce no force; a rotation of a deformed state rotates every nodal force
// (frame indifference of SVK): f(R x) = R f(x) to round-off.
TEST(FeBody, InternalForceIsInvariantUnderRigidMotion) {
  for (auto shape : {HexMeshShape(Vec3::Zero(), Vec3(1, 0.5, 0.5), 2, 1, 1),
                     TetCubeShape(Vec3::Zero(), 1.0)}) {
    FeBody b(shape, Mat(), "");
    const Mat3 R = AxisAngle(Vec3(1, 2, 3).normalized(), 0.7);
    Deform(b, R, Vec3(1, 2, 3));
    EXPECT_LT(b.InternalForce().norm(), 1e-9 * 1e6);
    EXPECT_LT(b.InternalEnergy(), 1e-20 * 1e6);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-0.05, 0.05);
    for (int i = 0; i < b.num_dofs(); ++i) b.mutable_q()[i] = b.mesh().nodes[i / 3][i % 3] + U(rng);
    const VecX f0 = b.InternalForce();
    for (int i = 0; i < b.num_nodes(); ++i) b.mutable_q().segment<3>(3 * i) = R * b.node(i);
    const VecX f1 = b.InternalForce();
    for (int i = 0; i < b.num_nodes(); ++i)
      EXPECT_LT((f1.segment<3>(3 * i) - R * f0.segment<3>(3 * i)).norm(), 1e-9 * f0.norm());
  }
}

// K = -d f_int / dq: central differences (step 1e-7 of a unit mesh, error O(1e-14) relative
// plus round-off 1e-16 |f| / 1e-7 ~ 1e-9) agree with the assembled tangent to 1e-6.
TEST(FeBody, TangentStiffnessMatchesFiniteDifferences) {
  for (auto shape : {HexMeshShape(Vec3::Zero(), Vec3(1, 0.5, 0.5), 2, 1, 1),
                     TetCubeShape(Vec3::Zero(), 1.0)}) {
    FeBody b(shape, Mat(), "");
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> U(-0.1, 0.1);
    for (int i = 0; i < b.num_dofs(); ++i) b.mutable_q()[i] += U(rng);
    const MatX K = MatX(b.Stiffness());
    EXPECT_LT((K - K.transpose()).norm(), 1e-9 * K.norm());
    const double eps = 1e-7;
    for (int j = 0; j < b.num_dofs(); ++j) {
      b.mutable_q()[j] += eps;
      const VecX fp = b.InternalForce();
      b.mutable_q()[j] -= 2 * eps;
      const VecX fm = b.InternalForce();
      b.mutable_q()[j] += eps;
      const VecX col = -(fp - fm) / (2 * eps);
      EXPECT_LT((col - K.col(j)).norm(), 1e-6 * K.norm()) << "column " << j;
    }
  }
}

// Non-homogeneous deformation: SpatialPoint and ReferentialPoint are inverse maps (Newton to
// 1e-12), and H u = base^T v(X) with v interpolated; a linear velocity field is reproduced.
TEST(FeBody, PointMapsInvertAndHGivesInterpolatedVelocity) {
  for (auto shape : {HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2),
                     TetCubeShape(Vec3::Zero(), 1.0)}) {
    FeBody b(shape, Mat(), "");
    for (int i = 0; i < b.num_nodes(); ++i) {
      const Vec3 X = b.mesh().nodes[i];
      b.mutable_q().segment<3>(3 * i) = X + 0.1 * Vec3(X.y() * X.z(), X.x() * X.x(), -X.y());
      b.mutable_u().segment<3>(3 * i) = Vec3(1 + X.x() - 2 * X.z(), 3 * X.y(), X.x() + X.y());
    }
    b.UpdateShape();
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> U(0.02, 0.98);
    const Mat3 base = AxisAngle(Vec3(0.3, -1, 0.5).normalized(), 1.1);
    for (int k = 0; k < 20; ++k) {
      const Vec3 X(U(rng), U(rng), U(rng));
      const Vec3 x = b.SpatialPoint(X);
      EXPECT_LT((b.ReferentialPoint(x) - X).norm(), 1e-12);
      const Vec3 v(1 + X.x() - 2 * X.z(), 3 * X.y(), X.x() + X.y());
      EXPECT_LT((b.PointVelocity(X) - v).norm(), 1e-12);
      HOperator H;
      b.ComputeH(X, base, H);
      Vec3 Hu = Vec3::Zero();
      for (size_t d = 0; d < H.dofs.size(); ++d) Hu += H.values.col(d) * b.u()[H.dofs[d]];
      EXPECT_LT((Hu - base.transpose() * v).norm(), 1e-12);
    }
  }
}

// With lumped masses (no inertia operator) H holds only the nodes a point depends on: one
// at a node, the two of an edge, the four of a face, all eight inside, with the weights of
// the element's shape functions; with an operator, the element's eight nodes. Both give
// base^T v for a linear velocity field. The referential mesh is jittered, so the inverse
// map's natural coordinates of points on faces and edges carry round-off.
TEST(FeBody, LumpedMassHHoldsOnlyTheNodesThePointDependsOn) {
  geometry::Shape shape = HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2);
  const std::vector<Vec3> grid = shape.meshes[0].nodes;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> jitter(-0.03, 0.03);
  for (Vec3& x : shape.meshes[0].nodes) x += Vec3(jitter(rng), jitter(rng), jitter(rng));
  FeBody b(shape, Mat(), "");
  auto node = [&](const Vec3& g) {  // referential position of the node at grid point g
    for (size_t i = 0; i < grid.size(); ++i)
      if ((grid[i] - g).norm() < 1e-12) return Vec3(b.mesh().nodes[i]);
    ADD_FAILURE() << "no node at " << g.transpose();
    return Vec3(Vec3::Zero());
  };
  auto v = [](const Vec3& X) { return Vec3(1 + X.x() - 2 * X.z(), 3 * X.y(), X.x() + X.y()); };
  for (int i = 0; i < b.num_nodes(); ++i) b.mutable_u().segment<3>(3 * i) = v(b.mesh().nodes[i]);
  // Element [0, 0.5]^3's corners, x-major: c(i, j, k).
  auto c = [&](int i, int j, int k) { return node(0.5 * Vec3(i, j, k)); };
  const double s = 0.2, t = -0.4, r = 0.1;
  Vec3 inside = Vec3::Zero();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        inside += (1 + (2 * i - 1) * s) * (1 + (2 * j - 1) * t) * (1 + (2 * k - 1) * r) / 8 *
                  c(i, j, k);
  const Vec3 face = ((1 - s) * (1 - t) * c(0, 0, 0) + (1 + s) * (1 - t) * c(0, 1, 0) +
                     (1 + s) * (1 + t) * c(0, 1, 1) + (1 - s) * (1 + t) * c(0, 0, 1)) / 4;
  struct Case { Vec3 X; int nodes; };
  const std::vector<Case> cases = {{node(Vec3(0.5, 0.5, 0.5)), 1}, {node(Vec3(1, 0, 0.5)), 1},
                                   {0.3 * c(0, 0, 0) + 0.7 * c(1, 0, 0), 2},
                                   {face, 4}, {inside, 8}};
  const Mat3 base = AxisAngle(Vec3(0.3, -1, 0.5).normalized(), 0.7);
  for (int with_operator = 0; with_operator < 2; ++with_operator) {
    if (with_operator) {
      ASSERT_TRUE(b.TrySetInertiaOperator(b.MassMatrix()));
    }
    EXPECT_EQ(b.DiagonalInertia() != nullptr, with_operator == 0);
    for (const Case& k : cases) {
      HOperator H;
      b.ComputeH(k.X, base, H);
      EXPECT_EQ(static_cast<int>(H.dofs.size()), 3 * (with_operator ? 8 : k.nodes))
          << k.X.transpose();
      Vec3 Hu = Vec3::Zero();
      for (size_t d = 0; d < H.dofs.size(); ++d) Hu += H.values.col(d) * b.u()[H.dofs[d]];
      EXPECT_LT((Hu - base.transpose() * v(k.X)).norm(), 1e-12) << k.X.transpose();
    }
  }
}

// ComputeFaceH (node-to-face masters): with lumped masses, ComputeH at the face point up to
// the inverse map's accuracy, for points inside, on the edges and at the corners of every
// boundary face of a jittered mesh (non-planar bilinear quads): the element's shape
// functions restricted to the face are the face's. Declined as ComputeNodeH is.
TEST(FeBody, FaceHIsComputeHAtTheFacePointWithLumpedMassesOnly) {
  geometry::Shape shape = HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05), unit(-1.0, 1.0);
  for (Vec3& x : shape.meshes[0].nodes) x += Vec3(jitter(rng), jitter(rng), jitter(rng));
  FeBody b(shape, Mat(), "");
  for (int i = 0; i < b.num_dofs(); ++i) b.mutable_u()[i] = unit(rng);
  const Mat3 base = AxisAngle(Vec3(0.3, -1, 0.5).normalized(), 0.7);
  int tested = 0, reduced = 0;
  for (const geometry::MeshFace& f : b.mesh().BoundaryFaces()) {
    ASSERT_EQ(f.nodes.size(), 4u);
    std::vector<std::pair<double, double>> st = {{0.0, 0.0}, {1.0, -1.0}, {1.0, 0.3},
                                                 {-0.4, -1.0}};
    for (int k = 0; k < 3; ++k) st.emplace_back(unit(rng), unit(rng));
    for (const auto& [s, t] : st) {
      MeshFacePoint p;
      p.size = 4;
      contact::FaceShapeFunctions(4, s, t, p.weights.data());
      Vec3 X = Vec3::Zero();
      for (int a = 0; a < 4; ++a) {
        p.nodes[a] = f.nodes[a];
        X += p.weights[a] * b.mesh().nodes[f.nodes[a]];
      }
      HOperator F, H;
      ASSERT_TRUE(b.ComputeFaceH(p, base, F));
      b.ComputeH(X, base, H);
      // The same nodes (in face rather than element order) and weights; the same U.
      std::vector<std::pair<int, double>> fw, hw;
      for (size_t a = 0; a < F.nodes.size(); ++a) fw.emplace_back(F.nodes[a], F.weights[a]);
      for (size_t a = 0; a < H.nodes.size(); ++a) hw.emplace_back(H.nodes[a], H.weights[a]);
      std::sort(fw.begin(), fw.end());
      std::sort(hw.begin(), hw.end());
      ASSERT_EQ(fw.size(), hw.size()) << s << " " << t;
      for (size_t a = 0; a < fw.size(); ++a) {
        EXPECT_EQ(fw[a].first, hw[a].first);
        EXPECT_NEAR(fw[a].second, hw[a].second, 1e-12);
      }
      Vec3 uf = Vec3::Zero(), uh = Vec3::Zero();
      for (size_t d = 0; d < F.dofs.size(); ++d) uf += F.values.col(d) * b.u()[F.dofs[d]];
      for (size_t d = 0; d < H.dofs.size(); ++d) uh += H.values.col(d) * b.u()[H.dofs[d]];
      EXPECT_LT((uf - uh).norm(), 1e-12);
      EXPECT_EQ(F.frame, base.transpose());
      ++tested;
      reduced += F.nodes.size() < 4;
    }
  }
  EXPECT_EQ(tested, 24 * 7);
  EXPECT_EQ(reduced, 24 * 3);  // edge and corner points: the nodes off them left out
  MeshFacePoint p;
  p.size = 4;
  p.nodes = {0, 1, 2, b.num_nodes()};
  p.weights = {0.25, 0.25, 0.25, 0.25};
  HOperator H;
  EXPECT_FALSE(b.ComputeFaceH(p, base, H));  // node out of range
  ASSERT_TRUE(b.TrySetInertiaOperator(b.MassMatrix()));
  p.nodes[3] = 3;
  EXPECT_FALSE(b.ComputeFaceH(p, base, H));  // A^-1 H^T is dense
}

// ComputeNodeH (node-to-face slaves): with lumped masses, bitwise ComputeH at the node's
// referential point, for every node of a jittered mesh; declined (false) with an inertia
// operator, for a node index out of range and for an embedded (background-mesh) body.
TEST(FeBody, NodeHIsComputeHAtTheNodeWithLumpedMassesOnly) {
  geometry::Shape shape = HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (Vec3& x : shape.meshes[0].nodes) x += Vec3(jitter(rng), jitter(rng), jitter(rng));
  FeBody b(shape, Mat(), "");
  const Mat3 base = AxisAngle(Vec3(0.3, -1, 0.5).normalized(), 0.7);
  for (int i = 0; i < b.num_nodes(); ++i) {
    HOperator N, H;
    ASSERT_TRUE(b.ComputeNodeH(i, base, N));
    b.ComputeH(b.mesh().nodes[i], base, H);
    EXPECT_EQ(N.dofs, H.dofs) << i;
    EXPECT_EQ(N.values, H.values) << i;
    EXPECT_EQ(N.dofs, (std::vector<int>{3 * i, 3 * i + 1, 3 * i + 2}));
  }
  HOperator H;
  EXPECT_FALSE(b.ComputeNodeH(-1, base, H));
  EXPECT_FALSE(b.ComputeNodeH(b.num_nodes(), base, H));
  ASSERT_TRUE(b.TrySetInertiaOperator(b.MassMatrix()));
  EXPECT_FALSE(b.ComputeNodeH(0, base, H));  // A^-1 H^T is dense: ComputeH keeps 8 nodes

  geometry::Shape cube = BoxShape(Vec3::Zero(), Vec3::Ones());  // a convex on a background mesh
  FeBody embedded(cube, Mat(), "", HexMeshShape(Vec3::Zero(), Vec3::Ones(), 1, 1, 1).meshes[0]);
  ASSERT_TRUE(embedded.embedded() && embedded.DiagonalInertia());
  EXPECT_FALSE(embedded.ComputeNodeH(0, base, H));
}

// With lumped masses H also comes in node form (LocalDynamics forms W blocks from it): the
// columns of node k are weights[k] * frame, frame = base^T, the weights the shape functions
// at X (sum 1); with an inertia operator (dense A^-1 H^T) there is no node form.
TEST(FeBody, LumpedMassHComesInNodeFormMatchingItsColumns) {
  geometry::Shape shape = HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2);
  FeBody b(shape, Mat(), "");
  const Mat3 base = AxisAngle(Vec3(0.3, -1, 0.5).normalized(), 0.7);
  for (const Vec3& X : {Vec3(0.3, 0.2, 0.7), Vec3(0.5, 0.5, 0.25), Vec3(1, 0.5, 0.5)}) {
    HOperator H;
    b.ComputeH(X, base, H);
    ASSERT_EQ(3 * H.nodes.size(), H.dofs.size());
    ASSERT_EQ(H.weights.size(), H.nodes.size());
    EXPECT_EQ(H.frame, Mat3(base.transpose()));
    double sum = 0.0;
    for (size_t k = 0; k < H.nodes.size(); ++k) {
      for (int j = 0; j < 3; ++j) EXPECT_EQ(H.dofs[3 * k + j], 3 * H.nodes[k] + j);
      EXPECT_EQ(Mat3(H.values.middleCols<3>(3 * k)), Mat3(H.weights[k] * H.frame));
      sum += H.weights[k];
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
  }
  HOperator N;
  ASSERT_TRUE(b.ComputeNodeH(4, base, N));
  EXPECT_EQ(N.nodes, std::vector<int>{4});
  EXPECT_EQ(N.weights, std::vector<double>{1.0});
  ASSERT_TRUE(b.TrySetInertiaOperator(b.MassMatrix()));
  HOperator D;
  b.ComputeH(Vec3(0.3, 0.2, 0.7), base, D);
  EXPECT_TRUE(D.nodes.empty());
  EXPECT_EQ(D.dofs.size(), 24u);
}

TEST(FeBody, GravityLoadsLumpedMassesAndPointForceSplitsByShapeFunctions) {
  FeBody b = UnitHex2();
  PointLoad load;
  load.point = Vec3(0.25, 0.25, 0.25);  // centre of element 0: N_a = 1/8
  load.direction = Vec3::UnitX();
  load.value = ScalarOrSeries(8.0);
  b.loads().push_back(load);
  const VecX f = b.ExternalForce(0.0, 1e-3, Vec3(0, 0, -10));
  EXPECT_NEAR(f.sum(), -1e4 + 8.0, 1e-8);  // weight m g plus the load
  EXPECT_NEAR(f[3 * NodeAt(b, Vec3::Zero())], 1.0, 1e-12);
  EXPECT_NEAR(f[3 * NodeAt(b, Vec3::Zero()) + 2], -156.25, 1e-9);
}

TEST(FeBody, InitialVelocityIsARigidField) {
  FeBody b = UnitHex2();
  b.SetInitialVelocity(Vec3(1, 0, 0), Vec3(0, 0, 2));
  const Vec3 v = b.PointVelocity(Vec3(1, 0.5, 0.5));
  EXPECT_LT((v - Vec3(1, 1, 0)).norm(), 1e-12);  // 1 e_x + 2 e_z x 0.5 e_x
  EXPECT_NEAR(b.KineticEnergy(), 0.5 * 1e3 * 1.0 + 0.5 * 4.0 * [&] {
    double J = 0.0;  // lumped moment about the z axis through the centre
    for (int i = 0; i < b.num_nodes(); ++i) {
      const Vec3 r = b.mesh().nodes[i] - Vec3::Constant(0.5);
      J += b.lumped_mass()[3 * i] * (r.x() * r.x() + r.y() * r.y());
    }
    return J;
  }(), 1e-9);
}

TEST(FeBody, RefusesShapesThatAreNotASingleValidMesh) {
  EXPECT_THROW(FeBody(testing::BoxShape(Vec3::Zero(), Vec3::Ones()), Mat(), "b"), InputError);
  geometry::Shape two = HexMeshShape(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  two.Append(HexMeshShape(Vec3(2, 0, 0), Vec3::Ones(), 1, 1, 1));
  EXPECT_THROW(FeBody(two, Mat(), "b"), InputError);
  geometry::Shape inverted = TetCubeShape(Vec3::Zero(), 1.0);
  std::swap(inverted.meshes[0].elements[0].nodes[1], inverted.meshes[0].elements[0].nodes[2]);
  try {
    FeBody(inverted, Mat(), "b");
    FAIL() << "an inverted element was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("BODY"), std::string::npos);
  }
  geometry::Shape orphan = TetCubeShape(Vec3::Zero(), 1.0);
  orphan.meshes[0].nodes.push_back(Vec3(5, 5, 5));
  EXPECT_THROW(FeBody(orphan, Mat(), "b"), InputError);
}

}  // namespace
}  // namespace solfec::body

namespace solfec::body {
namespace {

geometry::Shape SingleElement(const std::vector<Vec3>& nodes) {
  geometry::Mesh m;
  m.nodes = nodes;
  geometry::MeshElement e;
  e.num_nodes = static_cast<int>(nodes.size());
  for (int i = 0; i < e.num_nodes; ++i) e.nodes[i] = i;
  m.elements.push_back(e);
  geometry::Shape s;
  s.meshes.push_back(m);
  return s;
}

// WED6 (right prism on the unit right triangle, height 1: V = 1/2) and PYR5 (unit square
// base, apex height 1: V = 1/3): exact volumes and masses (the Gauss rules integrate det J
// exactly), and a homogeneous deformation gives the energy V psi(F) with zero net force.
TEST(FeBody, WedgeAndPyramidHaveExactVolumesAndPassTheHomogeneousTest) {
  const std::vector<Vec3> wedge = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0),
                                   Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1)};
  const std::vector<Vec3> pyramid = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0),
                                     Vec3(0, 1, 0), Vec3(0.5, 0.5, 1)};
  Mat3 F;
  F << 1.05, 0.02, 0.0, -0.01, 0.97, 0.03, 0.02, 0.0, 1.02;
  for (const auto& [nodes, volume] : {std::pair{wedge, 0.5}, std::pair{pyramid, 1.0 / 3}}) {
    FeBody b(SingleElement(nodes), Mat(), "");
    EXPECT_NEAR(b.volume(), volume, 1e-12);
    EXPECT_NEAR(b.lumped_mass().sum(), 3 * 1e3 * volume, 1e-9);
    for (int i = 0; i < b.num_nodes(); ++i) b.mutable_q().segment<3>(3 * i) = F * nodes[i];
    const VecX f = b.InternalForce();
    Vec3 total = Vec3::Zero();
    for (int i = 0; i < b.num_nodes(); ++i) total += f.segment<3>(3 * i);
    EXPECT_LT(total.norm(), 1e-9 * f.norm());
    const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
    const double psi = 0.5 * b.material().lame_lambda() * E.trace() * E.trace() +
                       b.material().lame_mu() * E.squaredNorm();
    EXPECT_NEAR(b.InternalEnergy(), volume * psi, 1e-10 * volume * psi);
    // The inverse map recovers an interior point.
    const Vec3 X = nodes == wedge ? Vec3(0.2, 0.3, 0.6) : Vec3(0.5, 0.4, 0.3);
    EXPECT_LT((b.ReferentialPoint(b.SpatialPoint(X)) - X).norm(), 1e-10);
    EXPECT_LT((b.SpatialPoint(X) - F * X).norm(), 1e-12);
  }
}

}  // namespace
}  // namespace solfec::body
