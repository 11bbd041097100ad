// Contact update, detection, material assignment and sparsification for one step, overlap
// and node-to-face.
#include "domain/contact_manager.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "base/math.h"
#include "body/fem/fe_body.h"
#include "contact/broad_phase.h"
#include "contact/contact_frame.h"
#include "contact/contact_patch.h"
#include "contact/ellipsoid_contact.h"
#include "contact/narrow_phase.h"
#include "contact/sparsify.h"
#include "domain/domain.h"

namespace solfec::domain {

using body::Body;
using body::BodyKind;
using contact::Constraint;
using contact::ConstraintKind;
using contact::ContactGeometry;
using geometry::Shape;

namespace {

// Pieces: convexes, then spheres, then ellipsoids.
int NumPieces(const Shape& s) {
  return static_cast<int>(s.convexes.size() + s.spheres.size() + s.ellipsoids.size());
}

geometry::Aabb PieceBounds(const Shape& s, int p) {
  const int nc = static_cast<int>(s.convexes.size());
  const int ns = nc + static_cast<int>(s.spheres.size());
  return p < nc   ? s.convexes[p].Bounds()
         : p < ns ? s.spheres[p - nc].Bounds()
                  : s.ellipsoids[p - ns].Bounds();
}

// Contact of piece pa of shape a with piece pb of shape b (normal from a into b): pieces
// closer than eps (GEOMETRIC_EPSILON) touch, as in Solfec-1.0, with gap = minus the
// penetration depth (0 if they only touch). Up to max_points (CONTACT_POINTS) points for
// convex pairs (a contact patch), one point otherwise.
//
// CONTACT_POINTS 1 between two meshed FINITE_ELEMENT bodies (`meshes`, Solfec-1.0's model:
// one point per pair of touching elements) puts the point at the centroid of the contact
// polygon: the volume centroid of the thin wedge that two touching faces a little out of
// parallel make moves by up to a sixth of the face width as they tilt.
std::vector<ContactGeometry> DetectPair(const Shape& a, int pa, const Shape& b, int pb, double eps,
                                        int max_points, bool meshes = false) {
  const int na = static_cast<int>(a.convexes.size());
  const int nb = static_cast<int>(b.convexes.size());
  const int ea = na + static_cast<int>(a.spheres.size());
  const int eb = nb + static_cast<int>(b.spheres.size());
  if (pa >= ea || pb >= eb) {  // an ellipsoid (contact/ellipsoid_contact.h)
    std::optional<ContactGeometry> e = contact::EllipsoidPiecePair(a, pa, b, pb, eps);
    return e ? std::vector<ContactGeometry>{*e} : std::vector<ContactGeometry>{};
  }
  std::optional<ContactGeometry> g;
  if (pa < na && pb < nb)
    return contact::ConvexConvexPatch(a.convexes[pa], b.convexes[pb], eps, max_points,
                                      meshes && max_points <= 1);
  // Spheres: the second piece's sphere grown by eps; the gap is measured back.
  auto grown = [eps](geometry::Sphere s) {
    s.radius += eps;
    return s;
  };
  if (pa < na)
    g = contact::ConvexSphere(a.convexes[pa], grown(b.spheres[pb - nb]), eps);
  else if (pb < nb)
    g = contact::SphereConvex(grown(a.spheres[pa - na]), b.convexes[pb], eps);
  else
    g = contact::SphereSphere(a.spheres[pa - na], grown(b.spheres[pb - nb]), eps);
  if (!g) return {};
  g->gap = std::min(0.0, g->gap + eps);
  return {*g};
}

// Writes detected geometry into a contact, keeping the tangent base continuous so that
// warm-started tangential reactions stay meaningful.
void SetGeometry(Constraint& c, const ContactGeometry& g, bool keep_tangent) {
  c.point = g.point;
  c.gap = g.gap;
  c.area = g.area;
  contact::OrientContactBase(c.base, g.normal.normalized(), keep_tangent);
  if (c.body1 == c.body2) {  // self-contact: each side maps back into its own piece
    const contact::PiecePair& p = contact::Pieces(c);
    c.X1 = c.body1->ReferentialPointOnPiece(g.point, p.piece1);
    c.X2 = c.body2->ReferentialPointOnPiece(g.point, p.piece2);
    return;
  }
  c.X1 = c.body1->ReferentialPoint(g.point);
  c.X2 = c.body2->ReferentialPoint(g.point);
}

// Both bodies are FINITE_ELEMENT meshes (their pieces are the mesh elements, not convexes
// embedded in a background mesh): DetectPair's one point per element pair.
bool MeshPair(const Body& a, const Body& b) {
  const body::FeBody* fa = a.AsFeBody();
  const body::FeBody* fb = b.AsFeBody();
  return fa && fb && !fa->embedded() && !fb->embedded();
}

using PairKey = std::tuple<Id, int, Id, int>;
PairKey KeyOf(Id b1, int p1, Id b2, int p2) {
  return std::make_pair(b1, p1) < std::make_pair(b2, p2) ? PairKey{b1, p1, b2, p2}
                                                         : PairKey{b2, p2, b1, p1};
}

bool PiecesAdjacent(const void* context, int body, int a, int b) {
  const auto& bodies = *static_cast<const std::vector<Body*>*>(context);
  const Shape& s = bodies[body]->shape();
  const int nc = static_cast<int>(s.convexes.size());
  if (a >= nc || b >= nc) return false;
  if (bodies[body]->kind() == BodyKind::kFiniteElement) {
    // Mesh elements are adjacent when they share a node, an element to itself (Solfec-1.0's
    // ELEMENT_Adjacent): of a sliver overlap at the edge of an element's contact face and
    // that face's own contact, the sliver is dropped. Shared nodes are equal vertices.
    if (a == b) return true;
    for (const Vec3& v : s.convexes[a].vertices)
      for (const Vec3& w : s.convexes[b].vertices)
        if (v == w) return true;
    return false;
  }
  const auto& nb = s.convexes[a].neighbors;
  return std::find(nb.begin(), nb.end(), b) != nb.end();
}

// A node-to-face contact's geometry from the search's node-face pair.
void SetNodeFaceGeometry(Constraint& c, const contact::NodeFaceContact& r, bool keep_tangent) {
  c.source = contact::NodeFace{r.node, r.face};
  c.point = r.projection.point;
  c.gap = r.projection.gap;
  c.area = r.area;
  contact::OrientContactBase(c.base, r.projection.normal, keep_tangent);
  c.X1 = r.master_ref;
  c.face1 = r.master_face;
  c.X2 = r.slave_ref;
}

}  // namespace

void HeldContacts(const std::list<Constraint>& constraints,
                  std::vector<contact::HeldContact>& held) {
  held.clear();
  for (const Constraint& c : constraints)
    if (contact::IsNodeToFace(c))
      held.push_back({c.body1->id(), c.body2->id(), contact::SlaveNode(c), c.gap});
}

void ApplyNodeToFaceContacts(const std::vector<contact::NodeFaceContact>& found,
                             std::list<Constraint>& constraints,
                             const std::function<void(Constraint)>& add,
                             const material::SurfaceMaterialTable& materials) {
  // `found` is sorted by (master id, slave id, node), one entry a key: an existing contact's
  // entry is found by binary search.
  using Key = std::tuple<Id, Id, int>;  // (master id, slave id, slave node)
  const auto key_of = [](const contact::NodeFaceContact& r) {
    return Key{r.master->id(), r.slave->id(), r.node};
  };
  std::vector<bool> used(found.size(), false);
  for (auto it = constraints.begin(); it != constraints.end();) {
    if (!contact::IsNodeToFace(*it)) {
      ++it;
      continue;
    }
    const Key key{it->body1->id(), it->body2->id(), contact::SlaveNode(*it)};
    const auto f = std::lower_bound(
        found.begin(), found.end(), key,
        [&](const contact::NodeFaceContact& r, const Key& k) { return key_of(r) < k; });
    const size_t i = static_cast<size_t>(f - found.begin());
    if (f == found.end() || key_of(*f) != key || used[i]) {
      it = constraints.erase(it);  // the node left the face (or its body is gone)
      continue;
    }
    const contact::NodeFaceContact& r = *f;
    used[i] = true;
    SetNodeFaceGeometry(*it, r, true);
    if (it->surf1 != r.surf_master || it->surf2 != r.surf_slave) {
      it->surf1 = r.surf_master;
      it->surf2 = r.surf_slave;
      it->material = materials.Find(it->surf1, it->surf2);
    }
    ++it->age;
    ++it;
  }
  for (size_t i = 0; i < found.size(); ++i) {
    if (used[i]) continue;
    const contact::NodeFaceContact& r = found[i];
    Constraint c;
    c.kind = ConstraintKind::kContact;
    c.body1 = r.master;
    c.body2 = r.slave;
    c.surf1 = r.surf_master;
    c.surf2 = r.surf_slave;
    SetNodeFaceGeometry(c, r, false);
    c.material = materials.Find(c.surf1, c.surf2);
    c.cohesive = c.material && c.material->cohesion > 0.0;
    add(std::move(c));
  }
}

void ContactManager::Update(Domain& d) {
  // Contacts of one piece pair form a patch; recompute it and match the new points to the
  // old contacts by distance so that reactions stay warm-started.
  using Iter = std::list<Constraint>::iterator;
  auto& cons = d.mutable_constraints();
  std::map<PairKey, std::vector<Iter>> groups;
  std::vector<PairKey> order;
  for (auto it = cons.begin(); it != cons.end(); ++it) {
    if (it->kind != ConstraintKind::kContact || contact::IsNodeToFace(*it)) continue;
    const contact::PiecePair& p = contact::Pieces(*it);
    const PairKey key{it->body1->id(), p.piece1, it->body2->id(), p.piece2};
    auto [g, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    g->second.push_back(it);
  }
  std::vector<Constraint> added;
  for (const PairKey& key : order) {
    std::vector<Iter>& old = groups[key];
    const Constraint& c0 = *old.front();
    const contact::PiecePair& p0 = contact::Pieces(c0);
    const std::vector<ContactGeometry> patch =
        DetectPair(c0.body1->shape(), p0.piece1, c0.body2->shape(), p0.piece2,
                   d.contact_settings().geometric_epsilon, d.contact_settings().contact_points,
                   MeshPair(*c0.body1, *c0.body2));
    std::vector<bool> used_old(old.size(), false), used_new(patch.size(), false);
    // Greedy matching: repeatedly take the closest (old, new) pair.
    for (size_t round = 0; round < std::min(old.size(), patch.size()); ++round) {
      double best = std::numeric_limits<double>::infinity();
      size_t bi = 0, bj = 0;
      for (size_t i = 0; i < old.size(); ++i) {
        if (used_old[i]) continue;
        for (size_t j = 0; j < patch.size(); ++j) {
          if (used_new[j]) continue;
          const double dist = (old[i]->point - patch[j].point).squaredNorm();
          if (dist < best) best = dist, bi = i, bj = j;
        }
      }
      used_old[bi] = used_new[bj] = true;
      SetGeometry(*old[bi], patch[bj], true);
      ++old[bi]->age;
    }
    for (size_t j = 0; j < patch.size(); ++j) {
      if (used_new[j]) continue;
      Constraint c = c0;
      c.R.setZero();
      c.U.setZero();
      c.age = 0;
      c.cohesive = c.material && c.material->cohesion > 0.0;
      SetGeometry(c, patch[j], true);
      added.push_back(std::move(c));
    }
    for (size_t i = 0; i < old.size(); ++i)
      if (!used_old[i]) cons.erase(old[i]);
  }
  for (Constraint& c : added) d.AddConstraint(std::move(c));

  // Node-to-face contacts (CONTACT_METHOD 'NODE_TO_FACE'): the pairs of a fresh search
  // update, delete and create them (all are erased with 'OVERLAP').
  if (!d.node_to_face().enabled()) {
    cons.remove_if([](const Constraint& c) { return contact::IsNodeToFace(c); });
    return;
  }
  std::vector<Body*> bodies;
  for (const auto& b : d.bodies())
    if (d.Active(*b)) bodies.push_back(b.get());  // solfec-mpi: owned, ghost, obstacle
  HeldContacts(cons, held_);
  const std::vector<contact::NodeFaceContact>& found = d.node_to_face().Search(
      bodies, d.step(),
      {&d.contact_settings().excluded_bodies, &d.contact_settings().excluded_surfaces}, held_);
  ApplyNodeToFaceContacts(
      found, cons,
      [&d](Constraint c) {
        if (d.Home(c)) d.AddConstraint(std::move(c));
      },
      d.surface_materials());
}

void ContactManager::Detect(Domain& d) {
  // Boxes of every piece of every body that has a pair node-to-face contact does not take
  // (all of them with OVERLAP).
  std::vector<Body*> bodies;
  for (const auto& b : d.bodies())
    if (d.Active(*b)) bodies.push_back(b.get());  // solfec-mpi: neither owned nor ghost here
  const std::vector<bool> overlap = d.node_to_face().OverlapBodies(bodies);
  std::vector<contact::BoxItem> items;
  std::vector<bool> self;
  for (int bi = 0; bi < static_cast<int>(bodies.size()); ++bi) {
    const Body* b = bodies[bi];
    self.push_back(b->selfcontact);
    if (!overlap[bi]) continue;
    const Shape& s = b->shape();
    for (int p = 0, n = NumPieces(s); p < n; ++p) {
      contact::BoxItem item;
      item.box = PieceBounds(s, p);
      item.box.Inflate(d.contact_settings().geometric_epsilon);
      item.body = bi;
      item.piece = p;
      items.push_back(item);
    }
  }

  std::set<PairKey> existing;
  for (const Constraint& c : d.constraints())
    if (c.kind == ConstraintKind::kContact && !contact::IsNodeToFace(c))
      existing.insert(KeyOf(c.body1->id(), contact::Pieces(c).piece1, c.body2->id(),
                            contact::Pieces(c).piece2));

  // Narrow phase on the candidate pairs that pass the exclusion filters.
  std::vector<Constraint> fresh;
  for (const auto& pair : contact::OverlappingPairs(items, self)) {
    const contact::BoxItem* ia = &items[pair.a];
    const contact::BoxItem* ib = &items[pair.b];
    Body* A = bodies[ia->body];
    Body* B = bodies[ib->body];
    if (A->kind() == BodyKind::kObstacle && B->kind() == BodyKind::kObstacle) continue;
    if (d.node_to_face().Handles(*A, *B)) continue;  // node-to-face pair (Update)
    // Obstacles are masters: the reaction acts on the moving body (body2).
    if (B->kind() == BodyKind::kObstacle ||
        (A->kind() != BodyKind::kObstacle && A->id() > B->id())) {
      std::swap(ia, ib);
      std::swap(A, B);
    }
    // Self-contact (BODY.selfcontact 'ON'): pieces touching in the reference stay apart.
    if (A == B && A->SelfContactExcluded(ia->piece, ib->piece)) continue;
    if (d.contact_settings().excluded_bodies.count(std::minmax(A->id(), B->id()))) continue;
    if (d.distributed()) {  // solfec-mpi: only the pair's home rank creates its contacts
      Constraint probe;
      probe.body1 = A;
      probe.body2 = B;
      if (!d.Home(probe)) continue;
    }
    if (existing.count(KeyOf(A->id(), ia->piece, B->id(), ib->piece))) continue;
    if (!d.contact_settings().excluded_objects.empty()) {
      // (std::minmax returns references: build the ordered pair of values explicitly)
      const std::pair<Id, int> pa{A->id(), ia->piece}, pb{B->id(), ib->piece};
      if (d.contact_settings().excluded_objects.count(pa < pb ? std::make_pair(pa, pb)
                                                              : std::make_pair(pb, pa)))
        continue;
    }
    const auto patch = DetectPair(A->shape(), ia->piece, B->shape(), ib->piece,
                                  d.contact_settings().geometric_epsilon,
                                  d.contact_settings().contact_points, MeshPair(*A, *B));
    if (patch.empty()) continue;
    if (d.contact_settings().excluded_surfaces.count(std::minmax(patch[0].surf1, patch[0].surf2)))
      continue;
    for (const ContactGeometry& g : patch) {
      Constraint c;
      c.kind = ConstraintKind::kContact;
      c.body1 = A;
      c.body2 = B;
      c.source = contact::PiecePair{ia->piece, ib->piece};
      c.surf1 = g.surf1;
      c.surf2 = g.surf2;
      SetGeometry(c, g, false);
      c.material = d.surface_materials().Find(g.surf1, g.surf2);
      c.cohesive = c.material->cohesion > 0.0;
      fresh.push_back(std::move(c));
    }
  }
  if (fresh.empty()) return;

  // Sparsification over old and new contacts (manual Algorithm 6.1).
  std::map<const Body*, int> index;
  for (size_t i = 0; i < bodies.size(); ++i) index[bodies[i]] = static_cast<int>(i);
  std::vector<contact::SparsifyItem> items_s;
  for (const Constraint& c : d.constraints())
    if (c.kind == ConstraintKind::kContact && !contact::IsNodeToFace(c))
      items_s.push_back({index[c.body1], index[c.body2], contact::Pieces(c).piece1,
                         contact::Pieces(c).piece2, c.point, c.area, false});
  const size_t first_new = items_s.size();
  for (const Constraint& c : fresh)
    items_s.push_back({index[c.body1], index[c.body2], contact::Pieces(c).piece1,
                       contact::Pieces(c).piece2, c.point, c.area, true});
  const std::vector<bool> keep =
      contact::Sparsify(items_s, d.contact_settings().sparsify, PiecesAdjacent, &bodies);
  for (size_t i = 0; i < fresh.size(); ++i)
    if (keep[first_new + i]) d.AddConstraint(std::move(fresh[i]));
}

}  // namespace solfec::domain
