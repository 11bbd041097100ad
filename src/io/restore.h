// RestoreFrame: puts a frame read from the results file back into a Domain built by the
// deck (READ-mode navigation and restart): body states and work counters, the clock, and
// the constraint list in the stored order with the stored ids.
#pragma once

#include <vector>

#include "domain/domain.h"
#include "io/results_layout.h"

namespace solfec::io {

struct FrameState {
  FrameRow frame;
  std::vector<BodyStateRow> bodies;
  std::vector<int> nq, nu;   // stored sizes of each body's q and u (from /bodies/table)
  std::vector<double> q, u;  // concatenated in the order of `bodies`
  std::vector<ConstraintRow> constraints;
};

struct RestoreReport {
  int bodies_restored = 0;
  int bodies_missing = 0;       // in the frame but not created by the deck
  int constraints_restored = 0;
  int constraints_skipped = 0;  // attached to a missing body
};

// Throws InputError when a body's stored state size differs from the deck's body (the
// deck does not match the results). User constraints that exist in the domain under the
// stored id keep their definition (series, strength, ...) and take the stored values.
RestoreReport RestoreFrame(domain::Domain& d, const FrameState& s);

}  // namespace solfec::io
