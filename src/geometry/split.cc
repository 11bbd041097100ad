// SPLIT: cuts the convexes and spheres of a shape by a plane into a below and an above part.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "base/errors.h"
#include "base/math.h"
#include "geometry/shape.h"

namespace solfec::geometry {
namespace {

// Signed distances within this fraction of the convex's diagonal count as on the plane.
constexpr double kOnPlaneTolerance = 1e-10;
// A part whose volume is below this fraction of the whole is a sliver and is not cut off.
constexpr double kSliverTolerance = 1e-9;

struct Halves {
  std::optional<Convex> below, above;
};

// Keeps only referenced vertices and renumbers faces.
void Compact(Convex& c) {
  std::vector<int> map(c.vertices.size(), -1);
  std::vector<Vec3> kept;
  for (ConvexFace& face : c.faces) {
    for (int& v : face.vertices) {
      if (map[v] < 0) {
        map[v] = static_cast<int>(kept.size());
        kept.push_back(c.vertices[v]);
      }
      v = map[v];
    }
  }
  c.vertices = std::move(kept);
}

// Removes consecutive repeated indices (from merged cut vertices) around a polygon.
void RemoveRepeats(std::vector<int>& poly) {
  std::vector<int> out;
  for (int v : poly) {
    if (out.empty() || out.back() != v) out.push_back(v);
  }
  while (out.size() > 1 && out.front() == out.back()) out.pop_back();
  poly = std::move(out);
}

// Orders the cut points counter-clockwise seen from the +n side.
std::vector<int> OrderCutPolygon(const std::vector<Vec3>& vertices, std::vector<int> cut,
                                 const Vec3& n) {
  std::sort(cut.begin(), cut.end());
  cut.erase(std::unique(cut.begin(), cut.end()), cut.end());
  if (cut.size() < 3) return {};
  Vec3 m = Vec3::Zero();
  for (int v : cut) m += vertices[v];
  m /= static_cast<double>(cut.size());
  const Mat3 base = BaseFromNormal(n);  // columns t1, t2, n with t1 x t2 = n
  std::vector<std::pair<double, int>> angles;
  for (int v : cut) {
    const Vec3 r = vertices[v] - m;
    angles.emplace_back(std::atan2(r.dot(base.col(1)), r.dot(base.col(0))), v);
  }
  std::sort(angles.begin(), angles.end());
  std::vector<int> out;
  for (const auto& [angle, v] : angles) out.push_back(v);
  return out;
}

// Clips convex c by the plane n.x = offset (n unit).
Halves Clip(const Convex& c, const Vec3& n, double offset, std::pair<int, int> surfids) {
  const Aabb box = c.Bounds();
  const double tol = kOnPlaneTolerance * (box.hi - box.lo).norm();
  std::vector<double> s(c.vertices.size());
  bool any_below = false, any_above = false;
  for (size_t i = 0; i < s.size(); ++i) {
    s[i] = n.dot(c.vertices[i]) - offset;
    if (std::abs(s[i]) <= tol) s[i] = 0.0;
    any_below |= s[i] < 0.0;
    any_above |= s[i] > 0.0;
  }
  Halves out;
  if (!any_above) {
    out.below = c;
    return out;
  }
  if (!any_below) {
    out.above = c;
    return out;
  }

  // Vertices on the plane, then one intersection vertex per crossing edge (merged when
  // closer than the tolerance so that the cut polygon has no zero-length edges).
  std::vector<Vec3> vertices = c.vertices;
  std::vector<int> cut;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 0.0) cut.push_back(static_cast<int>(i));
  }
  std::map<std::pair<int, int>, int> edge_vertex;
  auto intersect = [&](int a, int b) {
    const std::pair<int, int> key(std::min(a, b), std::max(a, b));
    auto it = edge_vertex.find(key);
    if (it != edge_vertex.end()) return it->second;
    const double t = s[key.first] / (s[key.first] - s[key.second]);
    const Vec3 p = vertices[key.first] + t * (vertices[key.second] - vertices[key.first]);
    int index = -1;
    for (int v : cut) {
      if ((vertices[v] - p).norm() <= tol) index = v;
    }
    if (index < 0) {
      index = static_cast<int>(vertices.size());
      vertices.push_back(p);
      cut.push_back(index);
    }
    edge_vertex.emplace(key, index);
    return index;
  };

