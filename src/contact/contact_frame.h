// Local contact frame {e_T1, e_T2, e_N} of a contact point from its normal.
#pragma once

#include "base/math.h"
#include "base/types.h"

namespace solfec::contact {

// base := [t1, n x t1, n] with n the unit normal. With keep_tangent, t1 is the old first
// tangent projected onto the new tangent plane (friction directions stay continuous while a
// contact persists); a fresh frame (BaseFromNormal) otherwise or when that projection vanishes.
inline void OrientContactBase(Mat3& base, const Vec3& n, bool keep_tangent) {
  Vec3 t1 = keep_tangent ? Vec3(base.col(0) - n * n.dot(base.col(0))) : Vec3::Zero();
  if (t1.norm() < 1e-6) {
    base = BaseFromNormal(n);
    return;
  }
  t1.normalize();
  base.col(0) = t1;
  base.col(1) = n.cross(t1);
  base.col(2) = n;
}

}  // namespace solfec::contact
