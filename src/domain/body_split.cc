// SIMPLIFIED_CRACK and RT_SPLIT: plane cuts of shapes and meshes, parts as new bodies.
#include "domain/body_split.h"

#include <algorithm>
#include <cstdio>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <typeinfo>

#include "base/errors.h"
#include "body/body_factory.h"
#include "body/fem/fe_body.h"
#include "body/fem/fe_part.h"
#include "body/fem/point_stress.h"
#include "body/pseudo_rigid_body.h"
#include "geometry/shape.h"

namespace solfec::domain {

namespace {

using body::Body;
using body::BodyKind;
using body::FeBody;
using body::PseudoRigidBody;
using contact::Constraint;
using contact::ConstraintKind;
using geometry::Convex;
using geometry::Mesh;
using geometry::Shape;

using FaceKey = std::array<int, 4>;

FaceKey KeyOf(const std::vector<int>& f) {
  FaceKey k{-1, -1, -1, -1};
  std::vector<int> s(f);
  std::sort(s.begin(), s.end());
  for (size_t i = 0; i < s.size() && i < 4; ++i) k[i] = s[i];
  return k;
}

// Area vector of a polygon (Newell): |a| = area, direction by the right-hand rule.
Vec3 AreaVector(const std::vector<Vec3>& p) {
  Vec3 a = Vec3::Zero();
  for (size_t i = 0; i < p.size(); ++i) a += p[i].cross(p[(i + 1) % p.size()]);
  return 0.5 * a;
}

std::vector<Vec3> Points(const Mesh& m, const std::vector<int>& f) {
  std::vector<Vec3> p;
  for (int v : f) p.push_back(m.nodes[v]);
  return p;
}

double Diagonal(const geometry::Aabb& b) {
  const double d = (b.hi - b.lo).norm();
  return std::isfinite(d) && d > 0.0 ? d : 1.0;
}

struct FaceUse {
  int count = 0;
  std::array<int, 2> element{-1, -1};
  std::array<std::vector<int>, 2> nodes;  // outward order, parent node numbers
};

std::map<FaceKey, FaceUse> FaceTable(const Mesh& mesh) {
  std::map<FaceKey, FaceUse> table;
  for (size_t e = 0; e < mesh.elements.size(); ++e)
    for (const std::vector<int>& f : Mesh::ElementFaces(mesh.elements[e])) {
      FaceUse& u = table[KeyOf(f)];
      if (u.count < 2) {
        u.element[u.count] = static_cast<int>(e);
        u.nodes[u.count] = f;
      }
      ++u.count;
    }
  return table;
}

struct UnionFind {
  std::vector<int> p;
  explicit UnionFind(int n) : p(n) { std::iota(p.begin(), p.end(), 0); }
  int Find(int i) { return p[i] == i ? i : p[i] = Find(p[i]); }
  void Join(int a, int b) {
    a = Find(a), b = Find(b);
    if (a != b) p[std::max(a, b)] = std::min(a, b);
  }
};

// --- shape cuts (PSEUDO_RIGID bodies, embedded shapes of FE bodies) -------------------------

bool ShareFace(const Convex& a, const Convex& b, double tol) {
  int common = 0;
  for (const Vec3& x : a.vertices)
    for (const Vec3& y : b.vertices)
      if ((x - y).norm() <= tol) {
        if (++common >= 3) return true;
        break;
      }
  return false;
}

struct ShapeCut {
  std::vector<Shape> parts;  // connected groups, those mostly below the plane first
  int cut = 0;               // convexes cut through
};

ShapeCut CutShape(const Shape& ref, const Vec3& p, const Vec3& n, std::pair<int, int> sids,
                  bool topoadj) {
  ShapeCut out;
  const int nc = static_cast<int>(ref.convexes.size());
  const double tol = 1e-9 * Diagonal(ref.Bounds());
  std::vector<char> crossing(nc, 0);
  for (int i = 0; i < nc; ++i) {
    double lo = 0.0, hi = 0.0;
    for (const Vec3& x : ref.convexes[i].vertices) {
      const double s = n.dot(x - p);
      lo = std::min(lo, s), hi = std::max(hi, s);
    }
    crossing[i] = lo < -tol && hi > tol;
  }
  std::vector<std::vector<int>> adj(nc);
  for (int i = 0; i < nc; ++i)
    for (int j = i + 1; j < nc; ++j)
      if (ShareFace(ref.convexes[i], ref.convexes[j], tol)) adj[i].push_back(j), adj[j].push_back(i);
  std::vector<char> cutme(crossing);
  if (topoadj) {  // only the crossing convexes connected to the one nearest to the point
    int start = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < nc; ++i) {
      if (!crossing[i]) continue;
      const Convex& c = ref.convexes[i];
      const double dist = c.Contains(p, tol) ? -1.0 : (c.ComputeMassProperties().center - p).norm();
      if (dist < best) best = dist, start = i;
    }
    std::fill(cutme.begin(), cutme.end(), 0);
    if (start >= 0) {
      std::vector<int> stack{start};
      cutme[start] = 1;
      while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        for (int j : adj[i])
          if (crossing[j] && !cutme[j]) cutme[j] = 1, stack.push_back(j);
      }
    }
  }
  // Pieces: uncut convexes and the halves of the cut ones.
  struct Piece {
    Convex c;
    int from;
    int side;  // -1 below, +1 above, 0 uncut
  };
  std::vector<Piece> pieces;
  for (int i = 0; i < nc; ++i) {
    if (cutme[i]) {
      Shape one;
      one.convexes.push_back(ref.convexes[i]);
      auto [below, above] = geometry::Split(std::move(one), p, n, sids);
      if (!below.convexes.empty() && !above.convexes.empty()) {
        pieces.push_back({below.convexes[0], i, -1});
        pieces.push_back({above.convexes[0], i, +1});
        ++out.cut;
        continue;
      }
    }
    pieces.push_back({ref.convexes[i], i, 0});
    pieces.back().c.neighbors.clear();
  }
  const int np = static_cast<int>(pieces.size());
  UnionFind uf(np);
  std::vector<std::vector<int>> padj(np);
  for (int a = 0; a < np; ++a)
    for (int b = a + 1; b < np; ++b) {
      const Piece &A = pieces[a], &B = pieces[b];
      if (A.from == B.from) continue;
      if (std::find(adj[A.from].begin(), adj[A.from].end(), B.from) == adj[A.from].end()) continue;
      if (A.side != 0 && B.side != 0 && A.side != B.side) continue;
      if ((A.side == 0 && B.side == 0) || ShareFace(A.c, B.c, tol)) {
        uf.Join(a, b);
        padj[a].push_back(b), padj[b].push_back(a);
      }
    }
  auto side_of = [&](const Vec3& x) { return n.dot(x - p) < 0.0 ? -1 : 1; };
  std::map<int, int> group;  // root -> part
  std::vector<int> part_of(np);
  std::vector<double> offset;
  std::vector<double> volume;
  if (np > 0) {
    for (int a = 0; a < np; ++a) {
      const int r = uf.Find(a);
      if (!group.count(r)) {
        group[r] = static_cast<int>(out.parts.size());
        out.parts.emplace_back();
        offset.push_back(0.0), volume.push_back(0.0);
      }
      part_of[a] = group[r];
    }
  } else if (!ref.spheres.empty() || !ref.ellipsoids.empty()) {
    out.parts.resize(2);  // spheres alone: by side
    offset = {-1.0, 1.0}, volume = {1.0, 1.0};
  }
  std::vector<std::vector<int>> local(np);
  std::vector<int> index(np);
  for (int a = 0; a < np; ++a) {
    Shape& s = out.parts[part_of[a]];
    index[a] = static_cast<int>(s.convexes.size());
    s.convexes.push_back(pieces[a].c);
    s.convexes.back().neighbors.clear();
    const auto mp = pieces[a].c.ComputeMassProperties();
    offset[part_of[a]] += mp.volume * n.dot(mp.center - p);
    volume[part_of[a]] += mp.volume;
  }
  for (int a = 0; a < np; ++a)
    for (int b : padj[a]) out.parts[part_of[a]].convexes[index[a]].neighbors.push_back(index[b]);
  // Spheres and ellipsoids: to the group of the nearest piece on their side.
  auto place = [&](const Vec3& c) {
    if (np == 0) return side_of(c) < 0 ? 0 : 1;
    int best = 0;
    double bd = std::numeric_limits<double>::infinity();
    for (int a = 0; a < np; ++a) {
      if (pieces[a].side != 0 && pieces[a].side != side_of(c)) continue;
      const double dd = (pieces[a].c.ComputeMassProperties().center - c).norm();
      if (dd < bd) bd = dd, best = a;
    }
    return part_of[best];
  };
  for (const auto& s : ref.spheres) out.parts[place(s.center)].spheres.push_back(s);
  for (const auto& e : ref.ellipsoids) out.parts[place(e.center)].ellipsoids.push_back(e);
  // Below first (by the volume-weighted mean offset).
  std::vector<int> order(out.parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return offset[a] / std::max(volume[a], 1e-300) < offset[b] / std::max(volume[b], 1e-300);
  });
  std::vector<Shape> sorted;
  for (int k : order)
    if (!out.parts[k].empty()) sorted.push_back(std::move(out.parts[k]));
  out.parts = std::move(sorted);
  return out;
}

