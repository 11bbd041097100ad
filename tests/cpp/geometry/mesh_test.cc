// Tests of Mesh element faces, validation, boundary extraction, convexes and mass properties.
#include "geometry/mesh.h"

#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Geometry>

#include "base/math.h"
#include "geometry/geometry_test_util.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

using testing::ExpectInputError;

MeshElement Element(std::vector<int> nodes, int volid = 1) {
  MeshElement e;
  e.num_nodes = static_cast<int>(nodes.size());
  for (int i = 0; i < e.num_nodes; ++i) e.nodes[i] = nodes[i];
  e.volid = volid;
  return e;
}

// Unit elements: tet (0,e1,e2,e3), pyramid over the unit square with apex (.5,.5,1),
// wedge over the unit right triangle of height 1, unit cube hex.
Mesh UnitTet() {
  return Mesh{
      {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()}, {Element({0, 1, 2, 3})}, 5, {}};
}
Mesh UnitPyramid() {
  return Mesh{{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}},
              {Element({0, 1, 2, 3, 4})},
              5,
              {}};
}
Mesh UnitWedge() {
  return Mesh{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}},
              {Element({0, 1, 2, 3, 4, 5})},
              5,
              {}};
}
Mesh UnitHex() {
  return Mesh{
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
      {Element({0, 1, 2, 3, 4, 5, 6, 7})},
      5,
      {}};
}

// Exact integration of planar-faced elements: round-off only.
constexpr double kTol = 1e-14;

TEST(MeshTest, UnitElementVolumesAndCentroidsAreExact) {
  struct Case {
    Mesh mesh;
    double volume;
    Vec3 center;
  };
  const Case cases[] = {{UnitTet(), 1.0 / 6.0, Vec3::Constant(0.25)},
                        {UnitPyramid(), 1.0 / 3.0, Vec3(0.5, 0.5, 0.25)},  // h/4 above base
                        {UnitWedge(), 0.5, Vec3(1.0 / 3.0, 1.0 / 3.0, 0.5)},
                        {UnitHex(), 1.0, Vec3::Constant(0.5)}};
  for (const Case& c : cases) {
    EXPECT_NO_THROW(c.mesh.Validate("MESH"));
    const MassProperties mp = c.mesh.ComputeMassProperties();
    EXPECT_NEAR(mp.volume, c.volume, kTol) << c.mesh.nodes.size();
    EXPECT_TRUE(mp.center.isApprox(c.center, kTol)) << mp.center.transpose();
    // Every element face is outward: the element convex is a valid convex of equal volume.
    const Convex convex = c.mesh.ElementConvex(0);
    EXPECT_NO_THROW(convex.Validate("MESH"));
    EXPECT_NEAR(convex.ComputeMassProperties().volume, c.volume, kTol);
  }
}

TEST(MeshTest, HexFacesFollowTheDocumentedOrderAndPointOutward) {
  const Mesh hex = UnitHex();
  const auto faces = Mesh::ElementFaces(hex.elements[0]);
  const std::vector<std::vector<int>> expected = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                                                  {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}};
  EXPECT_EQ(faces, expected);
  const Convex c = hex.ElementConvex(0);
  const Vec3 normals[6] = {-Vec3::UnitZ(), -Vec3::UnitY(), Vec3::UnitX(),
                           Vec3::UnitY(),  -Vec3::UnitX(), Vec3::UnitZ()};
  for (int f = 0; f < 6; ++f) EXPECT_LT((c.FaceNormal(f) - normals[f]).norm(), kTol) << f;
}

