// Exact test geometry for the contact tests: boxes as convexes and rigid motions of them.
#pragma once

#include <vector>

#include "base/math.h"
#include "base/types.h"
#include "geometry/convex.h"

namespace solfec::contact::testing {

// Face order of Box(): outward normals -z, +z, -y, +y, -x, +x.
enum BoxFace { kZMin = 0, kZMax, kYMin, kYMax, kXMin, kXMax };

// The box [lo, hi] with faces counter-clockwise seen from outside; face k has surfid surf0 + k.
inline geometry::Convex Box(const Vec3& lo, const Vec3& hi, int surf0 = 0) {
  geometry::Convex c;
  for (int i = 0; i < 8; ++i)
    c.vertices.emplace_back((i & 1) ? hi.x() : lo.x(), (i & 2) ? hi.y() : lo.y(),
                            (i & 4) ? hi.z() : lo.z());
  const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (int k = 0; k < 6; ++k) {
    geometry::ConvexFace f;
    f.vertices.assign(faces[k], faces[k] + 4);
    f.surfid = surf0 + k;
    c.faces.push_back(f);
  }
  return c;
}

// x -> R (x - p) + p + t on every vertex (a rigid motion keeps the face orientation).
inline void Move(geometry::Convex* c, const Mat3& R, const Vec3& p, const Vec3& t) {
  for (Vec3& x : c->vertices) x = Vec3(R * (x - p) + p + t);
}

}  // namespace solfec::contact::testing