// --- parts as bodies --------------------------------------------------------------------------

std::unique_ptr<Body> MakeFePart(const FeBody& parent, const SplitMeshPart& mp,
                                 std::optional<Shape> embedded, const std::string& label) {
  Shape shape;
  std::optional<Mesh> background;
  if (embedded) {
    shape = std::move(*embedded);
    background = mp.mesh;
  } else {
    shape.meshes.push_back(mp.mesh);
  }
  body::FeOptions opt;
  opt.form = parent.form();
  auto made = body::MakeBody(BodyKind::kFiniteElement, std::move(shape), parent.material(), label,
                             std::move(background), opt);
  auto* part = static_cast<FeBody*>(made.get());
  body::fem::InheritPartState(parent, mp.mesh, mp.elements, mp.nodes, *part);
  return made;
}

std::unique_ptr<Body> MakePrbPart(const PseudoRigidBody& parent, Shape shape,
                                  const std::string& label) {
  auto made = body::MakeBody(BodyKind::kPseudoRigid, std::move(shape), parent.material(), label);
  auto* part = static_cast<PseudoRigidBody*>(made.get());
  // The same affine motion x = F (X - X0) + x0: the part's centre X0' moves to F (X0' - X0) + x0
  // and has the velocity dF/dt (X0' - X0) + v (linear and angular momentum kept).
  const Vec3 dX = part->center() - parent.center();
  part->set_deformation(parent.deformation());
  part->set_position(parent.position() + parent.deformation() * dX);
  part->set_deformation_rate(parent.deformation_rate());
  part->set_linear_velocity(parent.linear_velocity() + parent.deformation_rate() * dX);
  part->UpdateShape();
  return made;
}

