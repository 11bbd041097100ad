// Sphere with volume and surface ids (manual 4.1.3 SPHERE).
#pragma once

#include <string>

#include "base/types.h"
#include "geometry/aabb.h"
#include "geometry/mass_properties.h"

namespace solfec::geometry {

struct Sphere {
  Vec3 center = Vec3::Zero();
  double radius = 1.0;
  int volid = 0;
  int surfid = 0;

  // Throws InputError naming `routine` for a non-positive or non-finite radius.
  void Validate(const std::string& routine) const;
  Aabb Bounds() const;
  MassProperties ComputeMassProperties() const;
};

}  // namespace solfec::geometry