  Convex below, above;
  below.volid = above.volid = c.volid;
  for (const ConvexFace& face : c.faces) {
    ConvexFace lo{{}, face.surfid}, hi{{}, face.surfid};
    bool lo_strict = false, hi_strict = false;
    const int m = static_cast<int>(face.vertices.size());
    for (int i = 0; i < m; ++i) {
      const int a = face.vertices[i];
      const int b = face.vertices[(i + 1) % m];
      if (s[a] <= 0.0) lo.vertices.push_back(a);
      if (s[a] >= 0.0) hi.vertices.push_back(a);
      lo_strict |= s[a] < 0.0;
      hi_strict |= s[a] > 0.0;
      if ((s[a] < 0.0 && s[b] > 0.0) || (s[a] > 0.0 && s[b] < 0.0)) {
        const int x = intersect(a, b);
        lo.vertices.push_back(x);
        hi.vertices.push_back(x);
      }
    }
    RemoveRepeats(lo.vertices);
    RemoveRepeats(hi.vertices);
    if (lo_strict && lo.vertices.size() >= 3) below.faces.push_back(std::move(lo));
    if (hi_strict && hi.vertices.size() >= 3) above.faces.push_back(std::move(hi));
  }

  // The cut face: outward +n on the below part, -n on the above part.
  std::vector<int> polygon = OrderCutPolygon(vertices, cut, n);
  const MassProperties whole = c.ComputeMassProperties();
  if (polygon.size() < 3) {
    (whole.center.dot(n) - offset < 0.0 ? out.below : out.above) = c;
    return out;
  }
  below.faces.push_back(ConvexFace{polygon, surfids.first});
  std::reverse(polygon.begin(), polygon.end());
  above.faces.push_back(ConvexFace{polygon, surfids.second});
  below.vertices = above.vertices = vertices;
  Compact(below);
  Compact(above);

  // Slivers are not cut off: the convex then goes whole to the other side.
  const double sliver = kSliverTolerance * std::abs(whole.volume);
  const bool below_ok = below.ComputeMassProperties().volume > sliver;
  const bool above_ok = above.ComputeMassProperties().volume > sliver;
  if (below_ok && above_ok) {
    out.below = std::move(below);
    out.above = std::move(above);
  } else if (below_ok) {
    out.below = c;
  } else {
    out.above = c;
  }
  return out;
}

}  // namespace

std::pair<Shape, Shape> Split(Shape shape, const Vec3& point, const Vec3& normal,
                              std::pair<int, int> surfids) {
  if (!shape.meshes.empty()) {
    throw InputError(
        "SPLIT: MESH shapes cannot be split (argument 'shape'); "
        "pass CONVEX or SPHERE objects");
  }
  if (!point.allFinite()) {
    throw InputError("SPLIT: the point is not finite (argument 'point'); give finite numbers");
  }
  if (!normal.allFinite() || !(normal.norm() > 0.0)) {
    throw InputError(
        "SPLIT: the normal is zero or not finite (argument 'normal'); "
        "give a non-zero direction");
  }
  const Vec3 n = normal.normalized();
  const double offset = n.dot(point);
  const int nc = static_cast<int>(shape.convexes.size());

  // Cut every convex; remember where its pieces went.
  Shape below, above;
  std::vector<int> below_index(nc, -1), above_index(nc, -1);
  for (int i = 0; i < nc; ++i) {
    Halves h = Clip(shape.convexes[i], n, offset, surfids);
    if (h.below) {
      h.below->neighbors.clear();
      below_index[i] = static_cast<int>(below.convexes.size());
      below.convexes.push_back(std::move(*h.below));
    }
    if (h.above) {
      h.above->neighbors.clear();
      above_index[i] = static_cast<int>(above.convexes.size());
      above.convexes.push_back(std::move(*h.above));
    }
  }

  // Pieces of adjacent convexes that land on the same side stay adjacent.
  for (int i = 0; i < nc; ++i) {
    for (int j : shape.convexes[i].neighbors) {
      if (j < 0 || j >= nc || j == i) continue;
      if (below_index[i] >= 0 && below_index[j] >= 0) {
        below.convexes[below_index[i]].neighbors.push_back(below_index[j]);
      }
      if (above_index[i] >= 0 && above_index[j] >= 0) {
        above.convexes[above_index[i]].neighbors.push_back(above_index[j]);
      }
    }
  }

  // A sphere goes wholly to the side of its centre.
  for (Sphere& sphere : shape.spheres) {
    (n.dot(sphere.center) - offset < 0.0 ? below : above).spheres.push_back(std::move(sphere));
  }
  for (Ellipsoid& e : shape.ellipsoids) {  // likewise an ellipsoid
    (n.dot(e.center) - offset < 0.0 ? below : above).ellipsoids.push_back(std::move(e));
  }
  return {std::move(below), std::move(above)};
}

}  // namespace solfec::geometry