// Adds the parts in order, moves the parent's loads, pressures and user constraints to the
// part holding their points (part_at), deletes the parent; returns the ids.
std::vector<Id> Install(Domain& d, Body& parent, std::vector<std::unique_ptr<Body>> made,
                        const std::function<int(const Vec3&)>& part_at) {
  const Id id = parent.id();
  for (auto& b : made) {
    b->scheme = parent.scheme;
    b->damping = parent.damping;
    b->selfcontact = parent.selfcontact;
  }
  for (const body::PointLoad& l : parent.loads()) made[part_at(l.point)]->loads().push_back(l);
  if (const FeBody* fe = parent.AsFeBody())
    for (const auto& pl : fe->pressure_loads())
      for (auto& b : made)
        if (FeBody* f = b->AsFeBody())
          for (const auto& face : f->mesh().BoundaryFaces())
            if (face.surfid == pl.surfid) {
              f->AddPressure(pl.surfid, pl.value, pl.follower);
              break;
            }
  made.front()->external_work = parent.external_work;  // domain totals unchanged
  made.front()->contact_work = parent.contact_work;
  made.front()->friction_work = parent.friction_work;
  std::vector<Body*> bodies;
  std::vector<Id> ids;
  for (auto& b : made) {
    bodies.push_back(&d.AddBody(std::move(b)));
    ids.push_back(bodies.back()->id());
  }
  for (Constraint& c : d.mutable_constraints()) {
    if (c.kind == ConstraintKind::kContact) continue;  // dropped with the parent
    if (c.body1 == &parent) c.body1 = bodies[part_at(c.X1)];
    if (c.body2 == &parent) c.body2 = bodies[part_at(c.X2)];
  }
  d.DeleteBody(id);
  return ids;
}

std::string PartLabel(const std::string& parent, int k) {
  return parent.empty() ? std::string() : parent + "/" + std::to_string(k + 1);
}

const FeBody* PlainFe(const Body& b) {
  const FeBody* fe = b.AsFeBody();
  return fe && typeid(*fe) == typeid(FeBody) ? fe : nullptr;
}

int PartOfElement(const std::vector<SplitMeshPart>& parts, int e) {
  for (size_t k = 0; k < parts.size(); ++k)
    if (std::binary_search(parts[k].elements.begin(), parts[k].elements.end(), e))
      return static_cast<int>(k);
  return 0;
}

}  // namespace

// --- meshes -----------------------------------------------------------------------------------

