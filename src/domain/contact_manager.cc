// Contact update, detection, material assignment and sparsification for one step.
#include "domain/contact_manager.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "base/math.h"
#include "contact/broad_phase.h"
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

int NumPieces(const Shape& s) {
  return static_cast<int>(s.convexes.size() + s.spheres.size());
}

geometry::Aabb PieceBounds(const Shape& s, int p) {
  const int nc = static_cast<int>(s.convexes.size());
  return p < nc ? s.convexes[p].Bounds() : s.spheres[p - nc].Bounds();
}

// Overlap of piece pa of shape a with piece pb of shape b (normal from a into b).
std::optional<ContactGeometry> DetectPair(const Shape& a, int pa, const Shape& b, int pb,
                                          double eps) {
  const int na = static_cast<int>(a.convexes.size());
  const int nb = static_cast<int>(b.convexes.size());
  if (pa < na && pb < nb) return contact::ConvexConvex(a.convexes[pa], b.convexes[pb], eps);
  if (pa < na) return contact::ConvexSphere(a.convexes[pa], b.spheres[pb - nb], eps);
  if (pb < nb) return contact::SphereConvex(a.spheres[pa - na], b.convexes[pb], eps);
  return contact::SphereSphere(a.spheres[pa - na], b.spheres[pb - nb], eps);
}

// Writes detected geometry into a contact, keeping the tangent base continuous so that
// warm-started tangential reactions stay meaningful.
void SetGeometry(Constraint& c, const ContactGeometry& g, bool keep_tangent) {
  c.point = g.point;
  c.gap = g.gap;
  c.area = g.area;
  const Vec3 n = g.normal.normalized();
  Vec3 t1 = keep_tangent ? Vec3(c.base.col(0) - n * n.dot(c.base.col(0))) : Vec3::Zero();
  if (t1.norm() < 1e-6) {
    c.base = BaseFromNormal(n);
  } else {
    t1.normalize();
    c.base.col(0) = t1;
    c.base.col(1) = n.cross(t1);
    c.base.col(2) = n;
  }
  c.X1 = c.body1->ReferentialPoint(g.point);
  c.X2 = c.body2->ReferentialPoint(g.point);
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
  const auto& nb = s.convexes[a].neighbors;
  return std::find(nb.begin(), nb.end(), b) != nb.end();
}

}  // namespace

void ContactManager::Update(Domain& d) {
  auto& cons = d.mutable_constraints();
  for (auto it = cons.begin(); it != cons.end();) {
    Constraint& c = *it;
    if (c.kind != ConstraintKind::kContact) {
      ++it;
      continue;
    }
    const auto g = DetectPair(c.body1->shape(), c.piece1, c.body2->shape(), c.piece2,
                              d.geometric_epsilon);
    if (!g) {
      it = cons.erase(it);
      continue;
    }
    SetGeometry(c, *g, true);
    ++c.age;
    ++it;
  }
}

void ContactManager::Detect(Domain& d) {
  // Boxes of every piece of every body.
  std::vector<Body*> bodies;
  std::vector<contact::BoxItem> items;
  std::vector<bool> self;
  for (const auto& b : d.bodies()) {
    const int bi = static_cast<int>(bodies.size());
    bodies.push_back(b.get());
    self.push_back(b->selfcontact);
    const Shape& s = b->shape();
    for (int p = 0, n = NumPieces(s); p < n; ++p) {
      contact::BoxItem item;
      item.box = PieceBounds(s, p);
      item.box.Inflate(d.geometric_epsilon);
      item.body = bi;
      item.piece = p;
      items.push_back(item);
    }
  }

  std::set<PairKey> existing;
  for (const Constraint& c : d.constraints())
    if (c.kind == ConstraintKind::kContact)
      existing.insert(KeyOf(c.body1->id(), c.piece1, c.body2->id(), c.piece2));

  // Narrow phase on the candidate pairs that pass the exclusion filters.
  std::vector<Constraint> fresh;
  for (const auto& pair : contact::OverlappingPairs(items, self)) {
    const contact::BoxItem* ia = &items[pair.a];
    const contact::BoxItem* ib = &items[pair.b];
    Body* A = bodies[ia->body];
    Body* B = bodies[ib->body];
    if (A->kind() == BodyKind::kObstacle && B->kind() == BodyKind::kObstacle) continue;
    // Obstacles are masters: the reaction acts on the moving body (body2).
    if (B->kind() == BodyKind::kObstacle || (A->kind() != BodyKind::kObstacle && A->id() > B->id())) {
      std::swap(ia, ib);
      std::swap(A, B);
    }
    if (d.excluded_bodies.count(std::minmax(A->id(), B->id()))) continue;
    if (existing.count(KeyOf(A->id(), ia->piece, B->id(), ib->piece))) continue;
    if (!d.excluded_objects.empty()) {
      auto key = std::minmax(std::make_pair(A->id(), ia->piece), std::make_pair(B->id(), ib->piece));
      if (d.excluded_objects.count(key)) continue;
    }
    const auto g = DetectPair(A->shape(), ia->piece, B->shape(), ib->piece, d.geometric_epsilon);
    if (!g) continue;
    if (d.excluded_surfaces.count(std::minmax(g->surf1, g->surf2))) continue;
    Constraint c;
    c.kind = ConstraintKind::kContact;
    c.body1 = A;
    c.body2 = B;
    c.piece1 = ia->piece;
    c.piece2 = ib->piece;
    c.surf1 = g->surf1;
    c.surf2 = g->surf2;
    SetGeometry(c, *g, false);
    c.material = d.surface_materials().Find(g->surf1, g->surf2);
    c.cohesive = c.material->cohesion > 0.0;
    fresh.push_back(std::move(c));
  }
  if (fresh.empty()) return;

  // Sparsification over old and new contacts (manual Algorithm 6.1).
  std::map<const Body*, int> index;
  for (size_t i = 0; i < bodies.size(); ++i) index[bodies[i]] = static_cast<int>(i);
  std::vector<contact::SparsifyItem> items_s;
  for (const Constraint& c : d.constraints())
    if (c.kind == ConstraintKind::kContact)
      items_s.push_back({index[c.body1], index[c.body2], c.piece1, c.piece2, c.point, c.area, false});
  const size_t first_new = items_s.size();
  for (const Constraint& c : fresh)
    items_s.push_back({index[c.body1], index[c.body2], c.piece1, c.piece2, c.point, c.area, true});
  const std::vector<bool> keep = contact::Sparsify(items_s, d.sparsify, PiecesAdjacent, &bodies);
  for (size_t i = 0; i < fresh.size(); ++i)
    if (keep[first_new + i]) d.AddConstraint(std::move(fresh[i]));
}

}  // namespace solfec::domain
