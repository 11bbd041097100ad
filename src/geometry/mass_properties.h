// Volume, centroid and Euler tensor of a solid (the inputs of body inertia).
#pragma once

#include "base/types.h"

namespace solfec::geometry {

// Integrals over a solid's volume V: volume = |V|, center = (1/|V|) int x dV, and the
// Euler tensor about the centroid, euler = int (x - c)(x - c)^T dV. The rigid inertia
// tensor about the centroid is density * (trace(euler) I - euler).
struct MassProperties {
  double volume = 0.0;
  Vec3 center = Vec3::Zero();
  Mat3 euler = Mat3::Zero();

  // Combines two disjoint solids (parallel-axis shift of both Euler tensors).
  MassProperties& operator+=(const MassProperties& o);
  Mat3 InertiaTensor(double density) const {
    return density * (euler.trace() * Mat3::Identity() - euler);
  }
};

// Exact integration of signed tetrahedra (apex, a, b, c): accumulates the volume, first
// and second moments relative to `apex`, which is shared by all tetrahedra (a cone
// decomposition of a closed surface). Faces oriented counter-clockwise seen from outside
// give positive volume for any apex.
class ConeIntegrator {
 public:
  explicit ConeIntegrator(const Vec3& apex) : apex_(apex) {}
  // Adds the tetrahedron (apex, a, b, c) with sign det[a - apex, b - apex, c - apex].
  void AddTriangle(const Vec3& a, const Vec3& b, const Vec3& c);
  // Adds the cone over a polygon: a triangle as is, n >= 4 vertices as n triangles around
  // the vertex average (exact for planar polygons, symmetric for warped quadrilaterals).
  void AddPolygon(const Vec3* vertices, int n);
  // Volume, centroid and Euler tensor about the centroid of what was added.
  MassProperties Finish() const;

 private:
  Vec3 apex_;
  double volume_ = 0.0;
  Vec3 first_ = Vec3::Zero();   // int (x - apex) dV
  Mat3 second_ = Mat3::Zero();  // int (x - apex)(x - apex)^T dV
};

}  // namespace solfec::geometry
