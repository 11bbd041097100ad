// HEX: structured hexahedral mesh spanned trilinearly on 8 corner nodes, with grading.
#include <cmath>
#include <string>

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
        // Outer faces in HEX8 face order: z-min, y-min, x-max, y-max, x-min, z-max.
        const bool outer[6] = {c == 0, b == 0, a == i - 1, b == j - 1, a == 0, c == k - 1};
        const std::vector<std::vector<int>> faces = Mesh::ElementFaces(el);
        for (int f = 0; f < 6; ++f) {
          if (outer[f]) mesh.surface_faces.push_back(MeshFace{faces[f], surfids[f]});
        }
        mesh.elements.push_back(el);
      }
    }
  }
  mesh.default_surfid = surfids[0];
  mesh.Validate("HEX");
  return mesh;
}

}  // namespace solfec::geometry
