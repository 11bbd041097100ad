// Appendix A rotation update: area-weighted boundary normals and the 3 x 3 Gauss-Newton fit.
#include "body/fem/corotation.h"

#include <cmath>

#include "base/math.h"

namespace solfec::body {

namespace {

// Adds int N phi_a dGamma0 of one boundary face to n (faces outward, CCW from outside).
void AddFaceNormals(const geometry::Mesh& mesh, const std::vector<int>& f,
                    std::vector<Vec3>& n) {
  if (f.size() == 3) {
    const Vec3 a = mesh.nodes[f[0]], b = mesh.nodes[f[1]], c = mesh.nodes[f[2]];
    const Vec3 area = 0.5 * (b - a).cross(c - a);  // N dGamma0 integrated; phi_a -> 1/3
    for (int k : f) n[k] += area / 3.0;
    return;
  }
  // Bilinear quadrilateral: x(s, t) = sum phi_k x_k on [-1, 1]^2, N dGamma = x_s x x_t ds dt.
  const double g = 1.0 / std::sqrt(3.0);
  const double sk[4] = {-1, 1, 1, -1}, tk[4] = {-1, -1, 1, 1};
  for (double s : {-g, g})
    for (double t : {-g, g}) {
      Vec3 xs = Vec3::Zero(), xt = Vec3::Zero();
      double phi[4];
      for (int k = 0; k < 4; ++k) {
        phi[k] = 0.25 * (1 + sk[k] * s) * (1 + tk[k] * t);
        xs += 0.25 * sk[k] * (1 + tk[k] * t) * mesh.nodes[f[k]];
        xt += 0.25 * tk[k] * (1 + sk[k] * s) * mesh.nodes[f[k]];
      }
      const Vec3 dA = xs.cross(xt);  // Gauss weights are 1
      for (int k = 0; k < 4; ++k) n[f[k]] += phi[k] * dA;
    }
}

}  // namespace

CorotationFit::CorotationFit(const geometry::Mesh& mesh) {
  std::vector<Vec3> n(mesh.nodes.size(), Vec3::Zero());
  std::vector<bool> on_boundary(mesh.nodes.size(), false);
  for (const geometry::MeshFace& face : mesh.BoundaryFaces()) {
    AddFaceNormals(mesh, face.nodes, n);
    for (int k : face.nodes) on_boundary[k] = true;
  }
  for (size_t a = 0; a < n.size(); ++a)
    if (on_boundary[a]) normals_.emplace_back(static_cast<int>(a), n[a]);
}

Vec3 CorotationFit::Residual(const Eigen::Ref<const VecX>& x, const Mat3& Lambda) const {
  Vec3 h = Vec3::Zero();
  for (const auto& [a, na] : normals_) {
    const Vec3 xa = x.segment<3>(3 * a);
    h += na.cross(Lambda.transpose() * xa);
  }
  return h;
}

Mat3 CorotationFit::Update(const Eigen::Ref<const VecX>& x, const Mat3& Lambda0,
                           double tolerance, int max_iterations) const {
  // Scale of h: sum |n_a| |x_a - x_c| (translation-free like h itself).
  Vec3 xc = Vec3::Zero();
  for (const auto& entry : normals_) xc += x.segment<3>(3 * entry.first);
  if (!normals_.empty()) xc /= static_cast<double>(normals_.size());
  double scale = 0.0;
  for (const auto& [a, na] : normals_) scale += na.norm() * (x.segment<3>(3 * a) - xc).norm();
  Mat3 Lambda = Lambda0;
  for (int it = 0; it < max_iterations; ++it) {
    // With Lambda' = Lambda exp[psi] (= exp[Lambda psi] Lambda) and y_a = Lambda^T x_a:
    // h(psi) ~ h + G psi, G = sum skew[n_a] skew[y_a] (eqs. 81-83, delta = 0).
    Vec3 h = Vec3::Zero();
    Mat3 G = Mat3::Zero();
    for (const auto& [a, na] : normals_) {
      const Vec3 y = Lambda.transpose() * x.segment<3>(3 * a);
      h += na.cross(y);
      G += Skew(na) * Skew(y);
    }
    if (h.norm() <= tolerance * scale) break;
    const Vec3 psi = -(G.transpose() * G).ldlt().solve(G.transpose() * h);
    if (!psi.allFinite()) break;
    Lambda = Lambda * ExpMap(psi);
  }
  return PolarRotation(Lambda);
}

}  // namespace solfec::body
