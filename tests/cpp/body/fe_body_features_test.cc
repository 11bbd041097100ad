// Tests of FINITE_ELEMENT body features: convexes embedded in a background mesh, follower
// PRESSURE, per-element materials (APPLY_BULKMAT), self-contact exclusions, point location
// with the element box tree and mesh error messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "base/errors.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/element_tree.h"
#include "body/fem/elements.h"
#include "body/fem/fe_body.h"

namespace solfec::body {
namespace {

using testing::BoxShape;
using testing::HexMeshShape;
using testing::TetCubeShape;

material::BulkMaterial Mat(double young = 1e6, double poisson = 0.3, double rho = 1e3) {
  material::BulkMaterial m = testing::Material(rho);
  m.young = young;
  m.poisson = poisson;
  return m;
}

geometry::Mesh UnitHexMesh(int n) {
  return HexMeshShape(Vec3::Zero(), Vec3::Ones(), n, n, n).meshes[0];
}

void Deform(FeBody& b, const Mat3& F, const Vec3& c) {
  for (int i = 0; i < b.num_nodes(); ++i)
    b.mutable_q().segment<3>(3 * i) = F * b.mesh().nodes[i] + c;
  b.UpdateShape();
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Trilinear (HEX8) interpolation reproduces affine motions exactly, also when extrapolated,
// so embedded vertices must follow x = F X + c to round-off (1e-12).
TEST(FeBodyEmbedded, ConvexVerticesFollowTheMeshMotionAndMassComesFromTheMesh) {
  geometry::Shape shape = BoxShape(Vec3::Constant(0.2), Vec3::Constant(0.6));
  shape.Append(BoxShape(Vec3(0.5, 0.5, 0.9), Vec3(0.3, 0.3, 0.13)));  // 0.03 above the mesh
  geometry::Sphere sphere;
  sphere.center = Vec3(0.7, 0.3, 0.3);
  sphere.radius = 0.1;
  shape.spheres.push_back(sphere);
  FeBody b(shape, Mat(), "e", UnitHexMesh(2));
  EXPECT_TRUE(b.embedded());
  EXPECT_EQ(b.shape().convexes.size(), 2u);
  EXPECT_EQ(b.shape().spheres.size(), 1u);
  EXPECT_NEAR(b.mass(), 1e3, 1e-9);  // density x mesh volume 1, not the convex volume
  EXPECT_NEAR(b.volume(), 1.0, 1e-12);
  EXPECT_NEAR(b.lumped_mass().sum(), 3e3, 1e-8);
  Mat3 F;
  F << 1.1, 0.05, 0.0, -0.02, 0.95, 0.03, 0.01, 0.0, 1.04;
  const Vec3 c(0.3, -0.2, 1.0);
  Deform(b, F, c);
  for (int k = 0; k < 2; ++k)
    for (size_t v = 0; v < b.shape().convexes[k].vertices.size(); ++v)
      EXPECT_LT((b.shape().convexes[k].vertices[v] -
                 (F * b.ref_shape().convexes[k].vertices[v] + c)).norm(), 1e-12);
  EXPECT_LT((b.shape().spheres[0].center - (F * sphere.center + c)).norm(), 1e-12);
  EXPECT_DOUBLE_EQ(b.shape().spheres[0].radius, 0.1);
  // Contact points use the mesh element: H maps node velocities to the point velocity.
  b.mutable_u().setZero();
  for (int i = 0; i < b.num_nodes(); ++i) b.mutable_u().segment<3>(3 * i) = F * b.mesh().nodes[i];
  HOperator H;
  const Vec3 X(0.8, 0.8, 0.8);
  b.ComputeH(X, Mat3::Identity(), H);
  Vec3 v = Vec3::Zero();
  for (size_t k = 0; k < H.dofs.size(); ++k) v += H.values.col(k) * b.u()[H.dofs[k]];
  EXPECT_LT((v - F * X).norm(), 1e-12);
}

TEST(FeBodyEmbedded, RefusesVerticesFarOutsideTheMeshAndOtherShapes) {
  // Element size 0.5: 0.1 outside is 20% of it.
  const std::string far = ErrorOf([] {
    FeBody(BoxShape(Vec3::Constant(0.2), Vec3::Constant(0.9)), Mat(), "b", UnitHexMesh(2));
  });
  EXPECT_NE(far.find("BODY"), std::string::npos);
  EXPECT_NE(far.find("'mesh'"), std::string::npos);
  EXPECT_NE(far.find("outside the background mesh"), std::string::npos);
  const std::string mesh_shape = ErrorOf([] {
    FeBody(HexMeshShape(Vec3::Zero(), Vec3::Ones(), 1, 1, 1), Mat(), "b", UnitHexMesh(1));
  });
  EXPECT_NE(mesh_shape.find("argument 'shape'"), std::string::npos);
}

// Referential touching: pieces 0 and 1 share a face, piece 2 is 0.1 away from both.
TEST(FeBodyEmbedded, SelfContactExcludesPiecesTouchingInTheReferenceOnly) {
  geometry::Shape shape = BoxShape(Vec3(0.1, 0.1, 0.1), Vec3(0.3, 0.8, 0.3));
  shape.Append(BoxShape(Vec3(0.4, 0.1, 0.1), Vec3(0.3, 0.8, 0.3)));
  shape.Append(BoxShape(Vec3(0.1, 0.1, 0.5), Vec3(0.8, 0.8, 0.3)));
  FeBody b(shape, Mat(), "", UnitHexMesh(2));
  EXPECT_TRUE(b.SelfContactExcluded(0, 1));
  EXPECT_TRUE(b.SelfContactExcluded(1, 0));
  EXPECT_FALSE(b.SelfContactExcluded(0, 2));
  EXPECT_FALSE(b.SelfContactExcluded(1, 2));
  EXPECT_TRUE(b.SelfContactExcluded(2, 2));
}

// Mesh pieces: element (i, j, k) of a 3x3x3 grid shares a node with its 26 neighbours only.
TEST(FeBodyMesh, SelfContactExcludesElementsSharingANode) {
  FeBody b(HexMeshShape(Vec3::Zero(), Vec3::Ones(), 3, 3, 3), Mat(), "");
  auto centre = [&](int e) {
    Vec3 c = Vec3::Zero();
    for (const Vec3& v : b.ref_shape().convexes[e].vertices) c += v / 8;
    return c;
  };
  int excluded = 0;
  for (int e = 0; e < 27; ++e)
    for (int f = 0; f < 27; ++f) {
      const bool near = (centre(e) - centre(f)).cwiseAbs().maxCoeff() < 0.5;
      EXPECT_EQ(b.SelfContactExcluded(e, f), near) << e << " " << f;
      excluded += near;
    }
  EXPECT_EQ(excluded, 343);  // 7 index pairs with |i - j| <= 1 per axis, cubed
}

// Uniform PRESSURE -5 (traction p n, Solfec-1.0's sign: negative pushes in) on the top face
// (surfid 6, z = 1) of the unit cube: total force p A n = (0, 0, -5), only on top nodes, split 1/16, 1/8, 1/4 by bilinear shape
// functions of the 2x2 face mesh (corner, edge, centre node).
TEST(FeBodyPressure, UniformPressureOnAFaceGivesTheTotalForcePA) {
  FeBody b(HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), Mat(), "");
  b.AddPressure(6, ScalarOrSeries(-5.0));
  const VecX f = b.ExternalForce(0.0, 1e-3, Vec3::Zero());
  Vec3 total = Vec3::Zero();
  for (int i = 0; i < b.num_nodes(); ++i) {
    total += f.segment<3>(3 * i);
    if (b.mesh().nodes[i].z() < 1 - 1e-12) {
      EXPECT_EQ(f.segment<3>(3 * i).norm(), 0.0);
    }
  }
  EXPECT_LT((total - Vec3(0, 0, -5)).norm(), 1e-12);
  for (int i = 0; i < b.num_nodes(); ++i) {
    const Vec3 X = b.mesh().nodes[i];
    if (X.z() < 1 - 1e-12) continue;
    const int on_edges = (std::abs(X.x() - 0.5) > 0.1) + (std::abs(X.y() - 0.5) > 0.1);
    const double share = on_edges == 2 ? 1.0 / 16 : on_edges == 1 ? 1.0 / 8 : 1.0 / 4;
    EXPECT_NEAR(f[3 * i + 2], -5 * share, 1e-12);
  }
  const std::string err = ErrorOf([&] { b.AddPressure(42, ScalarOrSeries(1.0)); });
  EXPECT_NE(err.find("PRESSURE"), std::string::npos);
  EXPECT_NE(err.find("'surfid'"), std::string::npos);
}

// Follower pressure (follower = true) on the deformed configuration x = F X: with PRESSURE
// -p (p pushing in) the top-face force is -p J F^-T N A (Nanson), and hydrostatic pressure
// on all faces of a TET4 cube (triangles) sums to zero with sum_a f_a . x_a = -p int x . n
// da = -3 p v (divergence theorem).
TEST(FeBodyPressure, FollowerPressureUsesTheCurrentFacesAndHydrostaticSumsToZero) {
  Mat3 F;
  F << 1.2, 0.1, 0.0, 0.0, 0.9, 0.05, 0.0, 0.02, 1.1;
  FeBody hex(HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), Mat(), "");
  hex.AddPressure(6, ScalarOrSeries(TimeSeries({0.0, 1.0}, {0.0, -2.0})), true);  // p(0.5) = 1
  Deform(hex, F, Vec3(1, 2, 3));
  const VecX fh = hex.ExternalForce(0.5, 1e-3, Vec3::Zero());
  Vec3 total = Vec3::Zero();
  for (int i = 0; i < hex.num_nodes(); ++i) total += fh.segment<3>(3 * i);
  const Vec3 nanson = F.determinant() * F.inverse().transpose() * Vec3::UnitZ();
  EXPECT_LT((total + nanson).norm(), 1e-12);