std::vector<SplitMeshPart> SplitMeshAtFaces(const Mesh& mesh,
                                            const std::vector<std::vector<int>>& faces, int sid1,
                                            int sid2, int* matched) {
  const int ne = static_cast<int>(mesh.elements.size());
  const int nn = static_cast<int>(mesh.nodes.size());
  const auto table = FaceTable(mesh);
  std::map<FaceKey, Vec3> cut;  // the listed faces between two elements, with their normals
  for (const std::vector<int>& f : faces) {
    if (f.size() < 3 || f.size() > 4) continue;
    if (std::any_of(f.begin(), f.end(), [nn](int v) { return v < 0 || v >= nn; })) continue;
    const FaceKey k = KeyOf(f);
    const auto it = table.find(k);
    if (it != table.end() && it->second.count == 2 && !cut.count(k))
      cut[k] = AreaVector(Points(mesh, f));
  }
  if (matched) *matched = static_cast<int>(cut.size());

  // Each node's elements, linked through the faces holding the node that are not cut.
  std::vector<std::vector<int>> star(nn);
  for (int e = 0; e < ne; ++e)
    for (int a = 0; a < mesh.elements[e].num_nodes; ++a) star[mesh.elements[e].nodes[a]].push_back(e);
  std::vector<std::vector<std::pair<int, int>>> links(nn);
  for (const auto& [k, u] : table)
    if (u.count == 2 && !cut.count(k))
      for (int v : u.nodes[0]) links[v].push_back({u.element[0], u.element[1]});
  std::vector<geometry::MeshElement> els = mesh.elements;
  std::vector<int> origin(nn);
  std::iota(origin.begin(), origin.end(), 0);
  std::vector<Vec3> nodes = mesh.nodes;
  for (int v = 0; v < nn; ++v) {
    const auto& s = star[v];
    if (s.size() < 2) continue;
    UnionFind uf(static_cast<int>(s.size()));
    auto at = [&](int e) { return static_cast<int>(std::find(s.begin(), s.end(), e) - s.begin()); };
    for (const auto& [a, b] : links[v]) uf.Join(at(a), at(b));
    std::map<int, int> copy;  // root -> node
    copy[uf.Find(0)] = v;
    for (size_t i = 0; i < s.size(); ++i) {
      const int r = uf.Find(static_cast<int>(i));
      if (!copy.count(r)) {
        copy[r] = static_cast<int>(nodes.size());
        nodes.push_back(mesh.nodes[v]);
        origin.push_back(v);
      }
      if (copy[r] == v) continue;
      auto& el = els[s[i]];
      for (int a = 0; a < el.num_nodes; ++a)
        if (el.nodes[a] == v) el.nodes[a] = copy[r];
    }
  }
  // Parts: elements connected through shared (new) nodes.
  const int nn2 = static_cast<int>(nodes.size());
  UnionFind parts_uf(ne);
  std::vector<int> first(nn2, -1);
  for (int e = 0; e < ne; ++e)
    for (int a = 0; a < els[e].num_nodes; ++a) {
      int& f = first[els[e].nodes[a]];
      if (f < 0) f = e;
      else parts_uf.Join(f, e);
    }
  std::map<int, int> part_index;
  std::vector<SplitMeshPart> out;
  std::vector<int> element_part(ne);
  for (int e = 0; e < ne; ++e) {
    const int r = parts_uf.Find(e);
    if (!part_index.count(r)) part_index[r] = static_cast<int>(out.size()), out.emplace_back();
    element_part[e] = part_index[r];
    out[element_part[e]].elements.push_back(e);
  }
  std::vector<int> local(nn2, -1);
  for (SplitMeshPart& p : out) {
    p.mesh.default_surfid = mesh.default_surfid;
    for (int e : p.elements) {
      geometry::MeshElement el = els[e];
      for (int a = 0; a < el.num_nodes; ++a) {
        int& l = local[el.nodes[a]];
        if (l < 0) {
          l = static_cast<int>(p.nodes.size());
          p.nodes.push_back(origin[el.nodes[a]]);
          p.split_nodes.push_back(el.nodes[a]);
          p.mesh.nodes.push_back(nodes[el.nodes[a]]);
        }
        el.nodes[a] = l;
      }
      p.mesh.elements.push_back(el);
    }
  }
  // A parent face of element e in the part's numbering.
  auto mapped = [&](int e, const std::vector<int>& f) {
    std::vector<int> g;
    const auto& pe = mesh.elements[e];
    for (int v : f)
      for (int a = 0; a < pe.num_nodes; ++a)
        if (pe.nodes[a] == v) {
          g.push_back(local[els[e].nodes[a]]);
          break;
        }
    return g;
  };
  for (const geometry::MeshFace& f : mesh.surface_faces) {
    const auto it = table.find(KeyOf(f.nodes));
    if (it == table.end() || it->second.count != 1) continue;
    const int e = it->second.element[0];
    out[element_part[e]].mesh.surface_faces.push_back({mapped(e, f.nodes), f.surfid});
  }
  for (const auto& [k, n] : cut) {
    const FaceUse& u = table.at(k);
    const std::vector<int> g0 = mapped(u.element[0], u.nodes[0]);
    const std::vector<int> g1 = mapped(u.element[1], u.nodes[1]);
    if (element_part[u.element[0]] == element_part[u.element[1]] && KeyOf(g0) == KeyOf(g1))
      continue;  // not opened (all its nodes on the front of a slit)
    for (int s = 0; s < 2; ++s) {
      const int e = u.element[s];
      const Vec3 a = AreaVector(Points(mesh, u.nodes[s]));
      out[element_part[e]].mesh.surface_faces.push_back(
          {s == 0 ? g0 : g1, a.dot(n) > 0.0 ? sid1 : sid2});
    }
  }
  return out;
}