TEST(MeshTest, WarpedHexVolumeEqualsTrilinearVolume) {
  Mesh hex = UnitHex();
  hex.nodes[6] = Vec3(1.3, 1.1, 1.4);  // warps three faces
  hex.nodes[1] = Vec3(1.1, -0.2, 0.1);
  // Trilinear volume: det J is quadratic in each reference coordinate, so 2-point Gauss
  // quadrature per direction integrates it exactly.
  const double g[2] = {0.5 - 0.5 / std::sqrt(3.0), 0.5 + 0.5 / std::sqrt(3.0)};
  double volume = 0.0;
  for (double u : g) {
    for (double v : g) {
      for (double w : g) {
        const auto& x = hex.nodes;
        const Vec3 xu = (1 - v) * (1 - w) * (x[1] - x[0]) + v * (1 - w) * (x[2] - x[3]) +
                        (1 - v) * w * (x[5] - x[4]) + v * w * (x[6] - x[7]);
        const Vec3 xv = (1 - u) * (1 - w) * (x[3] - x[0]) + u * (1 - w) * (x[2] - x[1]) +
                        (1 - u) * w * (x[7] - x[4]) + u * w * (x[6] - x[5]);
        const Vec3 xw = (1 - u) * (1 - v) * (x[4] - x[0]) + u * (1 - v) * (x[5] - x[1]) +
                        u * v * (x[6] - x[2]) + (1 - u) * v * (x[7] - x[3]);
        volume += xu.dot(xv.cross(xw)) / 8.0;
      }
    }
  }
  EXPECT_NEAR(hex.ComputeMassProperties().volume, volume, 1e-14);
}

TEST(MeshTest, UnknownElementSizeNamesElementAndArgument) {
  Mesh m = Hex(testing::MakeUnitCube().vertices, 2, 2, 2, 1, {1, 2, 3, 4, 5, 6});
  m.elements[7].num_nodes = 9;
  ExpectInputError([&] { m.Validate("MESH"); },
                   {"MESH: element 7 has 9 nodes; use 4, 5, 6 or 8 (argument 'elements')"});
}

TEST(MeshTest, BadNodeIndexInvertedElementAndInnerSurfaceFaceAreRejected) {
  const Mesh good = Hex(testing::MakeUnitCube().vertices, 2, 2, 2, 1, {1, 2, 3, 4, 5, 6});
  Mesh m = good;
  m.elements[2].nodes[4] = 27;
  ExpectInputError([&] { m.Validate("MESH"); },
                   {"MESH: element 2 has an out-of-range node index 27", "'elements'"});
  m = good;
  // Mirrored bottom only: a twisted element whose signed volume cancels to zero.
  std::swap(m.elements[3].nodes[1], m.elements[3].nodes[3]);
  ExpectInputError([&] { m.Validate("MESH"); }, {"MESH: element 3 has zero volume"});
  // Mirrored bottom and top: an inside-out element.
  std::swap(m.elements[3].nodes[5], m.elements[3].nodes[7]);
  ExpectInputError([&] { m.Validate("MESH"); }, {"MESH: element 3 is inverted", "'elements'"});
  m = good;
  // The face x = 1/2 between elements 0 and 1 is inside the mesh.
  m.surface_faces.push_back(MeshFace{Mesh::ElementFaces(m.elements[0])[2], 9});
  ExpectInputError([&] { m.Validate("MESH"); }, {"is not a boundary face", "'surfids'"});
}

TEST(MeshTest, ConvexNeighborsLinkElementsSharingFaces) {
  // Surface ids in HEX's (Solfec-1.0's) order z-min, x-min, y-max, x-max, y-min, z-max.
  const Mesh m = Hex(testing::MakeUnitCube().vertices, 2, 2, 2, 1, {1, 5, 4, 3, 2, 6});
  const std::vector<Convex> convexes = m.ToConvexes();
  ASSERT_EQ(convexes.size(), 8u);
  // Element 0 (corner) touches 1 (x), 2 (y) and 4 (z); 12 inner faces give 24 links.
  EXPECT_EQ(convexes[0].neighbors, (std::vector<int>{1, 2, 4}));
  size_t links = 0;
  for (const Convex& c : convexes) links += c.neighbors.size();
  EXPECT_EQ(links, 24u);
  // Element 0's z-min face is on surface 1; its x-max face is inner (default id = 1), its
  // x-min face is on surface 5.
  EXPECT_EQ(convexes[0].faces[0].surfid, 1);
  EXPECT_EQ(convexes[0].faces[4].surfid, 5);
  EXPECT_EQ(convexes[7].faces[5].surfid, 6);
}

