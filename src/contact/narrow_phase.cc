// Narrow phase: contact point, normal, gap and area from overlaps of convexes and spheres.
#include "contact/narrow_phase.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/math.h"
#include "contact/convex_clip.h"

namespace solfec::contact {

namespace {

// Sphere contact areas are clamped below by this fraction of pi r^2.
constexpr double kMinAreaFraction = 1e-6;
// Face normals of the intersection within this angle (15 degrees) of the area-weighted
// normal are alternative contact normals (see ConvexConvex).
constexpr double kCosCandidateAngle = 0.96592582628906831;

// Disc estimate pi (r^2 - (r + gap)^2) of the contact area of a sphere of radius r.
double DiscArea(double r, double gap) {
  const double s = r + gap;
  return kPi * std::max(r * r - s * s, kMinAreaFraction * r * r);
}

// Closest point of the convex polygon `face` (unit normal n, counter-clockwise about n) of
// c to the point x.
Vec3 ClosestOnFace(const geometry::Convex& c, const geometry::ConvexFace& face, const Vec3& n,
                   const Vec3& x) {
  const std::vector<int>& idx = face.vertices;
  const int m = static_cast<int>(idx.size());
  const Vec3& p0 = c.vertices[idx[0]];
  const Vec3 q = x - n * n.dot(x - p0);  // projection on the face plane
  bool inside = true;
  for (int k = 0; k < m && inside; ++k) {
    const Vec3& p = c.vertices[idx[k]];
    const Vec3& r = c.vertices[idx[(k + 1) % m]];
    inside = (r - p).cross(q - p).dot(n) >= 0.0;
  }
  if (inside) return q;
  Vec3 best = p0;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (int k = 0; k < m; ++k) {
    const Vec3& p = c.vertices[idx[k]];
    const Vec3& r = c.vertices[idx[(k + 1) % m]];
    const Vec3 e = r - p;
    const double ee = e.squaredNorm();
    const double t = ee > 0.0 ? std::clamp(e.dot(x - p) / ee, 0.0, 1.0) : 0.0;
    const Vec3 y = p + t * e;
    const double d2 = (x - y).squaredNorm();
    if (d2 < best_d2) {
      best_d2 = d2;
      best = y;
    }
  }
  return best;
}

// Accumulated face data of an intersection polytope (see ConvexConvex).
struct FaceSums {
  Vec3 S = Vec3::Zero();  // sum over a-faces of area n - sum over b-faces of area n
  double total = 0.0;     // total surface area
};

FaceSums SumFaces(const ClipPolytope& poly, std::vector<double>* areas) {
  FaceSums sums;
  const int nf = static_cast<int>(poly.faces.size());
  areas->resize(nf);
  for (int f = 0; f < nf; ++f) {
    const ClipFace& g = poly.faces[f];
    const double A = poly.FaceArea(f);
    (*areas)[f] = A;
    sums.total += A;
    if (g.face_a >= 0 && g.face_b < 0) sums.S += A * g.normal;
    if (g.face_b >= 0 && g.face_a < 0) sums.S -= A * g.normal;
  }
  return sums;
}

// Surface id of the face of the given convex (sign +1: a, -1: b) whose projected area onto
// sign * n is the largest.
int DominantSurface(const ClipPolytope& poly, const std::vector<double>& areas,
                    const geometry::Convex& c, const Vec3& n, int sign) {
  int best = -1;
  double best_w = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(poly.faces.size()); ++f) {
    const ClipFace& g = poly.faces[f];
    const int src = sign > 0 ? g.face_a : g.face_b;
    if (src < 0) continue;
    const double w = areas[f] * sign * g.normal.dot(n);
    if (w > best_w) {
      best_w = w;
      best = src;
    }
  }
  if (best < 0) return c.faces.empty() ? 0 : c.faces[0].surfid;
  return c.faces[best].surfid;
}

// max n.p - min n.p over the points of the polytope.
double Extent(const ClipPolytope& poly, const Vec3& n) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Vec3& p : poly.points) {
    const double t = n.dot(p);
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  return hi - lo;
}