std::vector<std::vector<int>> MeshFacesOnPlane(const Mesh& mesh, const Vec3& point,
                                               const Vec3& normal, bool topoadj, int* crossing) {
  const Vec3 n = normal.normalized();
  const double tol = 1e-8 * Diagonal(mesh.Bounds());
  std::vector<double> s(mesh.nodes.size());
  for (size_t i = 0; i < s.size(); ++i) s[i] = n.dot(mesh.nodes[i] - point);
  int crosses = 0;
  for (const auto& el : mesh.elements) {
    double lo = 0.0, hi = 0.0;
    for (int a = 0; a < el.num_nodes; ++a) lo = std::min(lo, s[el.nodes[a]]), hi = std::max(hi, s[el.nodes[a]]);
    if (lo < -tol && hi > tol) ++crosses;
  }
  if (crossing) *crossing = crosses;
  std::vector<std::vector<int>> faces;
  for (const auto& [k, u] : FaceTable(mesh)) {
    if (u.count != 2) continue;
    if (std::any_of(u.nodes[0].begin(), u.nodes[0].end(),
                    [&](int v) { return std::abs(s[v]) > tol; }))
      continue;
    std::vector<int> f = u.nodes[0];
    if (AreaVector(Points(mesh, f)).dot(n) < 0.0) std::reverse(f.begin(), f.end());
    faces.push_back(std::move(f));
  }
  if (!topoadj || faces.empty()) return faces;
  // Faces connected by shared edges to the face nearest to the point.
  const int nf = static_cast<int>(faces.size());
  std::map<std::pair<int, int>, std::vector<int>> edges;
  int start = 0;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < nf; ++i) {
    const auto& f = faces[i];
    Vec3 c = Vec3::Zero();
    for (size_t a = 0; a < f.size(); ++a) {
      const int x = f[a], y = f[(a + 1) % f.size()];
      edges[{std::min(x, y), std::max(x, y)}].push_back(i);
      c += mesh.nodes[x];
    }
    c /= static_cast<double>(f.size());
    if ((c - point).norm() < best) best = (c - point).norm(), start = i;
  }
  std::vector<char> seen(nf, 0);
  std::vector<int> stack{start};
  seen[start] = 1;
  while (!stack.empty()) {
    const auto& f = faces[stack.back()];
    stack.pop_back();
    for (size_t a = 0; a < f.size(); ++a) {
      const int x = f[a], y = f[(a + 1) % f.size()];
      for (int j : edges[{std::min(x, y), std::max(x, y)}])
        if (!seen[j]) seen[j] = 1, stack.push_back(j);
    }
  }
  std::vector<std::vector<int>> kept;
  for (int i = 0; i < nf; ++i)
    if (seen[i]) kept.push_back(faces[i]);
  return kept;
}

// --- cracks -----------------------------------------------------------------------------------

namespace {

// A FINITE_ELEMENT crack needs re-meshing when the plane cuts through elements and does
// not run along faces (or cuts through elements at all, without topoadj).
bool RemeshCut(const FeBody&, const Crack& c, bool no_faces, int crossing) {
  return crossing > 0 && (no_faces || !c.topoadj);
}

// Why crack c cannot split body b ("" when it can); sets the samples.
std::string CrackProblem(const Body& b, Crack& c) {
  c.samples.clear();
  if (b.kind() == BodyKind::kPseudoRigid) {
    const ShapeCut cut = CutShape(b.ref_shape(), c.point, c.normal, c.surfids, c.topoadj);
    if (cut.cut == 0 && cut.parts.size() < 2) return "the crack plane does not intersect the body shape";
    c.samples.push_back(c.point);
    return "";
  }
  if (b.kind() != BodyKind::kFiniteElement)
    return std::string("body is ") + body::KindName(b.kind()) +
           "; only PSEUDO_RIGID and FINITE_ELEMENT bodies can crack";
  const FeBody* fe = PlainFe(b);
  if (!fe) return "FINITE_ELEMENT forms 'BC-RO', 'BC-MODAL' and 'FFR' cannot crack; use 'TL' or 'BC'";
  int crossing = 0;
  const auto faces = MeshFacesOnPlane(fe->mesh(), c.point, c.normal, c.topoadj, &crossing);
  if (RemeshCut(*fe, c, faces.empty(), crossing)) {
    if (fe->embedded())
      return "the crack plane cuts through " + std::to_string(crossing) +
             " elements of the body's background mesh (a body with embedded convexes is split "
             "along inter-element faces of its mesh only)";
    if (!c.remesh)
      return "the crack plane cuts through " + std::to_string(crossing) +
             " elements of the mesh and no mesher is available to re-mesh the cut";
    const MeshSection sec = CutMeshByPlane(fe->mesh(), c.point, c.normal);
    std::vector<int> tris(sec.section.size());
    std::iota(tris.begin(), tris.end(), 0);
    if (c.topoadj) tris = SectionPiece(sec, c.point);  // the piece next to the point
    // Solfec-1.0 samples the centroids of the triangles of the referential cut.
    for (int k : tris) {
      const auto& t = sec.section[k];
      c.samples.push_back((sec.points[t[0]] + sec.points[t[1]] + sec.points[t[2]]) / 3.0);
    }
  }
  if (c.samples.empty() && faces.empty())
    return "the crack plane does not intersect the body shape";
  // Solfec-1.0 samples the centroids of the triangles of the referential cut: here those of
  // each face's fan of triangles (one for a triangle, two for a quadrilateral).
  const auto& X = fe->mesh().nodes;
  if (c.samples.empty())
    for (const auto& f : faces)
      for (size_t a = 1; a + 1 < f.size(); ++a)
        c.samples.push_back((X[f[0]] + X[f[a]] + X[f[a + 1]]) / 3.0);
  const double delta = 1e-6 * Diagonal(fe->mesh().Bounds());
  c.sample_elements.clear();
  for (const Vec3& x : c.samples)
    for (double sign : {-1.0, 1.0}) {  // the elements on both sides of the face
      int e = 0;
      Vec3 xi;
      fe->LocateReferential(x + sign * delta * c.normal, e, xi);
      c.sample_elements.push_back({e, xi});
    }
  return "";
}

}  // namespace

void PrepareCrack(const Body& b, Crack& crack, const std::string& routine) {
  const std::string why = CrackProblem(b, crack);
  if (!why.empty())
    throw InputError(routine + ": " + why + " (body " + std::to_string(b.id()) +
                     ", arguments 'body', 'point', 'normal')");
}

