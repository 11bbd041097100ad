// HEX: structured hexahedral mesh spanned trilinearly on 8 corner nodes, with grading;
// ROUGH_HEX: such a mesh on the box bounding convexes.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "base/errors.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

// Normalised cumulative coordinates 0 = t_0 < ... < t_count = 1 from a grading list.
std::vector<double> Grading(int count, const std::vector<double>& ratios, const char* name,
                            const char* count_name) {
  if (!ratios.empty() && static_cast<int>(ratios.size()) != count) {
    throw InputError("HEX: the grading list has " + std::to_string(ratios.size()) +
                     " entries but " + count_name + " = " + std::to_string(count) + " (argument '" +
                     name + "'); give one ratio per subdivision");
  }
  std::vector<double> widths(count, 1.0);
  for (int i = 0; i < static_cast<int>(ratios.size()); ++i) {
    if (!std::isfinite(ratios[i]) || !(ratios[i] > 0.0)) {
      throw InputError("HEX: grading ratio " + std::to_string(i) + " is not positive (argument '" +
                       name + "'); give positive ratios");
    }
    widths[i] = ratios[i];
  }
  std::vector<double> t(count + 1, 0.0);
  for (int i = 0; i < count; ++i) t[i + 1] = t[i] + widths[i];
  for (double& x : t) x /= t[count];
  t[count] = 1.0;
  return t;
}

// Trilinear interpolation of the corners (HEX8 ordering) at (u, v, w) in [0, 1]^3.
Vec3 Trilinear(const std::vector<Vec3>& c, double u, double v, double w) {
  const Vec3 bottom = (1 - v) * ((1 - u) * c[0] + u * c[1]) + v * ((1 - u) * c[3] + u * c[2]);
  const Vec3 top = (1 - v) * ((1 - u) * c[4] + u * c[5]) + v * ((1 - u) * c[7] + u * c[6]);
  return (1 - w) * bottom + w * top;
}

}  // namespace

Mesh Hex(const std::vector<Vec3>& corners, int i, int j, int k, int volid,
         const std::vector<int>& surfids, const std::vector<double>& dx,
         const std::vector<double>& dy, const std::vector<double>& dz) {
  if (corners.size() != 8) {
    throw InputError("HEX: " + std::to_string(corners.size()) +
                     " corner nodes given (argument 'nodes'); give 8 nodes (24 numbers)");
  }
  const char* names[3] = {"i", "j", "k"};
  const int counts[3] = {i, j, k};
  for (int d = 0; d < 3; ++d) {
    if (counts[d] < 1) {
      throw InputError("HEX: " + std::string(names[d]) + " = " + std::to_string(counts[d]) +
                       " subdivisions (argument '" + names[d] + "'); give an integer >= 1");
    }
  }
  if (surfids.size() != 6) {
    throw InputError("HEX: " + std::to_string(surfids.size()) +
                     " surface ids given (argument 'surfids'); give 6 surface ids");
  }
  const std::vector<double> tu = Grading(i, dx, "dx", "i");
  const std::vector<double> tv = Grading(j, dy, "dy", "j");
  const std::vector<double> tw = Grading(k, dz, "dz", "k");

  // Nodes a + (i + 1) (b + (j + 1) c) on the trilinear grid.
  Mesh mesh;
  auto id = [&](int a, int b, int c) { return a + (i + 1) * (b + (j + 1) * c); };
  mesh.nodes.reserve((i + 1) * (j + 1) * (k + 1));
  for (int c = 0; c <= k; ++c) {
    for (int b = 0; b <= j; ++b) {
      for (int a = 0; a <= i; ++a) mesh.nodes.push_back(Trilinear(corners, tu[a], tv[b], tw[c]));
    }
  }
  for (int c = 0; c < k; ++c) {
    for (int b = 0; b < j; ++b) {
      for (int a = 0; a < i; ++a) {
        MeshElement el;
        el.num_nodes = 8;
        el.volid = volid;
        el.nodes = {
            id(a, b, c),     id(a + 1, b, c),     id(a + 1, b + 1, c),     id(a, b + 1, c),
            id(a, b, c + 1), id(a + 1, b, c + 1), id(a + 1, b + 1, c + 1), id(a, b + 1, c + 1)};
        // Outer faces in HEX8 face order: z-min, y-min, x-max, y-max, x-min, z-max; their
        // surface ids as Solfec-1.0's msh.c (MESH_Hex): surfids lists z-min, x-min, y-max,
        // x-max, y-min, z-max.
        const bool outer[6] = {c == 0, b == 0, a == i - 1, b == j - 1, a == 0, c == k - 1};
        static constexpr int kSurfidOfFace[6] = {0, 4, 3, 2, 1, 5};
        const std::vector<std::vector<int>> faces = Mesh::ElementFaces(el);
        for (int f = 0; f < 6; ++f) {
          if (outer[f])
            mesh.surface_faces.push_back(MeshFace{faces[f], surfids[kSurfidOfFace[f]]});
        }
        mesh.elements.push_back(el);
      }
    }
  }
  mesh.default_surfid = surfids[0];
  mesh.Validate("HEX");
  return mesh;
}

