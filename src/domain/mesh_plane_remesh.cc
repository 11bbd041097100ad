// Plane split of a MESH through its elements: clipped boundary + cross-section, TetGen per side.
#include "domain/mesh_plane_remesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "base/errors.h"
#include "domain/body_split.h"

namespace solfec::domain {

namespace {

using geometry::Mesh;

std::array<int, 4> Key(const std::vector<int>& f) {
  std::array<int, 4> k{-1, -1, -1, -1};
  std::vector<int> s(f);
  std::sort(s.begin(), s.end());
  for (size_t i = 0; i < s.size() && i < 4; ++i) k[i] = s[i];
  return k;
}

// Fan triangles of a convex polygon (indices), skipping polygons of fewer than 3 points.
void Fan(const std::vector<int>& poly, std::vector<std::array<int, 3>>& out,
         std::vector<int>* ids = nullptr, int id = 0) {
  for (size_t a = 1; a + 1 < poly.size(); ++a) {
    out.push_back({poly[0], poly[a], poly[a + 1]});
    if (ids) ids->push_back(id);
  }
}

}  // namespace

MeshSection CutMeshByPlane(const Mesh& mesh, const Vec3& point, const Vec3& normal) {
  MeshSection out;
  const Vec3 n = normal.normalized();
  const geometry::Aabb box = mesh.Bounds();
  double diag = (box.hi - box.lo).norm();
  if (!std::isfinite(diag) || diag <= 0.0) diag = 1.0;
  const double tol = 1e-8 * diag;
  const int nn = static_cast<int>(mesh.nodes.size());
  out.points = mesh.nodes;
  std::vector<double> s(nn);
  std::vector<int> sign(nn);
  for (int i = 0; i < nn; ++i) {
    s[i] = n.dot(mesh.nodes[i] - point);
    sign[i] = s[i] < -tol ? -1 : s[i] > tol ? 1 : 0;
  }
  out.sign = sign;
  std::map<std::pair<int, int>, int>& cross = out.crossings;  // edge -> its crossing point
  auto crossing_point = [&](int a, int b) {
    const std::pair<int, int> k{std::min(a, b), std::max(a, b)};
    const auto it = cross.find(k);
    if (it != cross.end()) return it->second;
    const double t = s[k.first] / (s[k.first] - s[k.second]);
    out.points.push_back(mesh.nodes[k.first] + t * (mesh.nodes[k.second] - mesh.nodes[k.first]));
    return cross[k] = static_cast<int>(out.points.size()) - 1;
  };
  // Plane basis for ordering a section polygon.
  Vec3 u = n.cross(std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).normalized();
  const Vec3 v = n.cross(u);
  auto order = [&](std::vector<int>& poly) {
    Vec3 c = Vec3::Zero();
    for (int i : poly) c += out.points[i];
    c /= static_cast<double>(poly.size());
    std::vector<std::pair<double, int>> ang;
    for (int i : poly) {
      const Vec3 d = out.points[i] - c;
      ang.push_back({std::atan2(d.dot(v), d.dot(u)), i});
    }
    std::sort(ang.begin(), ang.end());
    for (size_t a = 0; a < poly.size(); ++a) poly[a] = ang[a].second;
  };
  // Element cut polygons.
  std::map<std::array<int, 4>, std::pair<int, int>> faces;  // key -> (count, element)
  for (size_t e = 0; e < mesh.elements.size(); ++e) {
    const auto& el = mesh.elements[e];
    const auto efaces = Mesh::ElementFaces(el);
    for (const auto& f : efaces) {
      auto& [count, owner] = faces[Key(f)];
      if (count++ == 0) owner = static_cast<int>(e);
    }
    bool lo = false, hi = false;
    for (int a = 0; a < el.num_nodes; ++a) lo |= sign[el.nodes[a]] < 0, hi |= sign[el.nodes[a]] > 0;
    if (!(lo && hi)) continue;
    ++out.crossing;
    std::set<int> pts;
    for (int a = 0; a < el.num_nodes; ++a)
      if (sign[el.nodes[a]] == 0) pts.insert(el.nodes[a]);
    for (const auto& f : efaces)
      for (size_t a = 0; a < f.size(); ++a) {
        const int x = f[a], y = f[(a + 1) % f.size()];
        if (sign[x] * sign[y] < 0) pts.insert(crossing_point(x, y));
      }
    std::vector<int> poly(pts.begin(), pts.end());
    if (poly.size() < 3) continue;
    order(poly);
    Fan(poly, out.section, &out.section_element, static_cast<int>(e));
  }
  // Inter-element faces on the plane.
  for (const auto& el : mesh.elements)
    for (const auto& f : Mesh::ElementFaces(el)) {
      if (std::any_of(f.begin(), f.end(), [&](int x) { return sign[x] != 0; })) continue;
      auto& rec = faces[Key(f)];
      if (rec.first != 2) continue;
      rec.first = 3;  // once
      Fan(f, out.section, &out.section_element, -1);
    }
  // Boundary faces clipped to each side.
  for (const geometry::MeshFace& f : mesh.BoundaryFaces()) {
    const int m = static_cast<int>(f.nodes.size());
    bool lo = false, hi = false;
    for (int x : f.nodes) lo |= sign[x] < 0, hi |= sign[x] > 0;
    if (!lo && !hi) {  // on the plane: to the side of its element
      const auto& el = mesh.elements[faces[Key(f.nodes)].second];
      double c = 0.0;
      for (int a = 0; a < el.num_nodes; ++a) c += s[el.nodes[a]];
      (c < 0.0 ? out.below : out.above).push_back({f.nodes[0], f.nodes[1], f.nodes[2]});
      (c < 0.0 ? out.below_sid : out.above_sid).push_back(f.surfid);
      if (m == 4) {
        (c < 0.0 ? out.below : out.above).push_back({f.nodes[0], f.nodes[2], f.nodes[3]});
        (c < 0.0 ? out.below_sid : out.above_sid).push_back(f.surfid);
      }
      continue;
    }
    std::vector<int> b, a;
    for (int k = 0; k < m; ++k) {
      const int prev = f.nodes[(k + m - 1) % m], cur = f.nodes[k];
      if (sign[prev] * sign[cur] < 0) {
        const int x = crossing_point(prev, cur);
        b.push_back(x), a.push_back(x);
      }
      if (sign[cur] <= 0) b.push_back(cur);
      if (sign[cur] >= 0) a.push_back(cur);
    }
    if (lo) Fan(b, out.below, &out.below_sid, f.surfid);
    if (hi) Fan(a, out.above, &out.above_sid, f.surfid);
  }
  return out;
}

bool SectionConnected(const MeshSection& s) {
  const int nt = static_cast<int>(s.section.size());
  if (nt == 0) return false;
  std::vector<int> p(nt);
  std::iota(p.begin(), p.end(), 0);
  std::function<int(int)> find = [&](int i) { return p[i] == i ? i : p[i] = find(p[i]); };
  std::map<std::pair<int, int>, int> edge;
  for (int t = 0; t < nt; ++t)
    for (int a = 0; a < 3; ++a) {
      const int x = s.section[t][a], y = s.section[t][(a + 1) % 3];
      const auto [it, fresh] = edge.insert({{std::min(x, y), std::max(x, y)}, t});
      if (!fresh) p[find(t)] = find(it->second);
    }
  for (int t = 1; t < nt; ++t)
    if (find(t) != find(0)) return false;
  return true;
}

std::vector<int> SectionPiece(const MeshSection& s, const Vec3& point) {
  const int nt = static_cast<int>(s.section.size());
  std::vector<int> out;
  if (nt == 0) return out;
  std::map<std::pair<int, int>, std::vector<int>> edge;
  int start = 0;
  double best = std::numeric_limits<double>::infinity();
  for (int t = 0; t < nt; ++t) {
    const auto& tri = s.section[t];
    for (int a = 0; a < 3; ++a) {
      const int x = tri[a], y = tri[(a + 1) % 3];
      edge[{std::min(x, y), std::max(x, y)}].push_back(t);
    }
    const Vec3 c = (s.points[tri[0]] + s.points[tri[1]] + s.points[tri[2]]) / 3.0;
    if ((c - point).norm() < best) best = (c - point).norm(), start = t;
  }
  std::vector<char> seen(nt, 0);
  std::vector<int> stack{start};
  seen[start] = 1;
  while (!stack.empty()) {
    const int t = stack.back();
    stack.pop_back();
    out.push_back(t);
    for (int a = 0; a < 3; ++a) {
      const int x = s.section[t][a], y = s.section[t][(a + 1) % 3];
      for (int u : edge[{std::min(x, y), std::max(x, y)}])
        if (!seen[u]) seen[u] = 1, stack.push_back(u);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Mesh> RemeshSlit(const Mesh& mesh, const Vec3& point, const Vec3& normal,
                             std::pair<int, int> sids, const Tetrahedralizer& tetgen,
                             const std::function<int(const Vec3&)>& volid_at,
                             const std::string& routine) {
  const MeshSection sec = CutMeshByPlane(mesh, point, normal);
  const std::vector<int> piece = SectionPiece(sec, point);
  if (piece.empty())
    throw InputError(routine + ": the plane does not cut the mesh (arguments 'point', 'normal')");
  std::set<int> piece_points;
  for (int t : piece)
    for (int v : sec.section[t]) piece_points.insert(v);
  // The boundary: faces the piece crosses clipped along it, the others whole.
  std::map<int, int> marker;
  for (const geometry::MeshFace& f : mesh.BoundaryFaces()) marker.insert({f.surfid, 0});
  std::vector<int> surfid_of{0};
  for (auto& [sid, mk] : marker) mk = static_cast<int>(surfid_of.size()), surfid_of.push_back(sid);
  const int cut_marker = static_cast<int>(surfid_of.size());
  std::vector<int> local(sec.points.size(), -1);
  std::vector<Vec3> pts;
  std::vector<std::array<int, 3>> t3;
  std::vector<int> mk;
  auto add = [&](const std::vector<int>& poly, int m) {
    std::vector<int> l;
    for (int v : poly) {
      int& k = local[v];
      if (k < 0) k = static_cast<int>(pts.size()), pts.push_back(sec.points[v]);
      l.push_back(k);
    }
    for (size_t a = 1; a + 1 < l.size(); ++a) t3.push_back({l[0], l[a], l[a + 1]}), mk.push_back(m);
  };
  const auto& sign = sec.sign;
  for (const geometry::MeshFace& f : mesh.BoundaryFaces()) {
    const int m = static_cast<int>(f.nodes.size());
    bool clip = false;
    for (int k = 0; k < m; ++k) {
      const int x = f.nodes[k], y = f.nodes[(k + 1) % m];
      if (sign[x] * sign[y] < 0 &&
          piece_points.count(sec.crossings.at({std::min(x, y), std::max(x, y)})))
        clip = true;
    }
    if (!clip) {
      add(f.nodes, marker.at(f.surfid));
      continue;
    }
    std::vector<int> b, a;
    for (int k = 0; k < m; ++k) {
      const int prev = f.nodes[(k + m - 1) % m], cur = f.nodes[k];
      if (sign[prev] * sign[cur] < 0) {
        const int x = sec.crossings.at({std::min(prev, cur), std::max(prev, cur)});
        b.push_back(x), a.push_back(x);
      }
      if (sign[cur] <= 0) b.push_back(cur);
      if (sign[cur] >= 0) a.push_back(cur);
    }
    add(b, marker.at(f.surfid));
    add(a, marker.at(f.surfid));
  }
  for (int t : piece) add({sec.section[t][0], sec.section[t][1], sec.section[t][2]}, cut_marker);
  TetMesh tm;
  try {
    tm = tetgen(pts, t3, mk);
  } catch (const std::exception& e) {
    throw InputError(routine + ": re-meshing the body with the cut inside failed: " + e.what());
  }
  Mesh whole;
  whole.default_surfid = mesh.default_surfid;
  whole.nodes = tm.nodes;
  for (const auto& t : tm.tets) {
    geometry::MeshElement el;
    el.num_nodes = 4;
    Vec3 c = Vec3::Zero();
    for (int a = 0; a < 4; ++a) el.nodes[a] = t[a], c += tm.nodes[t[a]];
    el.volid = volid_at(0.25 * c);
    whole.elements.push_back(el);
  }
  std::vector<std::vector<int>> cut;
  const Vec3 n = normal.normalized();
  for (size_t f = 0; f < tm.faces.size(); ++f) {
    const auto& tri = tm.faces[f];
    if (tm.markers[f] == cut_marker) {  // an inner face: the cut, oriented +normal
      std::vector<int> g{tri[0], tri[1], tri[2]};
      const Vec3 a = (tm.nodes[tri[1]] - tm.nodes[tri[0]]).cross(tm.nodes[tri[2]] - tm.nodes[tri[0]]);
      if (a.dot(n) < 0.0) std::swap(g[1], g[2]);
      cut.push_back(std::move(g));
      continue;
    }
    const int mkf = tm.markers[f];
    whole.surface_faces.push_back({{tri[0], tri[1], tri[2]},
                                   mkf >= 1 && mkf < cut_marker ? surfid_of[mkf]
                                                                : mesh.default_surfid});
  }
  int matched = 0;
  auto parts = SplitMeshAtFaces(whole, cut, sids.first, sids.second, &matched);
  if (matched == 0)
    throw InputError(routine + ": re-meshing the body with the cut inside gave no inner faces "
                     "on the cut (arguments 'point', 'normal')");
  std::vector<Mesh> out;
  for (auto& p : parts) out.push_back(std::move(p.mesh));
  return out;
}

std::vector<Mesh> RemeshSplit(const Mesh& mesh, const Vec3& point, const Vec3& normal,
                              std::pair<int, int> sids, const Tetrahedralizer& tetgen,
                              const std::function<int(const Vec3&)>& volid_at,
                              const std::string& routine, int* below_count) {
  const MeshSection sec = CutMeshByPlane(mesh, point, normal);
  if (sec.section.empty() || sec.below.empty() || sec.above.empty())
    throw InputError(routine + ": the plane does not cut the mesh (arguments 'point', 'normal')");
  // Markers: 1..K the distinct surface ids, K + 1 the cut.
  std::map<int, int> marker;
  for (int sid : sec.below_sid) marker.insert({sid, 0});
  for (int sid : sec.above_sid) marker.insert({sid, 0});
  std::vector<int> surfid_of{0};
  for (auto& [sid, mk] : marker) mk = static_cast<int>(surfid_of.size()), surfid_of.push_back(sid);
  const int cut_marker = static_cast<int>(surfid_of.size());
  std::vector<Mesh> out;
  int nbelow = 0;
  for (int side = 0; side < 2; ++side) {
    const auto& tris = side == 0 ? sec.below : sec.above;
    const auto& sid = side == 0 ? sec.below_sid : sec.above_sid;
    std::vector<int> local(sec.points.size(), -1);
    std::vector<Vec3> pts;
    std::vector<std::array<int, 3>> t3;
    std::vector<int> mk;
    auto add = [&](const std::array<int, 3>& t, int m) {
      std::array<int, 3> l;
      for (int a = 0; a < 3; ++a) {
        int& k = local[t[a]];
        if (k < 0) k = static_cast<int>(pts.size()), pts.push_back(sec.points[t[a]]);
        l[a] = k;
      }
      t3.push_back(l), mk.push_back(m);
    };
    for (size_t i = 0; i < tris.size(); ++i) add(tris[i], marker.at(sid[i]));
    for (const auto& t : sec.section) add(t, cut_marker);
    TetMesh tm;
    try {
      tm = tetgen(pts, t3, mk);
    } catch (const std::exception& e) {
      throw InputError(routine + ": re-meshing the part " + (side == 0 ? "below" : "above") +
                       " the plane failed: " + e.what());
    }
    if (tm.tets.empty())
      throw InputError(routine + ": re-meshing the part " + std::string(side == 0 ? "below" : "above") +
                       " the plane gave no tetrahedra");
    // Connected pieces (tetrahedra sharing nodes).
    const int nt = static_cast<int>(tm.tets.size());
    std::vector<int> p(nt);
    std::iota(p.begin(), p.end(), 0);
    std::function<int(int)> find = [&](int i) { return p[i] == i ? i : p[i] = find(p[i]); };
    std::vector<int> first(tm.nodes.size(), -1);
    for (int t = 0; t < nt; ++t)
      for (int v : tm.tets[t]) {
        if (first[v] < 0) first[v] = t;
        else p[find(t)] = find(first[v]);
      }
    std::map<int, int> piece;
    for (int t = 0; t < nt; ++t) piece.insert({find(t), static_cast<int>(piece.size())});
    const size_t base = out.size();
    out.resize(base + piece.size());
    std::vector<int> node_piece(tm.nodes.size(), -1), node_local(tm.nodes.size(), -1);
    for (int t = 0; t < nt; ++t) {
      Mesh& m = out[base + piece[find(t)]];
      m.default_surfid = mesh.default_surfid;
      geometry::MeshElement el;
      el.num_nodes = 4;
      Vec3 c = Vec3::Zero();
      for (int a = 0; a < 4; ++a) {
        const int v = tm.tets[t][a];
        if (node_local[v] < 0) {
          node_piece[v] = piece[find(t)];
          node_local[v] = static_cast<int>(m.nodes.size());
          m.nodes.push_back(tm.nodes[v]);
        }
        el.nodes[a] = node_local[v];
        c += tm.nodes[v];
      }
      el.volid = volid_at(0.25 * c);
      m.elements.push_back(el);
    }
    for (size_t f = 0; f < tm.faces.size(); ++f) {
      const auto& tri = tm.faces[f];
      if (node_piece[tri[0]] < 0) continue;
      Mesh& m = out[base + node_piece[tri[0]]];
      const int mkf = tm.markers[f];
      const int surf = mkf == cut_marker ? (side == 0 ? sids.first : sids.second)
                       : mkf >= 1 && mkf < cut_marker ? surfid_of[mkf]
                                                      : mesh.default_surfid;
      m.surface_faces.push_back(
          {{node_local[tri[0]], node_local[tri[1]], node_local[tri[2]]}, surf});
    }
    if (side == 0) nbelow = static_cast<int>(out.size());
  }
  if (below_count) *below_count = nbelow;
  return out;
}

}  // namespace solfec::domain
