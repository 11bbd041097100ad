// PARTITION: FE body -> glued mesh parts (state, options, loads, constraints carried over).
#include "domain/partition.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <typeinfo>
#include <utility>

#include "base/errors.h"
#include "body/body_factory.h"
#include "body/fem/fe_body.h"
#include "body/fem/fe_part.h"
#include "body/fem/mesh_partition.h"

namespace solfec::domain {

namespace {

using body::FeBody;
using contact::Constraint;
using contact::ConstraintKind;

// The parent as a plain mesh FeBody (forms TL and BC), else InputError naming PARTITION.
FeBody& CheckedParent(Domain& d, Id id) {
  body::Body* b = d.FindBody(id);
  if (!b)
    throw InputError("PARTITION: body " + std::to_string(id) +
                     " is not in the domain "
                     "(argument 'body')");
  if (b->kind() != body::BodyKind::kFiniteElement)
    throw InputError(std::string("PARTITION: the body is ") + body::KindName(b->kind()) +
                     ", not FINITE_ELEMENT (argument 'body'); only finite element meshes "
                     "can be partitioned");
  if (typeid(*b) != typeid(FeBody))
    throw InputError(
        "PARTITION: FINITE_ELEMENT forms 'BC-RO', 'BC-MODAL' and 'FFR' cannot be "
        "partitioned (argument 'body'); use form 'TL' or 'BC'");
  auto& fe = static_cast<FeBody&>(*b);
  if (fe.embedded())
    throw InputError(
        "PARTITION: the body has a background (rough) mesh (argument 'body'); "
        "only bodies whose shape is their MESH can be partitioned");
  for (const body::PointLoad& l : fe.loads())
    if (l.callback)
      throw InputError(
          "PARTITION: the body has a FORCE callback, whose generalized force "
          "cannot be split (argument 'body'); apply it to the parts after "
          "PARTITION");
  return fe;
}

// A part built from mesh part `mp` with the parent's material, form, options and state.
std::unique_ptr<FeBody> MakePart(const FeBody& parent, const body::fem::MeshPart& mp, int k) {
  geometry::Shape shape;
  shape.meshes.push_back(mp.mesh);
  const std::string suffix = "PART" + std::to_string(k + 1);
  const std::string label = parent.label().empty() ? suffix : parent.label() + " " + suffix;
  body::FeOptions opt;
  opt.form = parent.form();
  auto made = body::MakeBody(body::BodyKind::kFiniteElement, std::move(shape), parent.material(),
                             label, std::nullopt, opt);
  std::unique_ptr<FeBody> part(static_cast<FeBody*>(made.release()));
  body::fem::InheritPartState(parent, mp.mesh, mp.elements, mp.nodes, *part);
  part->scheme = parent.scheme;
  part->damping = parent.damping;
  part->selfcontact = parent.selfcontact;
  return part;
}

// Local index of a sorted list's value.
int IndexIn(const std::vector<int>& sorted, int value) {
  return static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin());
}

}  // namespace

std::vector<Id> PartitionBody(Domain& d, Id id, int parts) {
  FeBody& parent = CheckedParent(d, id);
  const geometry::Mesh& mesh = parent.mesh();
  const auto split =
      body::fem::SplitMesh(mesh, body::fem::PartitionElements(mesh, parts, "PARTITION"), parts);

  std::vector<std::unique_ptr<FeBody>> made;
  double mesh_mass = 0.0;
  for (int k = 0; k < parts; ++k) {
    made.push_back(MakePart(parent, split.parts[k], k));
    mesh_mass += made.back()->mass();
  }
  const double ratio = parent.mass() / mesh_mass;  // != 1 after BODY_CHARS
  if (std::abs(ratio - 1.0) > 1e-12)
    for (auto& p : made)
      p->SetCharacteristics(ratio * p->mass(), p->volume(), p->center(), ratio * p->tensor());
  // Point loads and pressures.
  auto part_at = [&](const Vec3& X) {
    int e = 0;
    Vec3 xi;
    parent.LocateReferential(X, e, xi);
    return split.element_part[e];
  };
  for (const body::PointLoad& l : parent.loads()) made[part_at(l.point)]->loads().push_back(l);
  for (const auto& [surfid, value, follower] : parent.pressure_loads())
    for (auto& p : made)
      for (const auto& f : p->mesh().BoundaryFaces())
        if (f.surfid == surfid) {
          p->AddPressure(surfid, value, follower);
          break;
        }
  made.front()->external_work = parent.external_work;  // domain totals unchanged
  made.front()->contact_work = parent.contact_work;
  made.front()->friction_work = parent.friction_work;

  // Into the domain (ascending ids in part order); constraints follow the parent's points.
  std::vector<body::Body*> bodies;
  std::vector<Id> ids;
  for (auto& p : made) {
    bodies.push_back(&d.AddBody(std::move(p)));
    ids.push_back(bodies.back()->id());
  }
  for (Constraint& c : d.mutable_constraints()) {
    if (c.kind == ConstraintKind::kContact) continue;  // dropped with the parent
    if (c.body1 == &parent) c.body1 = bodies[part_at(c.X1)];
    if (c.body2 == &parent) c.body2 = bodies[part_at(c.X2)];
  }
  std::set<std::pair<Id, Id>> excluded;
  for (const auto& [a, b] : d.contact_settings().excluded_bodies) {
    if (a != id && b != id) {
      excluded.insert({a, b});
      continue;
    }
    const Id other = a == id ? b : a;
    for (Id p : ids) excluded.insert({std::min(p, other), std::max(p, other)});
  }
  decltype(d.contact_settings().excluded_objects) objects;
  auto piece = [&](const std::pair<Id, int>& o) {
    if (o.first != id || o.second < 0) return o;
    const int k = split.element_part[o.second];
    return std::make_pair(ids[k], IndexIn(split.parts[k].elements, o.second));
  };
  for (const auto& [a, b] : d.contact_settings().excluded_objects)
    objects.insert({piece(a), piece(b)});
  d.contact_settings().excluded_objects = std::move(objects);

  // Glue, and no contact between the parts (with selfcontact: between parts sharing nodes).
  std::set<std::pair<int, int>> neighbours;  // parts sharing a node (all pairs of a chain)
  for (size_t i = 0; i < split.glue.size();) {
    size_t j = i;
    std::vector<int> chain{split.glue[i].part1};
    for (; j < split.glue.size() && split.glue[j].parent_node == split.glue[i].parent_node; ++j)
      chain.push_back(split.glue[j].part2);
    for (size_t a = 0; a < chain.size(); ++a)
      for (size_t b = a + 1; b < chain.size(); ++b) neighbours.insert({chain[a], chain[b]});
    i = j;
  }
  for (const auto& g : split.glue) {
    Constraint c;
    c.kind = ConstraintKind::kGlue;
    c.body1 = bodies[g.part1];
    c.body2 = bodies[g.part2];
    c.X1 = c.X2 = mesh.nodes[g.parent_node];
    c.point = c.body1->SpatialPoint(c.X1);
    c.point2 = c.body2->SpatialPoint(c.X2);
    d.AddConstraint(std::move(c));
  }
  for (int p = 0; p < parts; ++p)
    for (int q = p + 1; q < parts; ++q)
      if (!parent.selfcontact || neighbours.count({p, q})) excluded.insert({ids[p], ids[q]});
  d.contact_settings().excluded_bodies = std::move(excluded);
  d.DeleteBody(id);
  return ids;
}

}  // namespace solfec::domain