TEST(MeshTest, MixedHexAndPyramidShareOneFace) {
  Mesh m = UnitHex();
  m.nodes.push_back(Vec3(0.5, 0.5, 1.5));
  m.elements.push_back(Element({4, 5, 6, 7, 8}, 2));
  m.surface_faces.push_back(MeshFace{{4, 5, 8}, 7});
  EXPECT_NO_THROW(m.Validate("MESH"));
  const std::vector<MeshFace> boundary = m.BoundaryFaces();
  EXPECT_EQ(boundary.size(), 9u);  // 5 hex faces + 4 pyramid sides
  int listed = 0;
  for (const MeshFace& f : boundary) listed += f.surfid == 7;
  EXPECT_EQ(listed, 1);
  EXPECT_EQ(m.NodesOnSurface(7), (std::vector<int>{4, 5, 8}));
  EXPECT_NEAR(m.ComputeMassProperties().volume, 1.0 + 1.0 / 6.0, kTol);
  EXPECT_EQ(m.ToConvexes()[1].neighbors, std::vector<int>{0});
}

TEST(MeshTest, ReflectionKeepsElementsPositive) {
  for (Mesh m : {UnitTet(), UnitPyramid(), UnitWedge(), UnitHex()}) {
    const double volume = m.ComputeMassProperties().volume;
    m.Transform(Vec3(1, -1, 1).asDiagonal().toDenseMatrix(), Vec3(0, 0, 2));
    EXPECT_NO_THROW(m.Validate("MESH"));
    EXPECT_NEAR(m.ComputeMassProperties().volume, volume, kTol);
    EXPECT_NO_THROW(m.ElementConvex(0).Validate("MESH"));
  }
}

TEST(MeshTest, BoundsAndRigidMotionInvariance) {
  Mesh m =
      Hex(testing::MakeBox(Vec3::Zero(), Vec3(1, 2, 3)).vertices, 2, 2, 3, 1, {1, 1, 1, 1, 1, 1});
  EXPECT_EQ(m.Bounds().hi, Vec3(1, 2, 3));
  const MassProperties before = m.ComputeMassProperties();
  const Mat3 R = AxisAngle(Vec3(1, 1, 0), 0.4);
  m.Transform(R, Vec3(1, 2, 3));
  const MassProperties after = m.ComputeMassProperties();
  EXPECT_NEAR(after.volume, 6.0, 1e-13);
  EXPECT_TRUE(after.center.isApprox(R * before.center + Vec3(1, 2, 3), 1e-13));
  EXPECT_LT((after.euler - R * before.euler * R.transpose()).norm(), 1e-12);
}

TEST(MeshTest, SurfaceFaceMatchingNoElementFaceIsReportedAsMissing) {
  Mesh m = Hex(testing::MakeUnitCube().vertices, 2, 2, 2, 1, {1, 2, 3, 4, 5, 6});
  m.surface_faces.push_back(MeshFace{{0, 1, 13}, 7});  // nodes of no common element face
  ExpectInputError([&] { m.Validate("MESH"); },
                   {"MESH: surface face", "(nodes 0 1 13)", "matches no element face",
                    "'surfids'"});
  m.surface_faces.back() = MeshFace{Mesh::ElementFaces(m.elements[0])[2], 9};
  ExpectInputError([&] { m.Validate("MESH"); },
                   {"is an inner face of elements 0 and 1", "'surfids'"});
}

// Straight bar x in [0, L], y in [R - h, R + h], z in [0, w] with L = pi R / 2.
Mesh Bar(double R, double h, double w, int i) {
  const double L = kPi * R / 2;
  const std::vector<Vec3> c = {{0, R - h, 0}, {L, R - h, 0}, {L, R + h, 0}, {0, R + h, 0},
                               {0, R - h, w}, {L, R - h, w}, {L, R + h, w}, {0, R + h, w}};
  return Hex(c, i, 2, 1, 1, {1, 2, 3, 4, 5, 6});
}

