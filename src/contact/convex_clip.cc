// Intersection polytope of two convex polyhedra by successive half-space clipping.
#include "contact/convex_clip.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace solfec::contact {

namespace {

// Per-thread scratch space: the clipping ping-pongs between `out` and `next`.
struct Scratch {
  ClipPolytope next;
  std::vector<double> s;     // signed distances of polytope points to the clipping plane
  std::vector<Vec3> cap;     // points on the clipping plane (the new face's vertices)
  std::vector<int> order;    // cap points sorted in the plane
  std::vector<int> hull;     // cap hull (indices into cap)
  std::vector<std::pair<double, double>> uv;  // cap points in plane coordinates
  std::vector<Vec3> na, nb;  // face normals of a and b
  std::vector<double> da, db;  // face plane offsets of a and b
};

Scratch& GetScratch() {
  thread_local Scratch scratch;
  return scratch;
}

// Vertex classification against a plane with tolerance.
enum Side { kIn = -1, kOn = 0, kOut = 1 };
inline Side Classify(double s, double tol) { return s > tol ? kOut : (s < -tol ? kIn : kOn); }

// Appends p to `pts` unless it equals (within tol) the last point appended since `begin`.
inline void PushPoint(std::vector<Vec3>& pts, int begin, const Vec3& p, double tol2) {
  if (static_cast<int>(pts.size()) > begin && (pts.back() - p).squaredNorm() <= tol2) return;
  pts.push_back(p);
}

// Clips one face polygon of `cur` against the plane (values s of its points) into `next`;
// points on the plane and edge crossings are appended to `cap`.
void ClipFacePolygon(const ClipPolytope& cur, const ClipFace& f, const std::vector<double>& s,
                     double tol, ClipPolytope* next, std::vector<Vec3>* cap) {
  const double tol2 = tol * tol;
  const int begin = static_cast<int>(next->points.size());
  for (int k = 0; k < f.count; ++k) {
    const int i = f.begin + k;
    const int j = f.begin + (k + 1) % f.count;
    const Side si = Classify(s[i], tol), sj = Classify(s[j], tol);
    const Vec3& p = cur.points[i];
    if (si != kOut) {
      PushPoint(next->points, begin, p, tol2);
      if (si == kOn) cap->push_back(p);
    }
    if ((si == kIn && sj == kOut) || (si == kOut && sj == kIn)) {
      // Interpolate from the inner end point so both faces sharing the edge agree bitwise.
      const int in = si == kIn ? i : j, out = si == kIn ? j : i;
      const double t = s[in] / (s[in] - s[out]);
      const Vec3 x = cur.points[in] + t * (cur.points[out] - cur.points[in]);
      PushPoint(next->points, begin, x, tol2);
      cap->push_back(x);
    }
  }
  int count = static_cast<int>(next->points.size()) - begin;
  while (count > 1 && (next->points.back() - next->points[begin]).squaredNorm() <= tol2) {
    next->points.pop_back();
    --count;
  }
  if (count < 3) {
    next->points.resize(begin);
    return;
  }
  ClipFace g = f;
  g.begin = begin;
  g.count = count;
  next->faces.push_back(g);
}

// Appends the convex hull of the cap points (plane normal n) to `next` as a new face, counter-
// clockwise seen from outside (along n). Monotone chain in a plane basis (u, v), u x v = n.
void AppendCap(const Vec3& n, int face_b, double tol, Scratch& w, ClipPolytope* next) {
  const std::vector<Vec3>& cap = w.cap;
  const int m = static_cast<int>(cap.size());
  if (m < 3) return;
  const Vec3 u = (std::abs(n.x()) < 0.9 ? Vec3::UnitX().cross(n) : Vec3::UnitY().cross(n))
                     .normalized();
  const Vec3 v = n.cross(u);
  w.uv.resize(m);
  for (int i = 0; i < m; ++i) w.uv[i] = {u.dot(cap[i]), v.dot(cap[i])};
  w.order.resize(m);
  for (int i = 0; i < m; ++i) w.order[i] = i;
  std::sort(w.order.begin(), w.order.end(), [&](int i, int j) { return w.uv[i] < w.uv[j]; });
  // Left turn test: the point c is more than tol to the left of the line a->b.
  const double tol2 = tol * tol;
  auto left = [&](int a, int b, int c) {
    const double ex = w.uv[b].first - w.uv[a].first, ey = w.uv[b].second - w.uv[a].second;
    const double fx = w.uv[c].first - w.uv[a].first, fy = w.uv[c].second - w.uv[a].second;
    const double cross = ex * fy - ey * fx;
    return cross > 0.0 && cross * cross > tol2 * std::max(ex * ex + ey * ey, fx * fx + fy * fy);
  };
  std::vector<int>& h = w.hull;
  h.clear();
  for (int pass = 0; pass < 2; ++pass) {
    const size_t base = h.size();
    for (int k = 0; k < m; ++k) {
      const int i = pass == 0 ? w.order[k] : w.order[m - 1 - k];
      while (h.size() >= base + 2 && !left(h[h.size() - 2], h.back(), i)) h.pop_back();
      h.push_back(i);
    }
    h.pop_back();  // the last point starts the other chain
  }
  if (h.size() < 3) return;
  ClipFace f;
  f.begin = static_cast<int>(next->points.size());
  f.count = static_cast<int>(h.size());
  f.face_a = -1;
  f.face_b = face_b;
  f.normal = n;
  for (int i : h) next->points.push_back(cap[i]);
  next->faces.push_back(f);
}

// Clips `poly` by the half-space n.x <= d (face j of b). Returns false if nothing remains.
bool ClipByPlane(const Vec3& n, double d, int j, double tol, Scratch& w, ClipPolytope* poly) {
  const int np = static_cast<int>(poly->points.size());
  w.s.resize(np);
  double smin = 0.0, smax = 0.0;
  for (int i = 0; i < np; ++i) {
    w.s[i] = n.dot(poly->points[i]) - d;
    smin = i == 0 ? w.s[i] : std::min(smin, w.s[i]);
    smax = i == 0 ? w.s[i] : std::max(smax, w.s[i]);
  }
  if (smin >= -tol) return false;  // on or outside the plane: empty or flat
  if (smax <= tol) {
    // No cut; a face of equal orientation lying on the plane becomes shared with face j.
    for (ClipFace& f : poly->faces) {
      if (f.face_b >= 0 || f.normal.dot(n) <= 0.0) continue;
      bool on = true;
      for (int k = 0; k < f.count && on; ++k) on = std::abs(w.s[f.begin + k]) <= tol;
      if (on) f.face_b = j;
    }
    return true;
  }
  ClipPolytope& next = w.next;
  next.clear();
  w.cap.clear();
  for (const ClipFace& f : poly->faces) ClipFacePolygon(*poly, f, w.s, tol, &next, &w.cap);
  AppendCap(n, j, tol, w, &next);
  std::swap(poly->points, next.points);
  std::swap(poly->faces, next.faces);
  return poly->faces.size() >= 4;
}

// Face normals and offsets of c into n, d.
void FacePlanes(const geometry::Convex& c, std::vector<Vec3>* n, std::vector<double>* d) {
  const int nf = static_cast<int>(c.faces.size());
  n->resize(nf);
  d->resize(nf);
  for (int f = 0; f < nf; ++f) (*n)[f] = ConvexFaceNormal(c, f, &(*d)[f]);
}

// True if all vertices of c lie on or outside one of the planes (n, d) (within tol).
bool SeparatedByPlanes(const std::vector<Vec3>& n, const std::vector<double>& d,
                       const geometry::Convex& c, double tol) {
  for (size_t f = 0; f < n.size(); ++f) {
    bool outside = true;
    for (const Vec3& x : c.vertices) {
      if (n[f].dot(x) - d[f] < -tol) {
        outside = false;
        break;
      }
    }
    if (outside) return true;
  }
  return false;
}

}  // namespace