bool CrackApplies(const Body& b, Crack& crack) { return CrackProblem(b, crack).empty(); }

double CrackTension(const Body& b, const Crack& c) {
  auto tension = [&](const material::BulkMaterial& m, const Mat3& F) {
    const auto s = body::MaterialStress(m, F);  // sx, sy, sz, sxy, sxz, syz
    Mat3 sigma;
    sigma << s[0], s[3], s[4], s[3], s[1], s[5], s[4], s[5], s[2];
    return c.normal.dot(sigma * c.normal);
  };
  if (b.kind() == BodyKind::kPseudoRigid) {
    const auto& prb = static_cast<const PseudoRigidBody&>(b);
    return tension(prb.material(), prb.deformation());
  }
  const FeBody* fe = PlainFe(b);
  if (!fe) return -std::numeric_limits<double>::infinity();
  double out = -std::numeric_limits<double>::infinity();
  for (size_t k = 0; k + 1 < c.sample_elements.size(); k += 2) {  // mean of the two sides
    double sum = 0.0;
    for (size_t j = k; j < k + 2; ++j) {
      const auto& [e, xi] = c.sample_elements[j];
      sum += tension(fe->element_material(e), fe->DeformationGradient(e, xi));
    }
    out = std::max(out, 0.5 * sum);
  }
  return out;
}

namespace {

// The parts of a FINITE_ELEMENT MESH body cut through its elements (RemeshSplit): new
// tetrahedral meshes whose elements keep the volume ids (and materials) of the parent's
// elements holding their centroids, nodes moving as the parent's motion at their referential
// points.
std::vector<Id> SplitRemeshed(Domain& d, Body& parent, const FeBody& fe, const Crack& c,
                              const Tetrahedralizer& tetgen) {
  auto volid_at = [&fe](const Vec3& X) {
    int e = 0;
    Vec3 xi;
    fe.LocateReferential(X, e, xi);
    return fe.mesh().elements[e].volid;
  };
  int nbelow = 0;
  std::vector<Mesh> meshes;
  if (c.topoadj && !SectionConnected(CutMeshByPlane(fe.mesh(), c.point, c.normal))) {
    // the section piece next to the point inside the re-meshed whole: a slit, or parts
    meshes = RemeshSlit(fe.mesh(), c.point, c.normal, c.surfids, tetgen, volid_at,
                        "SIMPLIFIED_CRACK");
    auto side = [&](const Mesh& m) { return c.normal.dot(m.ComputeMassProperties().center - c.point); };
    std::stable_sort(meshes.begin(), meshes.end(),
                     [&](const Mesh& a, const Mesh& b) { return side(a) < side(b); });
    nbelow = 0;
    for (const Mesh& m : meshes) nbelow += side(m) < 0.0;
  } else {
    meshes = RemeshSplit(fe.mesh(), c.point, c.normal, c.surfids, tetgen, volid_at,
                         "SIMPLIFIED_CRACK", &nbelow);
  }
  std::map<int, material::BulkMaterial> volid_material;
  for (int e = 0; e < fe.num_elements(); ++e)
    volid_material.insert({fe.mesh().elements[e].volid, fe.element_material(e)});
  const int np = static_cast<int>(meshes.size());
  std::vector<std::unique_ptr<Body>> made;
  std::vector<geometry::Aabb> boxes;
  for (int k = 0; k < np; ++k) {
    boxes.push_back(meshes[k].Bounds());
    Shape shape;
    shape.meshes.push_back(meshes[k]);
    body::FeOptions opt;
    opt.form = fe.form();
    made.push_back(body::MakeBody(BodyKind::kFiniteElement, std::move(shape), fe.material(),
                                  np > 1 ? PartLabel(fe.label(), k) : fe.label(), std::nullopt,
                                  opt));
    auto* part = static_cast<FeBody*>(made.back().get());
    std::set<int> applied;
    for (const auto& el : meshes[k].elements) {
      const auto it = volid_material.find(el.volid);
      if (it != volid_material.end() && !body::fem::SameMaterial(it->second, fe.material()) &&
          applied.insert(el.volid).second)
        part->ApplyBulkMaterial(el.volid, it->second);
    }
    const auto& X = part->mesh().nodes;
    for (size_t a = 0; a < X.size(); ++a) {
      part->mutable_q().segment<3>(3 * a) = fe.SpatialPoint(X[a]);
      part->mutable_u().segment<3>(3 * a) = fe.PointVelocity(X[a]);
    }
    part->UpdateShape();
    part->set_corotation(fe.corotation());
  }
  // A referential point goes to the part whose elements hold it, those on its side of the
  // plane first (a point on the cut); the part of the nearest box otherwise.
  std::vector<const Mesh*> mesh_of;
  for (auto& b : made) mesh_of.push_back(&static_cast<FeBody*>(b.get())->mesh());
  auto part_at = [c, boxes, nbelow, mesh_of](const Vec3& X) {
    const bool below = c.normal.dot(X - c.point) < 0.0;
    const int np = static_cast<int>(boxes.size());
    std::vector<int> order;
    for (int k = 0; k < np; ++k)
      if ((k < nbelow) == below) order.push_back(k);
    for (int k = 0; k < np; ++k)
      if ((k < nbelow) != below) order.push_back(k);
    const double tol = 1e-9 * (boxes[0].hi - boxes[0].lo).norm();
    for (int k : order) {
      if ((X.cwiseMax(boxes[k].lo).cwiseMin(boxes[k].hi) - X).norm() > tol) continue;
      const Mesh& m = *mesh_of[k];
      for (size_t e = 0; e < m.elements.size(); ++e) {  // element box first, then the convex
        const auto& el = m.elements[e];
        Vec3 lo = m.nodes[el.nodes[0]], hi = lo;
        for (int a = 1; a < el.num_nodes; ++a)
          lo = lo.cwiseMin(m.nodes[el.nodes[a]]), hi = hi.cwiseMax(m.nodes[el.nodes[a]]);
        if ((X.cwiseMax(lo).cwiseMin(hi) - X).norm() > tol) continue;
        if (m.ElementConvex(static_cast<int>(e)).Contains(X, tol)) return k;
      }
    }
    int best = order.front();
    double bd = std::numeric_limits<double>::infinity();
    for (int k : order) {
      const double dist = (X.cwiseMax(boxes[k].lo).cwiseMin(boxes[k].hi) - X).norm();
      if (dist < bd) bd = dist, best = k;
    }
    return best;
  };
  return Install(d, parent, std::move(made), part_at);
}

}  // namespace

