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

}  // namespace solfec::geometry
