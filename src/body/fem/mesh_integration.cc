// Solfec-1.0's volume and surface integration points of a mesh (fem.c rules).
#include "body/fem/mesh_integration.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <Eigen/LU>

#include "body/fem/elements.h"

namespace solfec::body::fem {

namespace {

struct RulePoint {
  Vec3 xi;  // natural coordinates of elements.h
  double weight;
};

// Solfec-1.0's volume rules in the natural coordinates of elements.h. The pyramid's rule is
// stated in Solfec-1.0's natural coordinates (x, y, z), base corners (1, 1), (-1, 1),
// (-1, -1), (1, -1) at z = 0 and the apex at z = 1, where its shape functions are those of
// the collapsed hexahedron at xi = -x / (1 - z), eta = -y / (1 - z), zeta = 2 z - 1; the
// weights take the Jacobian of that map, (1 - z)^2 / 2.
const std::vector<RulePoint>& VolumeRule(int num_nodes) {
  static const std::map<int, std::vector<RulePoint>> rules = [] {
    const double g = 1.0 / std::sqrt(3.0);
    const double sq[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    std::map<int, std::vector<RulePoint>> r;
    const double a = (5.0 - std::sqrt(5.0)) / 20.0, b = (5.0 + 3.0 * std::sqrt(5.0)) / 20.0;
    r[4] = {{Vec3(a, a, a), 1.0 / 24},
            {Vec3(a, a, b), 1.0 / 24},
            {Vec3(a, b, a), 1.0 / 24},
            {Vec3(b, a, a), 1.0 / 24}};
    // 2-point Gauss-Jacobi rule for the weight (1 - z)^2 on [0, 1]: the moments 1/3, 1/12
    const double z1 = 1.0 / 3 + std::sqrt(2.0 / 45), z2 = 1.0 / 3 - std::sqrt(2.0 / 45);
    const double w1 = (1.0 / 12 - z2 / 3) / (z1 - z2), w2 = 1.0 / 3 - w1;
    for (const auto& [z, w] : {std::pair{z1, w1}, std::pair{z2, w2}})
      for (const auto& s : sq)
        r[5].push_back({Vec3(-s[0] * g, -s[1] * g, 2 * z - 1), w * 2 / ((1 - z) * (1 - z))});
    const double tri[3][2] = {{2.0 / 3, 1.0 / 6}, {1.0 / 6, 2.0 / 3}, {1.0 / 6, 1.0 / 6}};
    for (double z : {-g, g})
      for (const auto& t : tri) r[6].push_back({Vec3(t[0], t[1], z), 1.0 / 6});
    for (double z : {-g, g})
      for (const auto& s : sq) r[8].push_back({Vec3(s[0] * g, s[1] * g, z), 1.0});
    return r;
  }();
  return rules.at(num_nodes);
}

// Element indices, those with a boundary face first, then the others, each in element order
// (Solfec-1.0's surface and bulk element lists).
std::vector<int> BoundaryElementsFirst(const geometry::Mesh& mesh) {
  const int n = static_cast<int>(mesh.elements.size());
  std::map<std::vector<int>, int> count;
  std::vector<std::vector<std::vector<int>>> faces(n);
  for (int e = 0; e < n; ++e) {
    faces[e] = geometry::Mesh::ElementFaces(mesh.elements[e]);
    for (auto& f : faces[e]) {
      std::sort(f.begin(), f.end());
      ++count[f];
    }
  }
  std::vector<int> first, rest;
  for (int e = 0; e < n; ++e) {
    const bool boundary = std::any_of(faces[e].begin(), faces[e].end(),
                                      [&](const std::vector<int>& f) { return count[f] == 1; });
    (boundary ? first : rest).push_back(e);
  }
  first.insert(first.end(), rest.begin(), rest.end());
  return first;
}

}  // namespace

IntegrationPoints VolumeIntegrationPoints(const geometry::Mesh& mesh, std::optional<int> volid) {
  IntegrationPoints out;
  VecX N;
  MatX3 dN;
  for (int e : BoundaryElementsFirst(mesh)) {
    const geometry::MeshElement& me = mesh.elements[e];
    if (volid && me.volid != *volid) continue;
    Mat3X X(3, me.num_nodes);
    for (int a = 0; a < me.num_nodes; ++a) X.col(a) = mesh.nodes[me.nodes[a]];
    for (const RulePoint& p : VolumeRule(me.num_nodes)) {
      ShapeFunctions(me.num_nodes, p.xi, N, dN);
      out.points.push_back(X * N);
      out.weights.push_back(p.weight * ElementGradient(X, dN).determinant());
    }
  }
  return out;
}

IntegrationPoints SurfaceIntegrationPoints(const geometry::Mesh& mesh, std::optional<int> surfid) {
  // triangle: 1 point, the centroid, weight 1/2; quadrilateral: 2 x 2 Gauss on [-1, 1]^2
  const double g = 1.0 / std::sqrt(3.0);
  const std::vector<RulePoint> tri = {{Vec3(1.0 / 3, 1.0 / 3, 0), 0.5}};
  const std::vector<RulePoint> quad = {
      {Vec3(-g, -g, 0), 1.0}, {Vec3(g, -g, 0), 1.0}, {Vec3(g, g, 0), 1.0}, {Vec3(-g, g, 0), 1.0}};
  IntegrationPoints out;
  double N[4], Nr[4], Ns[4];
  for (const geometry::MeshFace& f : mesh.BoundaryFaces()) {
    if (surfid && f.surfid != *surfid) continue;
    const int n = static_cast<int>(f.nodes.size());
    for (const RulePoint& p : n == 3 ? tri : quad) {
      FaceShapeFunctions(n, p.xi.x(), p.xi.y(), N, Nr, Ns);
      Vec3 x = Vec3::Zero(), xr = Vec3::Zero(), xs = Vec3::Zero();
      for (int a = 0; a < n; ++a) {
        const Vec3& X = mesh.nodes[f.nodes[a]];
        x += N[a] * X, xr += Nr[a] * X, xs += Ns[a] * X;
      }
      out.points.push_back(x);
      out.weights.push_back(p.weight * xr.cross(xs).norm());
    }
  }
  return out;
}

}  // namespace solfec::body::fem
