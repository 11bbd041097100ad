// Sphere: validation, bounds and exact mass properties.
#include "geometry/sphere.h"

#include <cmath>
#include <sstream>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::geometry {

void Sphere::Validate(const std::string& routine) const {
  if (!center.allFinite()) {
    throw InputError(routine + ": the centre has a non-finite coordinate (argument 'center'); " +
                     "give finite coordinates");
  }
  if (!std::isfinite(radius) || !(radius > 0.0)) {
    std::ostringstream msg;
    msg << routine << ": radius " << radius << " is not positive (argument 'radius'); "
        << "give a finite radius > 0";
    throw InputError(msg.str());
  }
}

Aabb Sphere::Bounds() const {
  Aabb box;
  box.lo = center.array() - radius;
  box.hi = center.array() + radius;
  return box;
}

MassProperties Sphere::ComputeMassProperties() const {
  MassProperties mp;
  const double r3 = radius * radius * radius;
  mp.volume = 4.0 / 3.0 * kPi * r3;
  mp.center = center;
  // int x^2 dV over a ball = 4 pi r^5 / 15 (and zero off-diagonal terms by symmetry).
  mp.euler = (4.0 / 15.0 * kPi * r3 * radius * radius) * Mat3::Identity();
  return mp;
}

}  // namespace solfec::geometry