namespace {

// Principal axes of the Euler tensor as columns, permuted and signed to lie closest to
// x, y, z, right-handed.
Mat3 PrincipalFrame(const Mat3& euler) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig(euler);
  const Mat3 V = eig.eigenvectors();
  std::array<int, 3> perm = {0, 1, 2}, best = perm;
  double best_score = -1.0;
  do {  // assignment of eigenvectors to x, y, z maximising the alignment
    const double score =
        std::abs(V(0, perm[0])) + std::abs(V(1, perm[1])) + std::abs(V(2, perm[2]));
    if (score > best_score) best_score = score, best = perm;
  } while (std::next_permutation(perm.begin(), perm.end()));
  Mat3 R;
  for (int a = 0; a < 3; ++a) {
    R.col(a) = V.col(best[a]);
    if (R(a, a) < 0.0) R.col(a) = -R.col(a);
  }
  if (R.determinant() < 0.0) R.col(2) = -R.col(2);
  return R;
}

// Box [lo, hi] of the points in the frame R (coordinates R^T x).
void FrameBox(const std::vector<Vec3>& points, const Mat3& R, Vec3& lo, Vec3& hi) {
  Aabb box;
  for (const Vec3& p : points) box.Extend(Vec3(R.transpose() * p));
  lo = box.lo;
  hi = box.hi;
}

}  // namespace

Mesh RoughHex(const std::vector<Convex>& convexes, int i, int j, int k,
              const std::vector<double>& dx, const std::vector<double>& dy,
              const std::vector<double>& dz) {
  std::vector<Vec3> points;
  MassProperties mp;
  for (const Convex& c : convexes) {
    points.insert(points.end(), c.vertices.begin(), c.vertices.end());
    mp += c.ComputeMassProperties();
  }
  if (points.empty())
    throw InputError("ROUGH_HEX: the shape has no convex vertices (argument 'shape'); pass a "
                     "CONVEX object or a list of them");
  Mat3 R = Mat3::Identity();
  Vec3 lo, hi;
  FrameBox(points, R, lo, hi);
  if (mp.volume > 0.0 && mp.euler.allFinite()) {
    const Mat3 P = PrincipalFrame(mp.euler);
    Vec3 plo, phi;
    FrameBox(points, P, plo, phi);
    if ((phi - plo).prod() < (1.0 - 1e-9) * (hi - lo).prod()) R = P, lo = plo, hi = phi;
  }
  const Vec3 size = hi - lo;
  const Vec3 margin = (0.01 * size).cwiseMax(Vec3::Constant(1e-9 * size.norm()));
  lo -= margin;
  hi += margin;
  std::vector<Vec3> corners(8);
  for (int c = 0; c < 8; ++c) {
    const bool up_x = c == 1 || c == 2 || c == 5 || c == 6;
    const bool up_y = c == 2 || c == 3 || c == 6 || c == 7;
    const Vec3 local(up_x ? hi.x() : lo.x(), up_y ? hi.y() : lo.y(), c >= 4 ? hi.z() : lo.z());
    corners[c] = R * local;
  }
  try {
    return Hex(corners, i, j, k, 0, std::vector<int>(6, 0), dx, dy, dz);
  } catch (const InputError& err) {
    const std::string msg = err.what();
    throw InputError("ROUGH_HEX" + msg.substr(std::min<size_t>(3, msg.size())));
  }
}

}  // namespace solfec::geometry
