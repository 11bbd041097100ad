// Contact bookkeeping per step: update of existing contacts (CONUPD), detection of new ones
// with the broad and narrow phases, surface materials and sparsification (CONDET).
#pragma once

#include <list>
#include <vector>

#include "contact/constraint.h"

namespace solfec::domain {

class Domain;

class ContactManager {
 public:
  // Recomputes point, base, gap, area of every contact from the current shapes; removes
  // contacts whose pieces no longer overlap (or whose bodies are gone).
  void Update(Domain& domain);
  // Finds overlapping piece pairs without a contact, creates contacts and sparsifies them.
  void Detect(Domain& domain);
};

}  // namespace solfec::domain
