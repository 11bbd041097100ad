// Names of constraint kinds as the deck language spells them.
#include "contact/constraint.h"

namespace solfec::contact {

const char* KindName(ConstraintKind k) {
  switch (k) {
    case ConstraintKind::kContact: return "CONTACT";
    case ConstraintKind::kFixPoint: return "FIXPNT";
    case ConstraintKind::kFixDirection: return "FIXDIR";
    case ConstraintKind::kVeloDir: return "VELODIR";
    case ConstraintKind::kRigidLink: return "RIGLNK";
    case ConstraintKind::kSpring: return "SPRING";
    case ConstraintKind::kGlue: return "GLUEPNT";
  }
  return "UNKNOWN";
}

}  // namespace solfec::contact