std::optional<ContactGeometry> Overlap(const geometry::Convex& a, const geometry::Convex& b,
                                       double epsilon, double swell, ClipPolytope* polytope);

Vec3 VertexMean(const geometry::Convex& c) {
  Vec3 m = Vec3::Zero();
  for (const Vec3& x : c.vertices) m += x;
  return c.vertices.empty() ? m : Vec3(m / static_cast<double>(c.vertices.size()));
}

}  // namespace

std::optional<ContactGeometry> ConvexConvex(const geometry::Convex& a, const geometry::Convex& b,
                                            double epsilon) {
  thread_local ClipPolytope work;
  return ConvexConvex(a, b, epsilon, &work);
}

std::optional<ContactGeometry> ConvexConvex(const geometry::Convex& a, const geometry::Convex& b,
                                            double epsilon, ClipPolytope* polytope) {
  return Overlap(a, b, epsilon, 0.0, polytope);
}

std::optional<ContactGeometry> ConvexConvexContact(const geometry::Convex& a,
                                                   const geometry::Convex& b, double epsilon,
                                                   ClipPolytope* polytope) {
  return Overlap(a, b, epsilon, std::max(epsilon, 0.0), polytope);
}

namespace {

// The overlap of a and b swollen by `swell` (0: the plain overlap, thinner than epsilon is
// none; > 0: the contact rule of ConvexConvexContact).
std::optional<ContactGeometry> Overlap(const geometry::Convex& a, const geometry::Convex& b,
                                       double epsilon, double swell, ClipPolytope* polytope) {
  ClipPolytope& poly = *polytope;
  thread_local std::vector<double> areas;
  const bool contact = swell > 0.0;
  const double tol = ClipTolerance(a, b);
  int swollen = 0;
  if (swell > 0.0 && NearlySeparatingFaces(b, a, swell) == 0 &&
      NearlySeparatingFaces(a, b, swell) > 0) {
    // a's face separates (e.g. a corner of b near a face of a): swell a, then tag back.
    if (!IntersectConvexes(b, a, tol, swell, &poly, &swollen)) return std::nullopt;
    for (ClipFace& f : poly.faces) std::swap(f.face_a, f.face_b);
  } else if (!IntersectConvexes(a, b, tol, swell, &poly, &swollen)) {
    return std::nullopt;
  }
  if (swollen == 0) swell = 0.0;  // a plain overlap (deeper than swell, or edge on edge)

  // Normal from the area-weighted outward normals: a-faces count +, b-faces -, faces on
  // coincident planes of both (equal orientation) cancel out.
  const FaceSums sums = SumFaces(poly, &areas);
  const double s_norm = sums.S.norm();
  Vec3 n;
  if (s_norm > 1e-9 * sums.total) {
    n = sums.S / s_norm;
  } else {  // one convex inside the other: fall back to the line of vertex means
    const Vec3 d = VertexMean(b) - VertexMean(a);
    n = d.norm() > 0.0 ? Vec3(d.normalized()) : Vec3::UnitZ();
  }

  // Penetration depth: extent of the intersection along n. The area-weighted normal of a
  // thin slab is tilted by ~depth/width when side faces of the slab come from one convex
  // only, which doubles the extent; a face normal of the intersection close to n (within
  // 15 degrees) that gives a smaller extent is taken instead.
  const Vec3 n0 = n;
  double extent = Extent(poly, n0);
  for (const ClipFace& f : poly.faces) {
    if (f.face_a >= 0 && f.face_b >= 0) continue;  // shared: not a contact face
    const Vec3 c = f.face_a >= 0 ? f.normal : Vec3(-f.normal);
    if (c.dot(n0) < kCosCandidateAngle) continue;
    const double e = Extent(poly, c);
    if (e < extent * (1.0 - 1e-12)) {
      extent = e;
      n = c;
    }
  }
  if (contact ? !(extent > tol) : (!(extent >= epsilon) || extent <= tol))
    return std::nullopt;

  ContactGeometry g;
  if (!(poly.Volume(&g.point) > 0.0)) return std::nullopt;
  g.normal = n;
  g.gap = std::min(0.0, swell - extent);
  g.area = 0.5 * s_norm;
  g.surf1 = DominantSurface(poly, areas, a, n, +1);
  g.surf2 = DominantSurface(poly, areas, b, n, -1);
  return g;
}

}  // namespace

