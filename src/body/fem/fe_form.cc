// FINITE_ELEMENT formulation names, parsing and option checks.
#include "body/fem/fe_form.h"

#include "base/errors.h"

namespace solfec::body {

const char* FeFormName(FeForm f) {
  switch (f) {
    case FeForm::kTL: return "TL";
    case FeForm::kBC: return "BC";
    case FeForm::kBCRO: return "BC-RO";
    case FeForm::kBCModal: return "BC-MODAL";
    case FeForm::kFFR: return "FFR";
  }
  return "TL";
}

FeForm ParseFeForm(const std::string& s) {
  if (s == "TL") return FeForm::kTL;
  if (s == "BC") return FeForm::kBC;
  if (s == "BC-RO" || s == "BC_RO") return FeForm::kBCRO;
  if (s == "BC-MODAL" || s == "BC_MODAL") return FeForm::kBCModal;
  if (s == "FFR") return FeForm::kFFR;
  throw InputError("BODY: unknown form '" + s +
                   "' (argument 'form'); use 'TL', 'BC', 'BC-RO', 'BC-MODAL' or 'FFR'");
}

void FeOptions::Validate(int num_nodes) const {
  const bool reduced = form == FeForm::kBCRO || form == FeForm::kBCModal;
  const std::string name = FeFormName(form);
  if (!reduced) {
    if (evecs.size() > 0 || evals.size() > 0)
      throw InputError("BODY: form '" + name +
                       "' takes no reduced base (argument 'base'); use form 'BC-RO' or "
                       "'BC-MODAL' with a base, or drop 'base'");
    return;
  }
  if (evecs.cols() == 0)
    throw InputError("BODY: form '" + name +
                     "' needs a reduced base (argument 'base'): pass (evals, evecs) or a "
                     "REGISTER_BASE label, e.g. from MODAL_ANALYSIS");
  if (evecs.rows() != 3 * num_nodes)
    throw InputError("BODY: base vectors have " + std::to_string(evecs.rows()) +
                     " components but the mesh has " + std::to_string(num_nodes) +
                     " nodes (argument 'base'); each mode needs 3 * " +
                     std::to_string(num_nodes) + " values");
  if (evals.size() != evecs.cols())
    throw InputError("BODY: base has " + std::to_string(evals.size()) + " eigenvalues for " +
                     std::to_string(evecs.cols()) + " modes (argument 'base')");
  if (!evecs.allFinite() || !evals.allFinite())
    throw InputError("BODY: base contains NaN or infinite values (argument 'base')");
}

}  // namespace solfec::body
