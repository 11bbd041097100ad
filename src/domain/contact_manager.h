// Contact bookkeeping per step; every contact is made and deleted here. Overlap contacts:
// update of existing ones (CONUPD), detection of new ones with the broad and narrow phases,
// surface materials and sparsification (CONDET). Node-to-face contacts (CONTACT_METHOD
// 'NODE_TO_FACE'): the node-face pairs that the domain's NodeToFace search finds.
#pragma once

#include <functional>
#include <list>
#include <vector>

#include "contact/constraint.h"
#include "contact/node_to_face.h"
#include "material/surface_material.h"

namespace solfec::domain {

class Domain;

class ContactManager {
 public:
  // Recomputes point, base, gap, area of every overlap contact from the current shapes;
  // removes contacts whose pieces no longer overlap (or whose bodies are gone). Then the
  // node-to-face contacts of a new search (ApplyNodeToFaceContacts); with OVERLAP they are
  // all removed.
  void Update(Domain& domain);
  // Finds overlapping piece pairs without a contact, creates contacts and sparsifies them.
  void Detect(Domain& domain);

 private:
  std::vector<contact::HeldContact> held_;  // kept between steps (its storage)
};

// The node-to-face contacts of `constraints` as a search's existing contacts, into `held`.
void HeldContacts(const std::list<contact::Constraint>& constraints,
                  std::vector<contact::HeldContact>& held);

// Makes the node-to-face contacts of `constraints` those `found` by a search (sorted by
// (master id, slave id, node), one per key: NodeToFace::Search). A contact of the same
// (master, slave, node) keeps its reaction (age + 1, tangent kept continuous) and takes the
// found face, point and gap; the others are erased (the node left the face, or its body is
// gone); new pairs are added through `add` (which assigns ids), with their surfaces' material.
void ApplyNodeToFaceContacts(const std::vector<contact::NodeFaceContact>& found,
                             std::list<contact::Constraint>& constraints,
                             const std::function<void(contact::Constraint)>& add,
                             const material::SurfaceMaterialTable& materials);

}  // namespace solfec::domain
