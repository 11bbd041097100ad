// Convex polyhedron: validation, face planes, bounds, mass properties and transformation.
#include "geometry/convex.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "base/errors.h"

namespace solfec::geometry {
namespace {

// Relative tolerance of planarity/convexity checks (times the bounding-box diagonal): loose
// enough for coordinates typed with ~7 significant digits, tight enough to catch real dents.
constexpr double kConvexityTolerance = 1e-6;
// Relative volume (times diagonal^3) below which a convex counts as degenerate.
constexpr double kZeroVolumeTolerance = 1e-12;

[[noreturn]] void Fail(const std::string& routine, const std::string& what,
                       const std::string& argument, const std::string& fix) {
  throw InputError(routine + ": " + what + " (argument '" + argument + "'); " + fix);
}

// Checks counts, indices and the topology of face edges.
void ValidateTopology(const Convex& c, const std::string& routine) {
  const int nv = static_cast<int>(c.vertices.size());
  if (nv < 4) {
    Fail(routine, std::to_string(nv) + " vertices given", "vertices",
         "a convex polyhedron needs at least 4 vertices");
  }
  for (int v = 0; v < nv; ++v) {
    if (!c.vertices[v].allFinite()) {
      Fail(routine, "vertex " + std::to_string(v) + " has a non-finite coordinate", "vertices",
           "give finite coordinates");
    }
  }
  const int nf = static_cast<int>(c.faces.size());
  if (nf < 4) {
    Fail(routine, std::to_string(nf) + " faces given", "faces",
         "a closed convex polyhedron needs at least 4 faces");
  }
  std::map<std::pair<int, int>, int> edge_face;  // directed edge -> face using it
  for (int f = 0; f < nf; ++f) {
    const std::vector<int>& fv = c.faces[f].vertices;
    const int n = static_cast<int>(fv.size());
    const std::string face = "face " + std::to_string(f);
    if (n < 3) {
      Fail(routine, face + " has " + std::to_string(n) + " vertices", "faces",
           "a face needs at least 3 vertices");
    }
    for (int i = 0; i < n; ++i) {
      if (fv[i] < 0 || fv[i] >= nv) {
        Fail(routine, face + " has an out-of-range vertex index " + std::to_string(fv[i]), "faces",
             "use vertex indices 0.." + std::to_string(nv - 1));
      }
    }
    for (int i = 0; i < n; ++i) {
      const std::pair<int, int> e(fv[i], fv[(i + 1) % n]);
      if (e.first == e.second || std::count(fv.begin(), fv.end(), fv[i]) > 1) {
        Fail(routine, face + " repeats vertex " + std::to_string(fv[i]), "faces",
             "list each face vertex once");
      }
      auto [it, inserted] = edge_face.emplace(e, f);
      if (!inserted) {
        Fail(routine,
             "edge (" + std::to_string(e.first) + ", " + std::to_string(e.second) +
                 ") runs in the same direction in faces " + std::to_string(it->second) + " and " +
                 std::to_string(f),
             "faces", "list every face counter-clockwise seen from outside");
      }
    }
  }
}

}  // namespace

void Convex::Validate(const std::string& routine) const {
  ValidateTopology(*this, routine);
  const Aabb box = Bounds();
  const double diag = (box.hi - box.lo).norm();
  const MassProperties mp = ComputeMassProperties();
  if (!(std::abs(mp.volume) > kZeroVolumeTolerance * diag * diag * diag)) {
    Fail(routine, "degenerate convex (zero volume)", "vertices", "the vertices must span a solid");
  }
  if (mp.volume < 0.0) {
    Fail(routine, "faces are oriented inward (negative volume)", "faces",
         "list face vertices counter-clockwise seen from outside");
  }
  const double tol = kConvexityTolerance * diag;
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
    const std::string face = "face " + std::to_string(f);
    const Vec3 n = FaceNormal(f);
    if (n.isZero()) {
      Fail(routine, face + " has zero area", "faces", "remove or fix the face");
    }
    const double d = FacePlaneOffset(f);
    for (int v : faces[f].vertices) {
      if (std::abs(n.dot(vertices[v]) - d) > tol) {
        Fail(routine, face + " is not planar (vertex " + std::to_string(v) + ")", "faces",
             "faces of a convex must be planar polygons");
      }
    }
    // The centroid is strictly inside a valid convex, however thin (no tolerance here).
    if (n.dot(mp.center) - d >= 0.0) {
      Fail(routine, face + " is oriented inward", "faces",
           "list face vertices counter-clockwise seen from outside");
    }
    for (int v = 0; v < static_cast<int>(vertices.size()); ++v) {
      if (n.dot(vertices[v]) - d > tol) {
        Fail(routine,
             "the polyhedron is not convex: vertex " + std::to_string(v) +
                 " lies outside the plane of " + face,
             "vertices", "split the solid into convex pieces");
      }
    }
  }
}

Vec3 Convex::FaceNormal(int f) const {
  const std::vector<int>& fv = faces[f].vertices;
  const int n = static_cast<int>(fv.size());
  Vec3 m = Vec3::Zero();
  for (int v : fv) m += vertices[v];
  m /= std::max(n, 1);
  // Newell: the sum of edge cross products is twice the vector area of the polygon.
  Vec3 normal = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    normal += (vertices[fv[i]] - m).cross(vertices[fv[(i + 1) % n]] - m);
  }
  const double len = normal.norm();
  return len > 0.0 ? Vec3(normal / len) : Vec3::Zero();
}

double Convex::FacePlaneOffset(int f) const {
  const std::vector<int>& fv = faces[f].vertices;
  Vec3 m = Vec3::Zero();
  for (int v : fv) m += vertices[v];
  if (!fv.empty()) m /= static_cast<double>(fv.size());
  return FaceNormal(f).dot(m);
}

Aabb Convex::Bounds() const {
  Aabb box;
  for (const Vec3& v : vertices) box.Extend(v);
  return box;
}

MassProperties Convex::ComputeMassProperties() const {
  Vec3 apex = Vec3::Zero();
  for (const Vec3& v : vertices) apex += v;
  if (!vertices.empty()) apex /= static_cast<double>(vertices.size());
  ConeIntegrator integrator(apex);
  std::vector<Vec3> polygon;
  for (const ConvexFace& face : faces) {
    polygon.clear();
    for (int v : face.vertices) polygon.push_back(vertices[v]);
    integrator.AddPolygon(polygon.data(), static_cast<int>(polygon.size()));
  }
  return integrator.Finish();
}

void Convex::Transform(const Mat3& A, const Vec3& t) {
  for (Vec3& v : vertices) v = A * v + t;
  if (A.determinant() < 0.0) {
    for (ConvexFace& face : faces) std::reverse(face.vertices.begin(), face.vertices.end());
  }
}

Vec3 Convex::Support(const Vec3& d) const {
  int best = 0;
  double best_dot = -std::numeric_limits<double>::infinity();
  for (int v = 0; v < static_cast<int>(vertices.size()); ++v) {
    const double dot = vertices[v].dot(d);
    if (dot > best_dot) {
      best_dot = dot;
      best = v;
    }
  }
  return vertices.empty() ? Vec3::Zero() : vertices[best];
}

bool Convex::Contains(const Vec3& p, double eps) const {
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
    if (FaceNormal(f).dot(p) - FacePlaneOffset(f) > eps) return false;
  }
  return true;
}

}  // namespace solfec::geometry
