// Restoring a stored frame into a Domain.
#include "io/restore.h"

#include <map>
#include <string>

#include "base/errors.h"
#include "body/body_state.h"
#include "contact/constraint_record.h"

namespace solfec::io {

namespace {

void RestoreBodies(domain::Domain& d, const FrameState& s, RestoreReport& rep) {
  if (s.nq.size() != s.bodies.size() || s.nu.size() != s.bodies.size())
    throw InputError("RESTORE: body sizes do not match the body records");
  size_t qi = 0, ui = 0;
  for (size_t i = 0; i < s.bodies.size(); ++i) {
    const BodyStateRow& r = s.bodies[i];
    const size_t nq = static_cast<size_t>(s.nq[i]), nu = static_cast<size_t>(s.nu[i]);
    if (qi + nq > s.q.size() || ui + nu > s.u.size())
      throw InputError("RESTORE: the frame's q/u arrays are shorter than its body records");
    body::Body* b = d.FindBody(r.id);
    if (!b) {
      ++rep.bodies_missing;
    } else {
      body::BodyState state;  // energy[2..4] of the row: external, contact, friction work
      state.id = r.id;
      state.q = s.q.data() + qi;
      state.nq = static_cast<int>(nq);
      state.u = s.u.data() + ui;
      state.nu = static_cast<int>(nu);
      state.work = {r.energy[2], r.energy[3], r.energy[4]};
      if (!body::StateFits(*b, state))
        throw InputError("SOLFEC: body " + std::to_string(r.id) + " of the deck has " +
                         std::to_string(b->q().size()) + " configuration values but the results "
                         "store " + std::to_string(nq) + "; the deck does not match its output "
                         "(run with -w to recompute)");
      body::UnpackState(*b, state);
      ++rep.bodies_restored;
    }
    qi += nq;
    ui += nu;
  }
}

}  // namespace

RestoreReport RestoreFrame(domain::Domain& d, const FrameState& s) {
  RestoreReport rep;
  RestoreBodies(d, s, rep);
  d.set_step(s.frame.step);
  d.RestoreClock(s.frame.time, static_cast<int>(s.frame.step_count), s.frame.next_constraint_id);

  // Rebuild the constraint list in the stored order; keep the deck's user constraints.
  std::list<contact::Constraint> old = std::move(d.mutable_constraints());
  d.mutable_constraints().clear();
  std::map<Id, std::list<contact::Constraint>::iterator> by_id;
  for (auto it = old.begin(); it != old.end(); ++it) by_id[it->id] = it;
  for (const ConstraintRow& r : s.constraints) {
    const auto kind = static_cast<contact::ConstraintKind>(r.kind);
    auto found = by_id.find(r.id);
    contact::Constraint c;
    if (kind != contact::ConstraintKind::kContact && found != by_id.end() &&
        found->second->kind == kind) {
      // The deck's definition stays; the fields the file does not store keep its values.
      c = std::move(*found->second);
      contact::ConstraintRecord rec = contact::RecordOf(c);
      SetStoredFields(r, rec);
      contact::SetState(rec, c);
    } else {
      contact::ConstraintRecord rec;
      SetStoredFields(r, rec);
      body::Body* body1 = rec.body1 >= 0 ? d.FindBody(rec.body1) : nullptr;
      body::Body* body2 = rec.body2 >= 0 ? d.FindBody(rec.body2) : nullptr;
      if ((rec.body1 >= 0 && !body1) || (rec.body2 >= 0 && !body2) || (!body1 && !body2)) {
        ++rep.constraints_skipped;
        continue;
      }
      contact::SetIdentityAndState(rec, body1, body2, c);
      if (kind == contact::ConstraintKind::kContact)
        c.material = d.surface_materials().Find(r.surf1, r.surf2);
      if (kind != contact::ConstraintKind::kContact && kind != contact::ConstraintKind::kRigidLink)
        c.direction = rec.base.col(2);
    }
    d.RestoreConstraint(std::move(c));
    ++rep.constraints_restored;
  }
  return rep;
}

}  // namespace solfec::io
