// A FINITE_ELEMENT body made of part of another's mesh.
#include "body/fem/fe_part.h"

#include <set>

namespace solfec::body::fem {

bool SameMaterial(const material::BulkMaterial& a, const material::BulkMaterial& b) {
  return a.label == b.label && a.model == b.model && a.young == b.young &&
         a.poisson == b.poisson && a.density == b.density;
}

void InheritPartState(const FeBody& parent, const geometry::Mesh& mesh,
                      const std::vector<int>& elements, const std::vector<int>& nodes,
                      FeBody& part) {
  std::set<int> applied;  // APPLY_BULKMAT materials, by volume id
  for (size_t e = 0; e < elements.size(); ++e) {
    const auto& m = parent.element_material(elements[e]);
    const int volid = mesh.elements[e].volid;
    if (!SameMaterial(m, parent.material()) && applied.insert(volid).second)
      part.ApplyBulkMaterial(volid, m);
  }
  for (size_t a = 0; a < nodes.size(); ++a) {
    part.mutable_q().segment<3>(3 * a) = parent.q().segment<3>(3 * nodes[a]);
    part.mutable_u().segment<3>(3 * a) = parent.u().segment<3>(3 * nodes[a]);
  }
  part.UpdateShape();
  part.set_corotation(parent.corotation());
}

}  // namespace solfec::body::fem
