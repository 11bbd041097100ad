// A FINITE_ELEMENT body made of part of another's mesh (PARTITION, SIMPLIFIED_CRACK, RT_SPLIT,
// SPLIT): the part takes the parent's per-element materials and its nodes' state.
#pragma once

#include <vector>

#include "body/fem/fe_body.h"
#include "material/bulk_material.h"

namespace solfec::body::fem {

// Same label, model and constants.
bool SameMaterial(const material::BulkMaterial& a, const material::BulkMaterial& b);

// `part` was made from `mesh`, whose element e is the parent's element `elements[e]` and node
// a the parent's node `nodes[a]`: the elements whose material differs from the part's
// (APPLY_BULKMAT) get it by volume id, the nodes take the parent's positions and velocities,
// then the shape and the co-rotation follow.
void InheritPartState(const FeBody& parent, const geometry::Mesh& mesh,
                      const std::vector<int>& elements, const std::vector<int>& nodes,
                      FeBody& part);

}  // namespace solfec::body::fem
