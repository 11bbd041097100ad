// FINITE_ELEMENT formulations (BODY argument 'form') and the options that come with them.
#pragma once

#include <string>

#include "base/types.h"

namespace solfec::body {

// TL: total Lagrangian (report section 3); BC: body co-rotated (section 4); BC-RO: body
// co-rotated reduced order (section 5); BC-MODAL: reduced order on a modal base (appendix B);
// FFR: floating frame of reference (floating-frame paper).
enum class FeForm { kTL, kBC, kBCRO, kBCModal, kFFR };

// "TL", "BC", "BC-RO", "BC-MODAL", "FFR".
const char* FeFormName(FeForm f);

// Accepts the names above and the aliases 'BC_RO', 'BC_MODAL'; throws InputError naming BODY
// (argument 'form') otherwise.
FeForm ParseFeForm(const std::string& s);

// Options of a FINITE_ELEMENT body beyond the mesh: the form and, for BC-RO/BC-MODAL, the
// reduced base E (3N x n, columns = modes in node-major x, y, z order) with its eigenvalues
// (n; modal bases: K E = M E diag(evals), E^T M E = I; POD bases: E^T E = I).
struct FeOptions {
  FeForm form = FeForm::kTL;
  VecX evals;
  MatX evecs;
  // Throws InputError naming BODY: a base is required by BC-RO/BC-MODAL (argument 'base'),
  // rejected by the other forms, and must have 3 * num_nodes rows and as many columns as
  // evals (num_nodes = the mesh's node count).
  void Validate(int num_nodes) const;
};

}  // namespace solfec::body
