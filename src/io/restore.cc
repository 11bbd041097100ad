// Restoring a stored frame into a Domain.
#include "io/restore.h"

#include <map>
#include <string>

#include "base/errors.h"

namespace solfec::io {

namespace {

Vec3 V3(const double* p) { return Vec3(p[0], p[1], p[2]); }

Mat3 M3(const double* p) {  // column-wise
  Mat3 m;
  for (int j = 0; j < 9; ++j) m(j % 3, j / 3) = p[j];
  return m;
}

void SetValues(contact::Constraint& c, const ConstraintRow& r) {
  c.age = r.age;
  c.point = V3(r.point);
  c.point2 = V3(r.point2);
  c.base = M3(r.base);
  c.R = V3(r.R);
  c.U = V3(r.U);
  c.gap = r.gap;
  c.area = r.area;
  c.merit = r.merit;
}

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
      if (static_cast<size_t>(b->q().size()) != nq || static_cast<size_t>(b->u().size()) != nu)
        throw InputError("SOLFEC: body " + std::to_string(r.id) + " of the deck has " +
                         std::to_string(b->q().size()) + " configuration values but the results "
                         "store " + std::to_string(nq) + "; the deck does not match its output "
                         "(run with -w to recompute)");
      b->mutable_q() = Eigen::Map<const VecX>(s.q.data() + qi, static_cast<Eigen::Index>(nq));
      b->mutable_u() = Eigen::Map<const VecX>(s.u.data() + ui, static_cast<Eigen::Index>(nu));
      b->UpdateShape();
      b->external_work = r.energy[2];
      b->contact_work = r.energy[3];
      b->friction_work = r.energy[4];
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
      c = std::move(*found->second);
    } else {
      c.id = r.id;
      c.kind = kind;
      c.body1 = r.body1 >= 0 ? d.FindBody(r.body1) : nullptr;
      c.body2 = r.body2 >= 0 ? d.FindBody(r.body2) : nullptr;
      if ((r.body1 >= 0 && !c.body1) || (r.body2 >= 0 && !c.body2) || (!c.body1 && !c.body2)) {
        ++rep.constraints_skipped;
        continue;
      }
      c.X1 = V3(r.X1);
      c.X2 = V3(r.X2);
      c.piece1 = r.piece1;
      c.piece2 = r.piece2;
      c.surf1 = r.surf1;
      c.surf2 = r.surf2;
      c.cohesive = r.cohesive != 0;
      if (kind == contact::ConstraintKind::kContact)
        c.material = d.surface_materials().Find(r.surf1, r.surf2);
      if (kind != contact::ConstraintKind::kContact && kind != contact::ConstraintKind::kRigidLink)
        c.direction = M3(r.base).col(2);
    }
    SetValues(c, r);
    d.RestoreConstraint(std::move(c));
    ++rep.constraints_restored;
  }
  return rep;
}

}  // namespace solfec::io