TEST(MeshTest, BendWrapsAStraightBarOntoAQuarterArc) {
  const double R = 1.0, h = 0.1, w = 0.2, L = kPi * R / 2;
  const Mesh bar = Bar(R, h, w, 16);
  Mesh bent = bar;
  // Axis z through the origin pointing down: e = d x n = x, so the section x = 0 stays.
  bent.Bend(Vec3::Zero(), Vec3(0, 0, -2), 90.0);
  for (size_t k = 0; k < bar.nodes.size(); ++k) {
    const Vec3& X = bar.nodes[k];
    const double a = kPi / 2 * X.x() / L;  // angle proportional to the distance along x
    const Vec3 arc(X.y() * std::sin(a), X.y() * std::cos(a), X.z());
    // Trigonometry of O(1) numbers: round-off only.
    EXPECT_LT((bent.nodes[k] - arc).norm(), 1e-13) << "node " << k;
  }
  // The bent volume approaches the annular sector (pi/4)((R+h)^2-(R-h)^2) w = pi R h w
  // from below: 16 chords of 90/16 degrees lose 1 - sin(t)/t = 4.0e-4 of it.
  const double t = kPi / 32;
  EXPECT_NEAR(bent.ComputeMassProperties().volume, kPi * R * h * w * std::sin(t) / t, 1e-12);
}

TEST(MeshTest, BendByNegativeAngleEqualsBendAboutTheReversedAxis) {
  Mesh a = Bar(1.0, 0.1, 0.2, 8), b = a;
  a.Bend(Vec3::Zero(), Vec3(0, 0, -1), 60.0);
  b.Bend(Vec3::Zero(), Vec3(0, 0, 1), -60.0);
  for (size_t k = 0; k < a.nodes.size(); ++k) EXPECT_LT((a.nodes[k] - b.nodes[k]).norm(), 1e-15);
}

TEST(MeshTest, BendRejectsAnAxisThroughTheMeshAndBadAngles) {
  Mesh m = Bar(1.0, 0.1, 0.2, 4);
  ExpectInputError([&] { m.Bend(Vec3(0.5, 1.0, 0), Vec3::UnitZ(), 90.0); },
                   {"BEND: node", "lies on the axis or beyond it", "'point'"});
  ExpectInputError([&] { m.Bend(Vec3::Zero(), Vec3::UnitZ(), 400.0); },
                   {"BEND: the angle 400 is out of range", "'degrees'"});
  ExpectInputError([&] { m.Bend(Vec3::Zero(), Vec3::Zero(), 90.0); },
                   {"BEND: the axis direction is zero", "'direction'"});
}

TEST(MeshTest, RoughHexOfARotatedBoxFollowsItsPrincipalAxes) {
  Convex box = testing::MakeBox(Vec3(0, 0, 0), Vec3(2, 1, 0.5));
  const Mat3 rot = Eigen::AngleAxisd(kPi / 6, Vec3(0, 0, 1)).toRotationMatrix();
  for (Vec3& v : box.vertices) v = rot * v + Vec3(1, 2, 3);
  const Mesh m = RoughHex({box}, 3, 2, 2, {}, {}, {});
  EXPECT_EQ(m.elements.size(), 12u);
  EXPECT_EQ(m.nodes.size(), 4u * 3u * 3u);
  // The principal box is the box itself (volume 1) enlarged by 1% per side: 1.02^3; the
  // axis-aligned box of the rotated box would be 2.23 x 1.87 x 0.5. Round-off only.
  EXPECT_NEAR(m.ComputeMassProperties().volume, std::pow(1.02, 3), 1e-12);
  EXPECT_LT((m.ComputeMassProperties().center - (rot * Vec3(1, 0.5, 0.25) + Vec3(1, 2, 3))).norm(),
            1e-12);
}

TEST(MeshTest, RoughHexOfACubeIsItsAxisAlignedBoxWithGrading) {
  const Mesh m = RoughHex({testing::MakeUnitCube()}, 2, 1, 1, {1, 3}, {}, {});
  const Aabb b = m.Bounds();
  EXPECT_LT((b.lo - Vec3::Constant(-0.01)).norm(), 1e-14);
  EXPECT_LT((b.hi - Vec3::Constant(1.01)).norm(), 1e-14);
  // Grading 1:3 along x puts the inner node at a quarter of the enlarged width 1.02.
  EXPECT_NEAR(m.nodes[1].x(), -0.01 + 1.02 / 4, 1e-14);
  ExpectInputError([] { RoughHex({}, 1, 1, 1, {}, {}, {}); },
                   {"ROUGH_HEX: the shape has no convex vertices", "'shape'"});
  ExpectInputError([] { RoughHex({testing::MakeUnitCube()}, 0, 1, 1, {}, {}, {}); },
                   {"ROUGH_HEX: i = 0 subdivisions", "'i'"});
}

}  // namespace
}  // namespace solfec::geometry
