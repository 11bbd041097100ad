// Ellipsoid: validation, exact bounds and mass properties, affine maps, support function.
#include "geometry/ellipsoid.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include <Eigen/SVD>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::geometry {

void Ellipsoid::Validate(const std::string& routine) const {
  if (!center.allFinite()) {
    throw InputError(routine + ": the centre has a non-finite coordinate (argument 'center'); " +
                     "give finite coordinates");
  }
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(radii[i]) || !(radii[i] > 0.0)) {
      std::ostringstream msg;
      msg << routine << ": radius " << i << " = " << radii[i]
          << " is not finite and positive (argument 'radii'); give three finite radii > 0";
      throw InputError(msg.str());
    }
  }
}

Mat3 Ellipsoid::Q() const { return rot * radii.cwiseProduct(radii).asDiagonal() * rot.transpose(); }

Aabb Ellipsoid::Bounds() const {
  // h(+-e_k) = c_k +- sqrt(Q_kk), Q_kk = sum_i (rot(k, i) radii[i])^2.
  const Mat3 B = rot * radii.asDiagonal();
  const Vec3 half = B.rowwise().norm();
  Aabb box;
  box.lo = center - half;
  box.hi = center + half;
  return box;
}

MassProperties Ellipsoid::ComputeMassProperties() const {
  MassProperties mp;
  const double a = radii[0], b = radii[1], c = radii[2];
  mp.volume = 4.0 / 3.0 * kPi * a * b * c;
  mp.center = center;
  // int x_i^2 dV over the ellipsoid in its axes = V r_i^2 / 5 (off-diagonals vanish).
  mp.euler = (mp.volume / 5.0) * Q();
  return mp;
}

Vec3 Ellipsoid::Support(const Vec3& d) const {
  const Vec3 Qd = Q() * d;
  const double s = std::sqrt(std::max(d.dot(Qd), 0.0));
  return s > 0.0 ? Vec3(center + Qd / s) : center;
}

Vec3 Ellipsoid::Normal(const Vec3& x) const {
  const Vec3 local = rot.transpose() * (x - center);
  const Vec3 g = local.cwiseQuotient(radii.cwiseProduct(radii));
  const Vec3 n = rot * g;
  const double len = n.norm();
  return len > 0.0 ? Vec3(n / len) : Vec3::UnitZ();
}

bool Ellipsoid::Contains(const Vec3& p, double eps) const {
  const Vec3 local = (rot.transpose() * (p - center)).cwiseQuotient(radii);
  const double one = 1.0 + eps / radii.minCoeff();
  return local.squaredNorm() <= one * one;
}

void AffineEllipsoidAxes(const Mat3& B, Vec3* radii, Mat3* rot) {
  // Columns already orthogonal (rigid motions, scaling along the axes): no SVD needed, the
  // axes keep their order and sign exactly.
  const Mat3 BtB = B.transpose() * B;
  const double scale = BtB.diagonal().maxCoeff();
  const double off = std::max({std::abs(BtB(0, 1)), std::abs(BtB(0, 2)), std::abs(BtB(1, 2))});
  if (off <= 1e-14 * scale && B.determinant() > 0.0) {
    for (int i = 0; i < 3; ++i) {
      (*radii)[i] = B.col(i).norm();
      rot->col(i) = B.col(i) / (*radii)[i];
    }
    return;
  }
  // B = U S V^T: the semi-axes are U_i S_i; axis i of the image corresponds to the old
  // axes by column i of V. Each old axis j gets the new axis i with the largest |V(j, i)|.
  Eigen::JacobiSVD<Mat3> svd(B, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Mat3 U = svd.matrixU(), V = svd.matrixV();
  const Vec3 S = svd.singularValues();
  std::array<int, 3> perm{0, 1, 2}, best = perm;
  double best_w = -1.0;
  do {  // perm[j] = new axis assigned to old axis j
    double w = 0.0;
    for (int j = 0; j < 3; ++j) w += std::abs(V(j, perm[j]));
    if (w > best_w) best_w = w, best = perm;
  } while (std::next_permutation(perm.begin(), perm.end()));
  int weakest = 0;
  for (int j = 0; j < 3; ++j) {
    const int i = best[j];
    const double sign = V(j, i) < 0.0 ? -1.0 : 1.0;  // U_i . b_j = S_i V(j, i) > 0
    rot->col(j) = sign * U.col(i);
    (*radii)[j] = S[i];
    if (std::abs(V(j, i)) < std::abs(V(weakest, best[weakest]))) weakest = j;
  }
  if (rot->determinant() < 0.0) rot->col(weakest) *= -1.0;
}

void Ellipsoid::Transform(const Mat3& A, const Vec3& t) {
  center = A * center + t;
  AffineEllipsoidAxes(A * rot * radii.asDiagonal(), &radii, &rot);
}

}  // namespace solfec::geometry
