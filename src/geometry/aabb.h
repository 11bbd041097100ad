// Axis-aligned bounding box.
#pragma once

#include <limits>

#include "base/types.h"

namespace solfec::geometry {

struct Aabb {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());

  void Extend(const Vec3& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  void Extend(const Aabb& b) {
    lo = lo.cwiseMin(b.lo);
    hi = hi.cwiseMax(b.hi);
  }
  void Inflate(double d) {
    lo.array() -= d;
    hi.array() += d;
  }
  bool Overlaps(const Aabb& b) const {
    return (lo.array() <= b.hi.array()).all() && (b.lo.array() <= hi.array()).all();
  }
  bool Contains(const Vec3& p) const {
    return (lo.array() <= p.array()).all() && (p.array() <= hi.array()).all();
  }
  bool empty() const { return (lo.array() > hi.array()).any(); }
};

}  // namespace solfec::geometry