std::optional<ContactGeometry> ConvexSphere(const geometry::Convex& a, const geometry::Sphere& b,
                                            double epsilon) {
  const Vec3& c = b.center;
  const double r = b.radius;
  const int nf = static_cast<int>(a.faces.size());
  if (nf == 0) return std::nullopt;
  // Signed distances of the centre to the face planes; the largest one decides inside/out.
  thread_local std::vector<Vec3> normals;
  thread_local std::vector<double> dist;
  normals.resize(nf);
  dist.resize(nf);
  int fmax = 0;
  for (int f = 0; f < nf; ++f) {
    double d = 0.0;
    normals[f] = ConvexFaceNormal(a, f, &d);
    dist[f] = normals[f].dot(c) - d;
    if (dist[f] > dist[fmax]) fmax = f;
  }
  if (dist[fmax] - r >= 0.0) return std::nullopt;  // separated by a face plane

  ContactGeometry g;
  Vec3 p = c - dist[fmax] * normals[fmax];  // closest point on the convex surface
  int fp = fmax;
  if (dist[fmax] <= 0.0) {  // centre inside: leave through the face of least depth
    g.normal = normals[fmax];
    p = c - dist[fmax] * g.normal;
    g.gap = dist[fmax] - r;
  } else {  // centre outside: the closest point lies on a face visible from c
    double best = dist[fmax];  // (attained unless a face is degenerate)
    bool found = false;
    for (int f = 0; f < nf; ++f) {
      if (dist[f] <= 0.0 || a.faces[f].vertices.size() < 3) continue;
      const Vec3 q = ClosestOnFace(a, a.faces[f], normals[f], c);
      const double d = (c - q).norm();
      if (!found || d < best) {
        found = true;
        best = d;
        p = q;
        fp = f;
      }
    }
    const double kTiny = 1e-14 * std::max(r, best);
    g.normal = best > kTiny ? Vec3((c - p) / best) : normals[fmax];
    g.gap = best - r;
  }
  if (!(g.gap < 0.0)) return std::nullopt;
  g.point = 0.5 * (p + (c - r * g.normal));
  g.area = DiscArea(r, g.gap);
  g.surf1 = a.faces[fp].surfid;
  g.surf2 = b.surfid;
  return g;
}

std::optional<ContactGeometry> SphereConvex(const geometry::Sphere& a, const geometry::Convex& b,
                                            double epsilon) {
  std::optional<ContactGeometry> g = ConvexSphere(b, a, epsilon);
  if (!g) return g;
  g->normal = -g->normal;
  std::swap(g->surf1, g->surf2);
  return g;
}

std::optional<ContactGeometry> SphereSphere(const geometry::Sphere& a, const geometry::Sphere& b,
                                            double epsilon) {
  const Vec3 d = b.center - a.center;
  const double dist = d.norm();
  const double gap = dist - a.radius - b.radius;
  if (!(gap < 0.0)) return std::nullopt;
  ContactGeometry g;
  g.normal = dist > 0.0 ? Vec3(d / dist) : Vec3::UnitZ();
  g.gap = gap;
  g.point = 0.5 * ((a.center + a.radius * g.normal) + (b.center - b.radius * g.normal));
  g.area = DiscArea(std::min(a.radius, b.radius), gap);
  g.surf1 = a.surfid;
  g.surf2 = b.surfid;
  return g;
}

}  // namespace solfec::contact