double ClipPolytope::FaceArea(int f) const {
  const ClipFace& g = faces[f];
  const Vec3& p0 = points[g.begin];
  Vec3 sum = Vec3::Zero();
  for (int k = 1; k + 1 < g.count; ++k)
    sum += (points[g.begin + k] - p0).cross(points[g.begin + k + 1] - p0);
  return std::max(0.0, 0.5 * g.normal.dot(sum));
}

double ClipPolytope::Volume(Vec3* centroid) const {
  Vec3 o = Vec3::Zero();
  for (const Vec3& p : points) o += p;
  if (!points.empty()) o /= static_cast<double>(points.size());
  double vol6 = 0.0;
  Vec3 moment = Vec3::Zero();  // sum of 6 * vol_i * 4 * centroid_i relative to o
  for (const ClipFace& g : faces) {
    const Vec3 p0 = points[g.begin] - o;
    for (int k = 1; k + 1 < g.count; ++k) {
      const Vec3 p1 = points[g.begin + k] - o;
      const Vec3 p2 = points[g.begin + k + 1] - o;
      const double v6 = p0.dot(p1.cross(p2));
      vol6 += v6;
      moment += v6 * (p0 + p1 + p2);
    }
  }
  if (centroid) *centroid = vol6 != 0.0 ? Vec3(o + moment / (4.0 * vol6)) : o;
  return vol6 / 6.0;
}