  FeBody tet(TetCubeShape(Vec3::Zero(), 1.0), Mat(), "");
  tet.AddPressure(0, ScalarOrSeries(-3.0), true);  // default surfid: every boundary face
  Deform(tet, F, Vec3(1, 2, 3));
  const VecX ft = tet.ExternalForce(0.0, 1e-3, Vec3::Zero());
  Vec3 sum = Vec3::Zero();
  double virial = 0.0;
  for (int i = 0; i < tet.num_nodes(); ++i) {
    sum += ft.segment<3>(3 * i);
    virial += ft.segment<3>(3 * i).dot(tet.node(i));
  }
  EXPECT_LT(sum.norm(), 1e-12);
  EXPECT_NEAR(virial, -3 * 3.0 * F.determinant(), 1e-12);
}

// Pressure on the referential faces (the default, Solfec-1.0's dead load): after the same
// deformation the top-face force is still -p N A = -p e_z, and the deformed TET4 cube's
// hydrostatic load still sums to zero with sum_a f_a . X_a = -3 p V over the referential
// nodes.
TEST(FeBodyPressure, DefaultPressureUsesTheReferentialFaces) {
  Mat3 F;
  F << 1.2, 0.1, 0.0, 0.0, 0.9, 0.05, 0.0, 0.02, 1.1;
  FeBody hex(HexMeshShape(Vec3::Zero(), Vec3::Ones(), 2, 2, 2), Mat(), "");
  hex.AddPressure(6, ScalarOrSeries(TimeSeries({0.0, 1.0}, {0.0, -2.0})));  // p(0.5) = 1
  Deform(hex, F, Vec3(1, 2, 3));
  const VecX fh = hex.ExternalForce(0.5, 1e-3, Vec3::Zero());
  Vec3 total = Vec3::Zero();
  for (int i = 0; i < hex.num_nodes(); ++i) total += fh.segment<3>(3 * i);
  EXPECT_LT((total + Vec3::UnitZ()).norm(), 1e-12);

  FeBody tet(TetCubeShape(Vec3::Zero(), 1.0), Mat(), "");
  tet.AddPressure(0, ScalarOrSeries(-3.0));
  const VecX f0 = tet.ExternalForce(0.0, 1e-3, Vec3::Zero());
  Deform(tet, F, Vec3(1, 2, 3));
  const VecX ft = tet.ExternalForce(0.0, 1e-3, Vec3::Zero());
  EXPECT_LT((ft - f0).norm(), 1e-12);
  double virial = 0.0;
  for (int i = 0; i < tet.num_nodes(); ++i) virial += ft.segment<3>(3 * i).dot(tet.mesh().nodes[i]);
  EXPECT_NEAR(virial, -3 * 3.0, 1e-12);
}

// Bar [0, 2] x [0, 1]^2, 4 HEX8 elements along x; elements with x < 1 keep E1, the others get
// E2 (APPLY_BULKMAT by volid 2); Poisson 0 makes each half a homogeneous uniaxial SVK state
// with no lateral strain. Nominal stress s = F/A gives stretch l with E l (l^2 - 1)/2 = s,
// so the end displacement is (l1 - 1) + (l2 - 1) exactly (Newton to 1e-12).
TEST(FeBodyMaterials, TwoMaterialBarElongatesLikeSpringsInSeries) {
  geometry::Shape bar = HexMeshShape(Vec3::Zero(), Vec3(2, 1, 1), 4, 1, 1);
  for (auto& e : bar.meshes[0].elements) {
    double x = 0.0;
    for (int a = 0; a < 8; ++a) x += bar.meshes[0].nodes[e.nodes[a]].x() / 8;
    e.volid = x > 1.0 ? 2 : 1;
  }
  const double E1 = 1e6, E2 = 4e6, rho1 = 1e3, rho2 = 3e3, load = 2e4;
  FeBody b(bar, Mat(E1, 0.0, rho1), "bar");
  b.ApplyBulkMaterial(2, Mat(E2, 0.0, rho2));
  EXPECT_NEAR(b.mass(), rho1 + rho2, 1e-9);
  EXPECT_NEAR(b.center().x(), (rho1 * 0.5 + rho2 * 1.5) / (rho1 + rho2), 1e-12);
  EXPECT_NEAR(b.lumped_mass().sum(), 3 * (rho1 + rho2), 1e-8);
  EXPECT_EQ(b.element_material(3).young, E2);
  // Dirichlet: all dofs of the x = 0 nodes; end load F/4 on each x = 2 node.
  std::vector<int> free;
  VecX fext = VecX::Zero(b.num_dofs());
  for (int i = 0; i < b.num_nodes(); ++i) {
    const double x = b.mesh().nodes[i].x();
    if (x > 1e-12)
      for (int j = 0; j < 3; ++j) free.push_back(3 * i + j);
    if (x > 2 - 1e-12) fext[3 * i] = load / 4;
  }
  for (int it = 0; it < 20; ++it) {
    const VecX r = b.InternalForce() + fext;
    const MatX K = MatX(b.Stiffness());
    VecX rf(free.size());
    MatX Kf(free.size(), free.size());
    for (size_t a = 0; a < free.size(); ++a) {
      rf[a] = r[free[a]];
      for (size_t c = 0; c < free.size(); ++c) Kf(a, c) = K(free[a], free[c]);
    }
    const VecX dq = Kf.ldlt().solve(rf);
    for (size_t a = 0; a < free.size(); ++a) b.mutable_q()[free[a]] += dq[a];
    if (dq.norm() < 1e-14) break;
  }
  auto stretch = [&](double E) {  // E l (l^2 - 1) / 2 = load / A by Newton
    double l = 1.0;
    for (int k = 0; k < 50; ++k) l -= (E * l * (l * l - 1) / 2 - load) / (E * (3 * l * l - 1) / 2);
    return l;
  };
  const double expected = stretch(E1) - 1 + stretch(E2) - 1;  // 0.0197 + 0.0050
  for (int i = 0; i < b.num_nodes(); ++i)
    if (b.mesh().nodes[i].x() > 2 - 1e-12) {
      EXPECT_NEAR(b.node(i).x() - 2, expected, 1e-10);
    }
  const std::string err = ErrorOf([&] { b.ApplyBulkMaterial(7, Mat()); });
  EXPECT_NE(err.find("APPLY_BULKMAT"), std::string::npos);
  EXPECT_NE(err.find("'volid'"), std::string::npos);
}

// Random points of a 20 x 20 x 20 HEX8 mesh of [0, 2]^3 (8000 elements, fixed seed): the
// located element is the grid cell holding the point and x(xi) = X to round-off.
TEST(FeBodyLocate, LocatesRandomPointsInA20CubedHexMesh) {
  FeBody b(HexMeshShape(Vec3::Zero(), Vec3::Constant(2.0), 20, 20, 20), Mat(), "");
  ASSERT_EQ(b.num_elements(), 8000);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> U(0.0, 2.0);
  for (int k = 0; k < 2000; ++k) {
    const Vec3 X(U(rng), U(rng), U(rng));
    int e;
    Vec3 xi;
    b.LocateReferential(X, e, xi);
    const Vec3 lo = b.mesh().nodes[b.mesh().elements[e].nodes[0]];
    const Vec3 d = X - lo;  // node 0 is the cell's lowest corner
    EXPECT_TRUE(d.minCoeff() >= -1e-12 && d.maxCoeff() <= 0.1 + 1e-12) << X.transpose();
    EXPECT_EQ(fem::OutsideMeasure(8, xi), 0.0);
    EXPECT_LT((b.SpatialPoint(X) - X).norm(), 1e-12);
  }
  // Current configuration (tree refitted by UpdateShape): x = F X + c maps back to X.
  Mat3 F;
  F << 1.1, 0.2, 0.0, 0.0, 0.9, 0.1, -0.1, 0.0, 1.2;
  Deform(b, F, Vec3(5, 0, 0));
  for (int k = 0; k < 500; ++k) {
    const Vec3 X(U(rng), U(rng), U(rng));
    EXPECT_LT((b.ReferentialPoint(F * X + Vec3(5, 0, 0)) - X).norm(), 1e-10);
  }
}

// The tree's point query and nearest box agree with brute force on 3000 random boxes.
TEST(ElementTree, QueryAndNearestMatchBruteForce) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(0.0, 10.0), S(0.01, 0.5);
  std::vector<geometry::Aabb> boxes(3000);
  for (auto& b : boxes) {
    const Vec3 lo(U(rng), U(rng), U(rng));
    b.Extend(lo);
    b.Extend(Vec3(lo + Vec3(S(rng), S(rng), S(rng))));
  }
  fem::ElementTree tree;
  tree.Build(boxes);
  auto dist = [](const geometry::Aabb& b, const Vec3& p) {
    return (b.lo - p).cwiseMax(p - b.hi).cwiseMax(Vec3::Zero()).norm();
  };
  std::vector<int> got;
  for (int k = 0; k < 500; ++k) {
    const Vec3 p(U(rng), U(rng), U(rng));
    tree.Query(p, got);
    std::sort(got.begin(), got.end());
    std::vector<int> want;
    double dmin = 1e300;
    for (int i = 0; i < 3000; ++i) {
      if (boxes[i].Contains(p)) want.push_back(i);
      dmin = std::min(dmin, dist(boxes[i], p));
    }
    EXPECT_EQ(got, want);
    EXPECT_DOUBLE_EQ(dist(boxes[tree.Nearest(p)], p), dmin);
  }
}

// Mesh errors name the element, its type and nodes, and what is wrong.
TEST(FeBodyMesh, InvertedElementErrorNamesTheElementAndTheJacobian) {
  geometry::Shape s = TetCubeShape(Vec3::Zero(), 1.0);
  std::swap(s.meshes[0].elements[3].nodes[1], s.meshes[0].elements[3].nodes[2]);
  const std::string err = ErrorOf([&] { FeBody(s, Mat(), "b"); });
  EXPECT_NE(err.find("BODY"), std::string::npos);
  EXPECT_NE(err.find("element 3"), std::string::npos) << err;
}

}  // namespace
}  // namespace solfec::body
