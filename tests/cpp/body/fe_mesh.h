// Test helper: structured HEX8 and TET4 meshes of a box as FINITE_ELEMENT body shapes.
#pragma once

#include <vector>

#include "base/types.h"
#include "geometry/shape.h"

namespace solfec::testing {

// Box [lo, lo + size] split into nx x ny x nz hexahedra (geometry::Hex, surfids 1..6).
inline geometry::Shape HexMeshShape(const Vec3& lo, const Vec3& size, int nx, int ny, int nz) {
  std::vector<Vec3> c;
  for (int k = 0; k < 2; ++k) {
    const double z = lo.z() + k * size.z();
    c.push_back(Vec3(lo.x(), lo.y(), z));
    c.push_back(Vec3(lo.x() + size.x(), lo.y(), z));
    c.push_back(Vec3(lo.x() + size.x(), lo.y() + size.y(), z));
    c.push_back(Vec3(lo.x(), lo.y() + size.y(), z));
  }
  geometry::Shape s;
  s.meshes.push_back(geometry::Hex(c, nx, ny, nz, 1, {1, 2, 3, 4, 5, 6}));
  return s;
}

// Cube [lo, lo + a] split into 6 tetrahedra around the diagonal 0-6 (all positively oriented).
inline geometry::Shape TetCubeShape(const Vec3& lo, double a) {
  geometry::Mesh m;
  const int s[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                       {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (const auto& p : s) m.nodes.push_back(lo + a * Vec3(p[0], p[1], p[2]));
  const int tets[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                          {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  for (const auto& t : tets) {
    geometry::MeshElement e;
    e.num_nodes = 4;
    for (int i = 0; i < 4; ++i) e.nodes[i] = t[i];
    e.volid = 1;
    m.elements.push_back(e);
  }
  geometry::Shape shape;
  shape.meshes.push_back(m);
  return shape;
}

}  // namespace solfec::testing