std::vector<Id> SplitBodyByPlane(Domain& d, Id id, const Crack& c, const Tetrahedralizer* tetgen) {
  Body* parent = d.FindBody(id);
  if (!parent) return {};
  std::vector<std::unique_ptr<Body>> made;
  std::function<int(const Vec3&)> part_at;
  if (parent->kind() == BodyKind::kPseudoRigid) {
    const auto& prb = static_cast<const PseudoRigidBody&>(*parent);
    ShapeCut cut = CutShape(prb.ref_shape(), c.point, c.normal, c.surfids, c.topoadj);
    if (cut.cut == 0 && cut.parts.size() < 2) return {};
    const int np = static_cast<int>(cut.parts.size());
    std::vector<Vec3> centers;
    for (int k = 0; k < np; ++k) {
      centers.push_back(cut.parts[k].ComputeMassProperties().center);
      made.push_back(MakePrbPart(prb, std::move(cut.parts[k]),
                                 np > 1 ? PartLabel(prb.label(), k) : prb.label()));
    }
    std::vector<const Shape*> shapes;
    for (auto& b : made) shapes.push_back(&b->ref_shape());
    part_at = [shapes, centers](const Vec3& X) {
      for (size_t k = 0; k < shapes.size(); ++k)
        for (const Convex& cv : shapes[k]->convexes)
          if (cv.Contains(X, 1e-9)) return static_cast<int>(k);
      int best = 0;
      for (size_t k = 1; k < centers.size(); ++k)
        if ((centers[k] - X).norm() < (centers[best] - X).norm()) best = static_cast<int>(k);
      return best;
    };
  } else if (const FeBody* fe = PlainFe(*parent)) {
    int crossing = 0;
    const auto faces = MeshFacesOnPlane(fe->mesh(), c.point, c.normal, c.topoadj, &crossing);
    if (RemeshCut(*fe, c, faces.empty(), crossing) && tetgen && *tetgen && !fe->embedded())
      return SplitRemeshed(d, *parent, *fe, c, *tetgen);
    if (faces.empty()) return {};
    auto parts = SplitMeshAtFaces(fe->mesh(), faces, c.surfids.first, c.surfids.second);
    // Parts below the plane first.
    auto side = [&](const SplitMeshPart& p) {
      const auto mp = p.mesh.ComputeMassProperties();
      return c.normal.dot(mp.center - c.point);
    };
    std::stable_sort(parts.begin(), parts.end(),
                     [&](const SplitMeshPart& a, const SplitMeshPart& b) { return side(a) < side(b); });
    const int np = static_cast<int>(parts.size());
    std::vector<std::optional<Shape>> pieces(np);
    if (fe->embedded()) {
      // In two or more mesh parts every convex the plane crosses is cut (a convex left
      // whole would reach into the other part's mesh); in one part (a slit) as asked.
      ShapeCut cut = CutShape(fe->ref_shape(), c.point, c.normal, c.surfids,
                              c.topoadj && parts.size() == 1);
      for (Shape& s : cut.parts) {
        // every convex to the mesh part holding its centre
        for (Convex& cv : s.convexes) {
          int e = 0;
          Vec3 xi;
          fe->LocateReferential(cv.ComputeMassProperties().center, e, xi);
          auto& dst = pieces[PartOfElement(parts, e)];
          if (!dst) dst = Shape();
          cv.neighbors.clear();
          dst->convexes.push_back(std::move(cv));
        }
        for (auto& sp : s.spheres) {
          int e = 0;
          Vec3 xi;
          fe->LocateReferential(sp.center, e, xi);
          auto& dst = pieces[PartOfElement(parts, e)];
          if (!dst) dst = Shape();
          dst->spheres.push_back(sp);
        }
      }
    }
    for (int k = 0; k < np; ++k) {
      std::sort(parts[k].elements.begin(), parts[k].elements.end());
      made.push_back(MakeFePart(*fe, parts[k], std::move(pieces[k]),
                                np > 1 ? PartLabel(fe->label(), k) : fe->label()));
    }
    part_at = [fe, parts](const Vec3& X) {
      int e = 0;
      Vec3 xi;
      fe->LocateReferential(X, e, xi);
      return PartOfElement(parts, e);
    };
  } else {
    return {};
  }
  return Install(d, *parent, std::move(made), part_at);
}

