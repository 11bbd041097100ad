// STRESS of a FINITE_ELEMENT body at a referential point.
#pragma once

#include <array>

#include "base/types.h"
#include "body/fem/fe_body.h"

namespace solfec::body {

// Cauchy stress (sx, sy, sz, sxy, sxz, syz, mises) at referential point X at the current q,
// each element with its own material (APPLY_BULKMAT): at a mesh node (max-norm distance
// below eps) the average of the values of the node's elements there (Solfec-1.0's
// FEM_Point_Values, Code_Aster's nodal stresses; elements with a non-finite F at the node,
// a collapsed node of a degenerate element, are left out), elsewhere the value of the
// element holding X (or the nearest one).
std::array<double, 7> PointStress(const FeBody& fe, const Vec3& X, double eps);

}  // namespace solfec::body
