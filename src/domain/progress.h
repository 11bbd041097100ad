// Progress report of a run on stdout: 'ON' (a compact line, updated in place on a
// terminal), '%' (percentage of the current RUN), 'OFF' (nothing).
#pragma once

#include <string>

namespace solfec::domain {

class Domain;

// Installs the progress printer for `mode`; throws InputError for an unknown mode.
void SetProgress(Domain& d, const std::string& mode);

}  // namespace solfec::domain