std::vector<Id> SplitBodyByFaces(Domain& d, Id id, const std::vector<std::vector<int>>& faces,
                                 int sid1, int sid2, const std::string& label1,
                                 const std::string& label2,
                                 std::vector<std::vector<int>>& node_maps) {
  Body* b = d.FindBody(id);
  if (!b) throw InputError("RT_SPLIT: body " + std::to_string(id) + " is not in the domain (argument 'body1')");
  const FeBody* fe = PlainFe(*b);
  if (!fe || fe->embedded())
    throw InputError("RT_SPLIT: 'body1' shape is not a MESH (body " + std::to_string(id) +
                     " is " + body::KindName(b->kind()) +
                     "); pass a FINITE_ELEMENT body of form 'TL' or 'BC' whose shape is a MESH");
  int matched = 0;
  auto parts = SplitMeshAtFaces(fe->mesh(), faces, sid1, sid2, &matched);
  if (matched == 0)
    throw InputError("RT_SPLIT: No splitting happened: none of the faces (argument 'surf') is "
                     "an inter-element face of the body's mesh");
  if (parts.size() > 2)
    throw InputError("RT_SPLIT: Splitting created more than two fragments (" +
                     std::to_string(parts.size()) + "; argument 'surf')");
  std::vector<std::unique_ptr<Body>> made;
  const std::string l1 = parts.size() == 1 && label1.empty() ? fe->label() : label1;
  made.push_back(MakeFePart(*fe, parts[0], std::nullopt, l1));
  if (parts.size() == 2) made.push_back(MakeFePart(*fe, parts[1], std::nullopt, label2));
  node_maps.clear();
  for (const auto& p : parts) node_maps.push_back(p.nodes);
  auto part_at = [fe, parts](const Vec3& X) {
    int e = 0;
    Vec3 xi;
    fe->LocateReferential(X, e, xi);
    return PartOfElement(parts, e);
  };
  return Install(d, *b, std::move(made), part_at);
}

void CrackSet::Remap(const Domain& d, const std::vector<Id>& gone, const std::vector<Id>& parts) {
  const std::set<Id> g(gone.begin(), gone.end());
  std::vector<std::pair<Id, Crack>> next;
  for (auto& [id, c] : cracks_) {
    if (!g.count(id)) {
      next.push_back({id, c});
      continue;
    }
    for (Id p : parts)
      if (const Body* b = d.FindBody(p)) {
        Crack copy = c;
        if (CrackApplies(*b, copy)) next.push_back({p, std::move(copy)});
      }
  }
  cracks_ = std::move(next);
}

std::vector<std::pair<Id, std::vector<Id>>> CrackSet::Check(Domain& d) {
  std::vector<std::pair<Id, std::vector<Id>>> events;
  std::vector<std::pair<Id, Crack>> next;
  std::set<Id> done;
  for (size_t i = 0; i < cracks_.size(); ++i) {
    const Id id = cracks_[i].first;
    if (done.count(id)) continue;
    Body* b = d.FindBody(id);
    if (!b) {  // deleted by the deck or EXTENTS
      done.insert(id);
      continue;
    }
    std::vector<size_t> mine;
    for (size_t j = i; j < cracks_.size(); ++j)
      if (cracks_[j].first == id) mine.push_back(j);
    done.insert(id);
    std::optional<size_t> fired;
    for (size_t j : mine)
      if (CrackTension(*b, cracks_[j].second) > cracks_[j].second.ft) {
        fired = j;
        break;
      }
    std::vector<Id> parts;
    if (fired) {
      try {
        parts = SplitBodyByPlane(d, id, cracks_[*fired].second, &tetgen_);
      } catch (const InputError& e) {  // the parts could not be made: the crack is dropped
        std::fprintf(stderr, "WARNING: SIMPLIFIED_CRACK: body %d did not split at t = %g: %s\n",
                     static_cast<int>(id), d.time(), e.what());
        for (size_t j : mine)
          if (j != *fired) next.push_back(cracks_[j]);
        continue;
      }
    }
    if (parts.empty()) {
      for (size_t j : mine) next.push_back(cracks_[j]);
      continue;
    }
    ++splits_;
    for (size_t j : mine) {
      if (j == *fired) continue;
      for (Id p : parts) {
        Crack c = cracks_[j].second;
        if (CrackApplies(*d.FindBody(p), c)) next.push_back({p, std::move(c)});
      }
    }
    events.push_back({id, parts});
  }
  cracks_ = std::move(next);
  return events;
}

}  // namespace solfec::domain
