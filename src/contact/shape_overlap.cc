// Whether two shapes overlap (OVERLAPPING): narrow-phase contact of their pieces' pairs.
#include "contact/shape_overlap.h"

#include <optional>
#include <variant>
#include <vector>

#include "contact/ellipsoid_contact.h"
#include "contact/narrow_phase.h"

namespace solfec::contact {

namespace {

using geometry::Convex;
using geometry::Ellipsoid;
using geometry::Sphere;

// A piece of a shape: a convex (also a mesh element), a sphere or an ellipsoid, with its box.
struct Piece {
  std::variant<Convex, Sphere, Ellipsoid> g;
  geometry::Aabb box;
};

std::vector<Piece> Pieces(const geometry::Shape& s) {
  std::vector<Piece> out;
  for (const Convex& c : s.convexes) out.push_back({c, c.Bounds()});
  for (const Sphere& sp : s.spheres) out.push_back({sp, sp.Bounds()});
  for (const Ellipsoid& e : s.ellipsoids) out.push_back({e, e.Bounds()});
  for (const geometry::Mesh& m : s.meshes)
    for (Convex& c : m.ToConvexes()) {  // one pass over the mesh's face tables
      const geometry::Aabb box = c.Bounds();
      out.push_back({std::move(c), box});
    }
  return out;
}

std::optional<ContactGeometry> Detect(const Piece& p, const Piece& q, double epsilon) {
  // Ellipsoids: overlap when the signed distance is below 0 (gap = minus the depth).
  if (const auto* a = std::get_if<Ellipsoid>(&p.g)) {
    if (const auto* b = std::get_if<Convex>(&q.g)) return EllipsoidConvex(*a, *b, 0.0);
    if (const auto* b = std::get_if<Sphere>(&q.g)) return EllipsoidSphere(*a, *b, 0.0);
    return EllipsoidEllipsoid(*a, std::get<Ellipsoid>(q.g), 0.0);
  }
  if (const auto* b = std::get_if<Ellipsoid>(&q.g)) {
    if (const auto* a = std::get_if<Convex>(&p.g)) return ConvexEllipsoid(*a, *b, 0.0);
    return SphereEllipsoid(std::get<Sphere>(p.g), *b, 0.0);
  }
  if (const auto* a = std::get_if<Convex>(&p.g)) {
    if (const auto* b = std::get_if<Convex>(&q.g)) return ConvexConvex(*a, *b, epsilon);
    return ConvexSphere(*a, std::get<Sphere>(q.g), epsilon);
  }
  const Sphere& a = std::get<Sphere>(p.g);
  if (const auto* b = std::get_if<Convex>(&q.g)) return SphereConvex(a, *b, epsilon);
  return SphereSphere(a, std::get<Sphere>(q.g), epsilon);
}

}  // namespace

bool ShapesOverlap(const geometry::Shape& a, const geometry::Shape& b, double gap,
                   double epsilon) {
  if (a.empty() || b.empty() || !a.Bounds().Overlaps(b.Bounds())) return false;
  const std::vector<Piece> pa = Pieces(a), pb = Pieces(b);
  for (const Piece& p : pa)
    for (const Piece& q : pb) {
      if (!p.box.Overlaps(q.box)) continue;
      const std::optional<ContactGeometry> c = Detect(p, q, epsilon);
      if (c && c->gap <= gap) return true;
    }
  return false;
}

}  // namespace solfec::contact
