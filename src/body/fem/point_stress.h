// STRESS of a FINITE_ELEMENT body at a referential point, and the BULK_MATERIAL models'
// Cauchy stresses at given deformation gradients (results files, XDMF export, the viewer).
#pragma once

#include <array>
#include <vector>

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

// The Cauchy stress of material m at F as (sx, sy, sz, sxy, sxz, syz, mises)
// (material::StressValues); throws SolverError where the model is undefined at F.
std::array<double, 7> MaterialStress(const material::BulkMaterial& m, const Mat3& F);

// The Cauchy stresses and von Mises values at each of F; NaN where the model is undefined
// (det F <= 0 for NEO_HOOKEAN and BLATZ_KO: an inverted element).
void MaterialStresses(const material::BulkMaterial& m, const std::vector<Mat3>& F,
                      std::vector<Mat3>& sigma, std::vector<double>& mises);

}  // namespace solfec::body
