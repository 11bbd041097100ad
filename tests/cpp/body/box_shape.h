// Test helper: an axis-aligned box [lo, lo + size] as a CONVEX shape with outward faces.
#pragma once

#include "base/types.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::testing {

inline geometry::Convex BoxConvex(const Vec3& lo, const Vec3& size) {
  geometry::Convex c;
  const double a = size.x(), b = size.y(), h = size.z();
  c.vertices = {lo + Vec3(0, 0, 0), lo + Vec3(a, 0, 0), lo + Vec3(a, b, 0), lo + Vec3(0, b, 0),
                lo + Vec3(0, 0, h), lo + Vec3(a, 0, h), lo + Vec3(a, b, h), lo + Vec3(0, b, h)};
  // Hexahedron faces counter-clockwise seen from outside (shape.h HEX face order).
  const int faces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                           {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}};
  for (int f = 0; f < 6; ++f) {
    geometry::ConvexFace face;
    face.vertices.assign(faces[f], faces[f] + 4);
    face.surfid = f + 1;
    c.faces.push_back(face);
  }
  return c;
}

inline geometry::Shape BoxShape(const Vec3& lo, const Vec3& size) {
  geometry::Shape s;
  s.convexes.push_back(BoxConvex(lo, size));
  return s;
}

inline material::BulkMaterial Material(double density) {
  material::BulkMaterial m;
  m.label = "test";
  m.density = density;
  return m;
}

// KIRCHHOFF material with Young's modulus [Pa], Poisson's ratio and density [kg/m^3].
inline material::BulkMaterial ElasticMaterial(double young, double poisson, double density) {
  material::BulkMaterial m = Material(density);
  m.young = young;
  m.poisson = poisson;
  return m;
}

}  // namespace solfec::testing
