// ElementMesh (point location and fields of node coordinates without a body), PointStress
// (STRESS of a FINITE_ELEMENT body) and Solfec-1.0's mesh integration points, on meshes of
// every element kind under homogeneous deformations, where the answers are closed-form.
#include "body/fem/element_mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "base/errors.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "body/fem/mesh_integration.h"
#include "body/fem/point_stress.h"
#include "material/hyperelastic.h"

namespace solfec::body::fem {
namespace {

// The unit cube cut into 6 pyramids with the apex at the centre (node 8) over its faces,
// 2 wedges by the plane x = y, or 6 tetrahedra about the diagonal 0-6; mapped by x = A X + t.
geometry::Mesh CubeMesh(int kind, const Mat3& A, const Vec3& t) {
  const int c[9][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1},
                       {1, 0, 1}, {1, 1, 1}, {0, 1, 1}, {0, 0, 0}};
  geometry::Mesh m;
  for (int i = 0; i < 8; ++i) m.nodes.push_back(A * Vec3(c[i][0], c[i][1], c[i][2]) + t);
  m.nodes.push_back(A * Vec3(0.5, 0.5, 0.5) + t);
  const std::vector<std::vector<int>> pyr = {{0, 1, 2, 3, 8}, {0, 4, 5, 1, 8}, {1, 5, 6, 2, 8},
                                             {2, 6, 7, 3, 8}, {3, 7, 4, 0, 8}, {4, 7, 6, 5, 8}};
  const std::vector<std::vector<int>> wed = {{0, 1, 2, 4, 5, 6}, {0, 2, 3, 4, 6, 7}};
  const std::vector<std::vector<int>> tet = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                             {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  const std::vector<std::vector<int>> hex = {{0, 1, 2, 3, 4, 5, 6, 7}};
  const auto& els = kind == 5 ? pyr : kind == 6 ? wed : kind == 4 ? tet : hex;
  for (size_t e = 0; e < els.size(); ++e) {
    geometry::MeshElement me;
    me.num_nodes = static_cast<int>(els[e].size());
    std::copy(els[e].begin(), els[e].end(), me.nodes.begin());
    me.volid = 1 + static_cast<int>(e % 2);
    m.elements.push_back(me);
  }
  if (kind != 5) m.nodes.pop_back();  // the centre node serves the pyramids only
  m.default_surfid = 3;
  return m;
}

Mat3 Affine() {
  Mat3 A;
  A << 1.2, 0.3, -0.1, 0.2, 1.5, 0.4, 0.1, -0.3, 1.7;  // det A = 2.9
  return A;
}

Mat3X NodeMatrix(const std::vector<Vec3>& x) {
  Mat3X m(3, x.size());
  for (size_t i = 0; i < x.size(); ++i) m.col(i) = x[i];
  return m;
}

// Located points map back onto themselves; a homogeneous deformation x = F X + c gives
// F on every element (at any point and at the centres) and interpolates x exactly.
TEST(ElementMesh, LocatesPointsAndEvaluatesHomogeneousFieldsExactly) {
  Mat3 F;
  F << 1.05, 0.02, 0.0, -0.01, 0.97, 0.03, 0.02, 0.0, 1.02;
  const Vec3 c(0.3, -0.2, 0.1);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(0.02, 0.98);
  for (int kind : {4, 5, 6, 8}) {
    const geometry::Mesh m = CubeMesh(kind, Mat3::Identity(), Vec3::Zero());
    ElementMesh mesh(m.nodes, m.elements);
    std::vector<Vec3> x;
    for (const Vec3& X : m.nodes) x.push_back(F * X + c);
    const Mat3X xm = NodeMatrix(x);
    for (int k = 0; k < 20; ++k) {
      const Vec3 X(U(rng), U(rng), U(rng));
      int e;
      Vec3 xi;
      mesh.Locate(X, e, xi);
      EXPECT_EQ(OutsideMeasure(m.elements[e].num_nodes, xi), 0.0) << kind;
      EXPECT_LT((mesh.Interpolate(e, xi, NodeMatrix(m.nodes)) - X).norm(), 1e-12) << kind;
      EXPECT_LT((mesh.Interpolate(e, xi, xm) - (F * X + c)).norm(), 1e-12) << kind;
      EXPECT_LT((mesh.DeformationGradient(e, xi, xm) - F).norm(), 1e-12) << kind;
    }
    for (const Mat3& Fe : mesh.CentreGradients(xm)) EXPECT_LT((Fe - F).norm(), 1e-12) << kind;
  }
}

// The same search as FeBody's: the same element and natural coordinates, also for points
// outside the mesh (nearest element, extrapolated).
TEST(ElementMesh, LocatesAsFeBodyDoes) {
  const geometry::Shape s = testing::HexMeshShape(Vec3::Zero(), Vec3(2, 1, 1), 4, 2, 3);
  const FeBody b(s, testing::Material(1e3), "");
  const ElementMesh mesh(b.mesh().nodes, b.mesh().elements);
  for (const Vec3& X : {Vec3(0.3, 0.2, 0.9), Vec3(1.5, 0.5, 0.5), Vec3(2.3, 0.4, 0.1),
                        Vec3(-1.0, 3.0, 0.2), Vec3(1.0, 0.5, 1.0)}) {
    int e1, e2;
    Vec3 xi1, xi2;
    b.LocateReferential(X, e1, xi1);
    mesh.Locate(X, e2, xi2);
    EXPECT_EQ(e1, e2);
    EXPECT_EQ(xi1, xi2);
  }
}

TEST(ElementMesh, RefusesBadElements) {
  geometry::Mesh m = CubeMesh(8, Mat3::Identity(), Vec3::Zero());
  m.elements[0].nodes[3] = 8;  // out of range
  EXPECT_THROW(ElementMesh(m.nodes, m.elements), InputError);
  m.elements[0].num_nodes = 7;
  EXPECT_THROW(ElementMesh(m.nodes, m.elements), InputError);
}

// STRESS of a homogeneously stretched body: the material's Cauchy stress of F at every point,
// at nodes (the average of equal values) and inside, with the element's own material.
TEST(PointStress, IsTheMaterialStressOfAHomogeneousDeformation) {
  Mat3 F;
  F << 1.05, 0.02, 0.0, -0.01, 0.97, 0.03, 0.02, 0.0, 1.02;
  material::BulkMaterial m = testing::Material(1e3);
  m.young = 1e6;
  m.poisson = 0.3;
  m.model = "NEO_HOOKEAN";
  FeBody b(testing::HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), m, "");
  for (int i = 0; i < b.num_nodes(); ++i) b.mutable_q().segment<3>(3 * i) = F * b.mesh().nodes[i];
  b.UpdateShape();
  const material::Hyperelastic law(m);
  const Mat3 sigma = F * law.SecondPiola(F) * F.transpose() / F.determinant();
  for (const Vec3& X : {Vec3(0.5, 0.5, 0.5), Vec3(0.2, 0.7, 0.4), Vec3(1, 0, 0.5)}) {
    const auto v = PointStress(b, X, 1e-9);
    const double expect[6] = {sigma(0, 0), sigma(1, 1), sigma(2, 2),
                              sigma(0, 1), sigma(0, 2), sigma(1, 2)};
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(v[i], expect[i], 1e-9 * sigma.norm()) << i;
    EXPECT_NEAR(v[6], material::VonMises(sigma), 1e-9 * sigma.norm());
  }
}

// Solfec-1.0's rules are exact for the volume, the first moments and the surface area of
// affine images of straight-sided elements of every kind.
TEST(MeshIntegration, RulesIntegrateVolumeMomentsAndAreaExactly) {
  const Mat3 A = Affine();
  const Vec3 t(0.5, -1.0, 2.0);
  double area = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) area += 2 * A.col(i).cross(A.col(j)).norm();
  for (int kind : {4, 5, 6, 8}) {
    const geometry::Mesh m = CubeMesh(kind, A, t);
    const IntegrationPoints v = VolumeIntegrationPoints(m, std::nullopt);
    const int per = kind == 4 ? 4 : kind == 5 ? 8 : kind == 6 ? 6 : 8;
    ASSERT_EQ(v.points.size(), m.elements.size() * per) << kind;
    double vol = 0.0;
    Vec3 moment = Vec3::Zero();
    for (size_t k = 0; k < v.points.size(); ++k)
      vol += v.weights[k], moment += v.weights[k] * v.points[k];
    EXPECT_NEAR(vol, A.determinant(), 1e-13) << kind;
    EXPECT_LT((moment / vol - (A * Vec3(0.5, 0.5, 0.5) + t)).norm(), 1e-13) << kind;
    double by_volid = 0.0;  // elements of volids 1 and 2 (alternating) make up the whole
    for (int id : {1, 2})
      for (double w : VolumeIntegrationPoints(m, id).weights) by_volid += w;
    EXPECT_NEAR(by_volid, vol, 1e-13) << kind;
    EXPECT_TRUE(VolumeIntegrationPoints(m, 99).points.empty());
    const IntegrationPoints s = SurfaceIntegrationPoints(m, 3);
    double a = 0.0;
    for (double w : s.weights) a += w;
    EXPECT_NEAR(a, area, 1e-12 * area) << kind;
    EXPECT_TRUE(SurfaceIntegrationPoints(m, 99).points.empty());
  }
}

}  // namespace
}  // namespace solfec::body::fem