Vec3 ConvexFaceNormal(const geometry::Convex& c, int f, double* offset) {
  const std::vector<int>& idx = c.faces[f].vertices;
  const int m = static_cast<int>(idx.size());
  if (m == 0) {
    if (offset) *offset = 0.0;
    return Vec3::UnitZ();
  }
  // Newell's normal as a fan of cross products about the first vertex.
  const Vec3& p0 = c.vertices[idx[0]];
  Vec3 sum = p0;
  Vec3 n = Vec3::Zero();
  Vec3 e = c.vertices[idx[1 % m]] - p0;
  sum += c.vertices[idx[1 % m]];
  for (int k = 2; k < m; ++k) {
    const Vec3& q = c.vertices[idx[k]];
    const Vec3 e2 = q - p0;
    n += e.cross(e2);
    e = e2;
    sum += q;
  }
  const double len = n.norm();
  n = len > 0.0 ? Vec3(n / len) : Vec3::UnitZ();
  if (offset) *offset = n.dot(sum) / (m > 1 ? m : 1);
  return n;
}

double ClipTolerance(const geometry::Convex& a, const geometry::Convex& b) {
  double scale = 0.0;
  for (const Vec3& x : a.vertices) scale = std::max(scale, x.cwiseAbs().maxCoeff());
  for (const Vec3& x : b.vertices) scale = std::max(scale, x.cwiseAbs().maxCoeff());
  return 1e-12 * std::max(scale, 1e-300);
}

bool IntersectConvexes(const geometry::Convex& a, const geometry::Convex& b, double tol,
                       ClipPolytope* out) {
  return IntersectConvexes(a, b, tol, 0.0, out, nullptr);
}

namespace {

// min over the vertices of c of n.x - d.
double MinDistance(const Vec3& n, double d, const geometry::Convex& c) {
  double m = std::numeric_limits<double>::infinity();
  for (const Vec3& x : c.vertices) m = std::min(m, n.dot(x) - d);
  return m;
}

}  // namespace

int NearlySeparatingFaces(const geometry::Convex& c, const geometry::Convex& other,
                          double swell) {
  int count = 0;
  for (int f = 0; f < static_cast<int>(c.faces.size()); ++f) {
    double d = 0.0;
    const Vec3 n = ConvexFaceNormal(c, f, &d);
    if (c.faces[f].vertices.size() >= 3 && MinDistance(n, d, other) >= -swell) ++count;
  }
  return count;
}

bool IntersectConvexes(const geometry::Convex& a, const geometry::Convex& b, double tol,
                       double swell, ClipPolytope* out, int* swollen) {
  Scratch& w = GetScratch();
  out->clear();
  FacePlanes(a, &w.na, &w.da);
  FacePlanes(b, &w.nb, &w.db);
  int moved = 0;
  if (swell > 0.0) {
    for (size_t j = 0; j < w.nb.size(); ++j) {
      if (b.faces[j].vertices.size() >= 3 && MinDistance(w.nb[j], w.db[j], a) >= -swell) {
        w.db[j] += swell;
        ++moved;
      }
    }
  }
  if (swollen) *swollen = moved;
  // Cheap rejection by the face planes of either convex (a's planes only without swelling:
  // the swollen b's corners are not at hand).
  if (SeparatedByPlanes(w.nb, w.db, a, tol) ||
      (moved == 0 && SeparatedByPlanes(w.na, w.da, b, tol)))
    return false;
  // Start from a; clip by the planes of b.
  for (int f = 0; f < static_cast<int>(a.faces.size()); ++f) {
    const std::vector<int>& idx = a.faces[f].vertices;
    if (idx.size() < 3) continue;
    ClipFace g;
    g.begin = static_cast<int>(out->points.size());
    g.count = static_cast<int>(idx.size());
    g.face_a = f;
    g.normal = w.na[f];
    for (int i : idx) out->points.push_back(a.vertices[i]);
    out->faces.push_back(g);
  }
  for (int j = 0; j < static_cast<int>(b.faces.size()); ++j) {
    if (b.faces[j].vertices.size() < 3) continue;
    if (!ClipByPlane(w.nb[j], w.db[j], j, tol, w, out)) {
      out->clear();
      return false;
    }
  }
  return out->faces.size() >= 4;
}

}  // namespace solfec::contact
