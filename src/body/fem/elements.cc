// First-order isoparametric element kernels: shape functions, Gauss rules, inverse map.
#include "body/fem/elements.h"

#include <algorithm>
#include <cmath>

#include <Eigen/LU>

namespace solfec::body::fem {

namespace {

// HEX8 corner signs in manual order: bottom 0-1-2-3 counter-clockwise, top 4-5-6-7.
constexpr double kHexSign[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                   {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

template <class V, class M>  // VecX, MatX3 or fixed-max (allocation-free) storage
void HexFunctions(const Vec3& xi, V& N, M& dN) {
  N.resize(8);
  dN.resize(8, 3);
  for (int a = 0; a < 8; ++a) {
    const double f0 = 1 + kHexSign[a][0] * xi[0], f1 = 1 + kHexSign[a][1] * xi[1],
                 f2 = 1 + kHexSign[a][2] * xi[2];
    N[a] = f0 * f1 * f2 / 8;
    dN(a, 0) = kHexSign[a][0] * f1 * f2 / 8;
    dN(a, 1) = kHexSign[a][1] * f0 * f2 / 8;
    dN(a, 2) = kHexSign[a][2] * f0 * f1 / 8;
  }
}

// Pyramid as a hexahedron whose top face collapses into the apex (node 4).
void PyramidFunctions(const Vec3& xi, VecX& N, MatX3& dN) {
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 8, 1> Nh;  // no allocation
  Eigen::Matrix<double, Eigen::Dynamic, 3, 0, 8, 3> dNh;
  HexFunctions(xi, Nh, dNh);
  N.resize(5);
  dN.resize(5, 3);
  N.head<4>() = Nh.head<4>();
  dN.topRows<4>() = dNh.topRows<4>();
  N[4] = Nh.tail<4>().sum();
  dN.row(4) = dNh.bottomRows<4>().colwise().sum();
}

void WedgeFunctions(const Vec3& xi, VecX& N, MatX3& dN) {
  const double L[3] = {1 - xi[0] - xi[1], xi[0], xi[1]};
  const double dLr[3] = {-1, 1, 0}, dLs[3] = {-1, 0, 1};
  const double z[2] = {(1 - xi[2]) / 2, (1 + xi[2]) / 2}, dz[2] = {-0.5, 0.5};
  N.resize(6);
  dN.resize(6, 3);
  for (int k = 0; k < 2; ++k)
    for (int a = 0; a < 3; ++a) {
      const int i = 3 * k + a;
      N[i] = L[a] * z[k];
      dN(i, 0) = dLr[a] * z[k];
      dN(i, 1) = dLs[a] * z[k];
      dN(i, 2) = L[a] * dz[k];
    }
}

void TetFunctions(const Vec3& xi, VecX& N, MatX3& dN) {
  N.resize(4);
  N << 1 - xi.sum(), xi[0], xi[1], xi[2];
  dN.resize(4, 3);
  dN << -1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1;
}

std::vector<GaussPoint> CubeRule() {
  const double g = 1.0 / std::sqrt(3.0);
  std::vector<GaussPoint> r;
  for (int k = 0; k < 8; ++k)
    r.push_back({Vec3(kHexSign[k][0] * g, kHexSign[k][1] * g, kHexSign[k][2] * g), 1.0});
  return r;
}

std::vector<GaussPoint> WedgeRule() {
  const double g = 1.0 / std::sqrt(3.0);
  const double tri[3][2] = {{1.0 / 6, 1.0 / 6}, {2.0 / 3, 1.0 / 6}, {1.0 / 6, 2.0 / 3}};
  std::vector<GaussPoint> r;
  for (double z : {-g, g})
    for (const auto& p : tri) r.push_back({Vec3(p[0], p[1], z), 1.0 / 6});
  return r;
}

}  // namespace

void ShapeFunctions(int num_nodes, const Vec3& xi, VecX& N, MatX3& dN) {
  switch (num_nodes) {
    case 4: return TetFunctions(xi, N, dN);
    case 5: return PyramidFunctions(xi, N, dN);
    case 6: return WedgeFunctions(xi, N, dN);
    default: return HexFunctions(xi, N, dN);
  }
}

const std::vector<GaussPoint>& GaussRule(int num_nodes) {
  static const std::vector<GaussPoint> kTet = {{Vec3(0.25, 0.25, 0.25), 1.0 / 6}};
  static const std::vector<GaussPoint> kWedge = WedgeRule();
  static const std::vector<GaussPoint> kCube = CubeRule();
  switch (num_nodes) {
    case 4: return kTet;
    case 6: return kWedge;
    default: return kCube;
  }
}

Vec3 NaturalCentre(int num_nodes) {
  switch (num_nodes) {
    case 4: return Vec3(0.25, 0.25, 0.25);
    case 5: return Vec3(0, 0, -0.5);
    case 6: return Vec3(1.0 / 3, 1.0 / 3, 0);
    default: return Vec3::Zero();
  }
}

double OutsideMeasure(int num_nodes, const Vec3& xi) {
  switch (num_nodes) {
    case 4: {
      const double m = std::min({1 - xi.sum(), xi[0], xi[1], xi[2]});
      return std::max(0.0, -m);
    }
    case 6: {
      const double m = std::min({1 - xi[0] - xi[1], xi[0], xi[1]});
      return std::max({0.0, -m, std::abs(xi[2]) - 1});
    }
    case 5: {
      // Collapsed cube: the base square shrinks to the apex as zeta -> 1.
      const double s = std::max(0.5 * (1 - xi[2]), 1e-12);
      const double a = std::max(std::abs(xi[0]), std::abs(xi[1])) * s;
      return std::max({0.0, std::abs(xi[2]) - 1, a - s});
    }
    default:
      return std::max(0.0, xi.cwiseAbs().maxCoeff() - 1);
  }
}

Vec3 ClampToElement(int num_nodes, const Vec3& xi) {
  Vec3 z = xi;
  if (num_nodes == 4) {
    z = z.cwiseMax(0.0);
    if (z.sum() > 1.0) z /= z.sum();
  } else if (num_nodes == 6) {
    z.head<2>() = z.head<2>().cwiseMax(0.0);
    if (z[0] + z[1] > 1.0) z.head<2>() /= z[0] + z[1];
    z[2] = std::clamp(z[2], -1.0, 1.0);
  } else {
    z = z.cwiseMax(-1.0).cwiseMin(1.0);
  }
  return z;
}

void FaceShapeFunctions(int n, double r, double s, double* N, double* Nr, double* Ns) {
  if (n == 3) {
    N[0] = 1 - r - s, N[1] = r, N[2] = s;
    Nr[0] = -1, Nr[1] = 1, Nr[2] = 0;
    Ns[0] = -1, Ns[1] = 0, Ns[2] = 1;
    return;
  }
  const double sr[4] = {-1, 1, 1, -1}, ss[4] = {-1, -1, 1, 1};
  for (int a = 0; a < 4; ++a) {
    N[a] = 0.25 * (1 + sr[a] * r) * (1 + ss[a] * s);
    Nr[a] = 0.25 * sr[a] * (1 + ss[a] * s);
    Ns[a] = 0.25 * ss[a] * (1 + sr[a] * r);
  }
}

Mat3 DeformationGradient(int num_nodes, const Vec3& xi, const Eigen::Ref<const Mat3X>& X,
                         const Eigen::Ref<const Mat3X>& x) {
  VecX N;
  MatX3 dN;
  ShapeFunctions(num_nodes, xi, N, dN);
  const Mat3 J0 = X * dN;
  return x * dN * J0.inverse();
}

bool InverseMap(int num_nodes, const Eigen::Ref<const Mat3X>& nodes, const Vec3& x, Vec3& xi) {
  xi = NaturalCentre(num_nodes);
  // Called for every contact point every step: scratch kept between calls (no allocation).
  thread_local VecX N;
  thread_local MatX3 dN;
  const double scale = (nodes.rowwise().maxCoeff() - nodes.rowwise().minCoeff()).norm();
  for (int it = 0; it < 30; ++it) {
    ShapeFunctions(num_nodes, xi, N, dN);
    // r = nodes N - x summed node by node, J by ElementGradient (no dynamic-size kernels for
    // 4-8 columns); the 3x3 step by the cofactor inverse (Newton corrects its rounding as it
    // does that of a pivoted LU).
    Vec3 r = -x;
    for (int a = 0; a < num_nodes; ++a) r += N[a] * nodes.col(a);
    const Mat3 J = ElementGradient(nodes, dN);
    const double det = J.determinant();
    if (!(std::abs(det) > 1e-300)) return false;
    const Vec3 d = J.inverse() * r;
    xi -= d;
    if (!xi.allFinite() || xi.cwiseAbs().maxCoeff() > 1e3) return false;
    if (r.norm() <= 1e-14 * scale || d.norm() < 1e-13) return true;
  }
  return true;  // best effort: a Newton limit cycle near a distorted element's edge
}

}  // namespace solfec::body::fem
