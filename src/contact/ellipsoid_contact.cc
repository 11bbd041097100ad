// Narrow phase of ellipsoids: Newton maximisation of the support-function gap.
#include "contact/ellipsoid_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "base/math.h"
#include "contact/convex_clip.h"

namespace solfec::contact {

namespace {

constexpr int kMaxIterations = 100;
// Converged when the Riemannian gradient is below this fraction of the problem's scale.
constexpr double kGradientTolerance = 1e-13;
// Contact areas (used by sparsification) are clamped below by this fraction of pi r^2.
constexpr double kMinAreaFraction = 1e-6;

// sqrt(n^T Q n) and Q n.
struct Half {
  double s = 0.0;
  Vec3 Qn = Vec3::Zero();
};
Half Eval(const Mat3& Q, const Vec3& n) {
  Half h;
  h.Qn = Q * n;
  h.s = std::sqrt(std::max(n.dot(h.Qn), 0.0));
  return h;
}

double F(const SmoothSupport& a, const SmoothSupport& b, const Vec3& n) {
  return n.dot(b.center - a.center) - Eval(a.Q, n).s - Eval(b.Q, n).s;
}

// Euclidean gradient and Hessian of f at unit n.
void GradHess(const SmoothSupport& a, const SmoothSupport& b, const Vec3& n, Vec3* g, Mat3* H) {
  *g = b.center - a.center;
  H->setZero();
  for (const Mat3* Q : {&a.Q, &b.Q}) {
    const Half h = Eval(*Q, n);
    if (!(h.s > 0.0)) continue;  // a point: linear support
    *g -= h.Qn / h.s;
    *H -= (*Q - h.Qn * h.Qn.transpose() / (h.s * h.s)) / h.s;
  }
}

// Orthonormal tangent directions at n (two, or one normal to `axis`).
int Tangents(const Vec3& n, const Vec3* axis, Vec3 t[2]) {
  if (axis) {
    t[0] = axis->cross(n).normalized();
    return 1;
  }
  const Mat3 B = BaseFromNormal(n);
  t[0] = B.col(0);
  t[1] = B.col(1);
  return 2;
}

double DiscArea(double r, double gap) {
  const double s = r + gap;
  return kPi * std::max(r * r - s * s, kMinAreaFraction * r * r);
}

}  // namespace

SmoothSupport SupportOf(const geometry::Ellipsoid& e) { return {e.center, e.Q()}; }

SmoothSupport SupportOf(const geometry::Sphere& s) {
  return {s.center, s.radius * s.radius * Mat3::Identity()};
}

SupportGap MaximizeSupportGap(const SmoothSupport& a, const SmoothSupport& b, const Vec3& n0,
                              const Vec3* axis) {
  Vec3 ax = Vec3::Zero();
  if (axis) ax = axis->normalized();
  auto project = [&](Vec3 n) {  // onto the unit sphere (and the plane normal to the axis)
    if (axis) n -= ax * ax.dot(n);
    const double len = n.norm();
    if (!(len > 0.0)) {
      n = axis ? Vec3(BaseFromNormal(ax).col(0)) : Vec3(Vec3::UnitZ());
      return n;
    }
    return Vec3(n / len);
  };
  const double scale = (b.center - a.center).norm() + std::sqrt(a.Q.trace()) +
                       std::sqrt(b.Q.trace()) + std::numeric_limits<double>::min();
  SupportGap out;
  Vec3 n = project(n0);
  double f = F(a, b, n);
  for (int it = 0; it < kMaxIterations; ++it) {
    out.iterations = it + 1;
    Vec3 g;
    Mat3 H;
    GradHess(a, b, n, &g, &H);
    Vec3 t[2];
    const int m = Tangents(n, axis ? &ax : nullptr, t);
    // Riemannian gradient and Hessian in the tangent base (f is 1-homogeneous: n.g = f).
    Eigen::Vector2d gr = Eigen::Vector2d::Zero();
    Eigen::Matrix2d Hr = Eigen::Matrix2d::Identity();
    for (int i = 0; i < m; ++i) {
      gr[i] = t[i].dot(g);
      for (int j = 0; j < m; ++j) Hr(i, j) = t[i].dot(H * t[j]) - (i == j ? n.dot(g) : 0.0);
    }
    const double gnorm = gr.head(m).norm();
    if (gnorm <= kGradientTolerance * scale) {
      out.converged = true;
      break;
    }
    // Newton step where the Hessian is negative definite, else a gradient step.
    Eigen::Vector2d step = Eigen::Vector2d::Zero();
    bool newton = false;
    if (m == 1) {
      if (Hr(0, 0) < 0.0) step[0] = -gr[0] / Hr(0, 0), newton = true;
    } else {
      const Eigen::Matrix2d N = -Hr;
      Eigen::LLT<Eigen::Matrix2d> llt(N);
      if (llt.info() == Eigen::Success && N(0, 0) > 0.0 && N.determinant() > 0.0) {
        step = llt.solve(gr);
        newton = true;
      }
    }
    if (!newton)
      step.head(m) = 0.5 * gr.head(m) / (Hr.topLeftCorner(m, m).norm() + std::abs(f) + scale);
    // Steps beyond a quarter turn are cut (the sphere's chart is good to ~90 degrees).
    const double len = step.head(m).norm();
    if (len > 0.5) step *= 0.5 / len;
    Vec3 dn = Vec3::Zero();
    for (int i = 0; i < m; ++i) dn += step[i] * t[i];
    if (newton && gnorm < 1e-6 * scale) {  // quadratic convergence: f is flat to round-off
      n = project(n + dn);
      f = F(a, b, n);
      continue;
    }
    double alpha = 1.0;
    bool moved = false;
    for (int k = 0; k < 40; ++k, alpha *= 0.5) {
      const Vec3 trial = project(n + alpha * dn);
      const double ft = F(a, b, trial);
      if (ft >= f) {
        moved = ft > f || trial != n;
        n = trial;
        f = ft;
        break;
      }
    }
    if (!moved) {  // no ascent left within round-off
      out.converged = gnorm <= 1e-8 * scale;
      break;
    }
  }
  out.normal = n;
  out.gap = f;
  const Half ha = Eval(a.Q, n), hb = Eval(b.Q, n);
  out.pa = a.center + (ha.s > 0.0 ? Vec3(ha.Qn / ha.s) : Vec3::Zero());
  out.pb = b.center - (hb.s > 0.0 ? Vec3(hb.Qn / hb.s) : Vec3::Zero());
  return out;
}

SupportGap SmoothSignedDistance(const SmoothSupport& a, const SmoothSupport& b, const Mat3* axes_a,
                                const Mat3* axes_b) {
  const Vec3 d = b.center - a.center;
  SupportGap best = MaximizeSupportGap(a, b, d.norm() > 0.0 ? d : Vec3(Vec3::UnitZ()));
  if (best.gap >= 0.0) return best;  // apart: the maximum is unique (f concave on the ball)
  // Overlapping: f may have several local maxima on the sphere; try the axes too.
  for (const Mat3* axes : {axes_a, axes_b}) {
    if (!axes) continue;
    for (int i = 0; i < 3; ++i) {
      for (double sign : {1.0, -1.0}) {
        const Vec3 n0 = sign * axes->col(i);
        if (n0.dot(d) < 0.0) continue;
        const SupportGap s = MaximizeSupportGap(a, b, n0);
        if (s.gap > best.gap) best = s;
      }
    }
  }
  return best;
}

namespace {

std::optional<ContactGeometry> FromGap(const SupportGap& s, double epsilon, double r_area,
                                       int surf1, int surf2) {
  if (!(s.gap < epsilon)) return std::nullopt;
  ContactGeometry g;
  g.normal = s.normal;
  g.gap = std::min(0.0, s.gap);
  g.point = 0.5 * (s.pa + s.pb);
  g.area = DiscArea(r_area, g.gap);
  g.surf1 = surf1;
  g.surf2 = surf2;
  return g;
}

std::optional<ContactGeometry> Flip(std::optional<ContactGeometry> g) {
  if (!g) return g;
  g->normal = -g->normal;
  std::swap(g->surf1, g->surf2);
  return g;
}

}  // namespace

std::optional<ContactGeometry> EllipsoidEllipsoid(const geometry::Ellipsoid& a,
                                                  const geometry::Ellipsoid& b, double epsilon) {
  const SupportGap s = SmoothSignedDistance(SupportOf(a), SupportOf(b), &a.rot, &b.rot);
  return FromGap(s, epsilon, std::min(a.radii.minCoeff(), b.radii.minCoeff()), a.surfid, b.surfid);
}

std::optional<ContactGeometry> EllipsoidSphere(const geometry::Ellipsoid& a,
                                               const geometry::Sphere& b, double epsilon) {
  const SupportGap s = SmoothSignedDistance(SupportOf(a), SupportOf(b), &a.rot, nullptr);
  return FromGap(s, epsilon, std::min(a.radii.minCoeff(), b.radius), a.surfid, b.surfid);
}

std::optional<ContactGeometry> SphereEllipsoid(const geometry::Sphere& a,
                                               const geometry::Ellipsoid& b, double epsilon) {
  return Flip(EllipsoidSphere(b, a, epsilon));
}

SupportGap ConvexEllipsoidDistance(const geometry::Convex& a, const geometry::Ellipsoid& b) {
  const SmoothSupport E = SupportOf(b);
  auto h_convex = [&a](const Vec3& n) {
    double h = -std::numeric_limits<double>::infinity();
    for (const Vec3& v : a.vertices) h = std::max(h, n.dot(v));
    return h;
  };
  // The exact f(n) = min_B n.y - max_A n.x and its support points.
  auto score = [&](const Vec3& n) {
    SupportGap s;
    s.normal = n;
    const Half hb = Eval(E.Q, n);
    s.pb = E.center - (hb.s > 0.0 ? Vec3(hb.Qn / hb.s) : Vec3::Zero());
    s.gap = n.dot(s.pb) - h_convex(n);
    s.pa = s.pb - s.gap * n;  // on the convex's supporting plane, under p_B
    s.converged = true;
    return s;
  };
  SupportGap best;
  best.gap = -std::numeric_limits<double>::infinity();
  auto consider = [&best](const SupportGap& s) {
    if (s.gap > best.gap) best = s;
  };
  // Faces: the normal is the face normal (closed form).
  const int nf = static_cast<int>(a.faces.size());
  for (int f = 0; f < nf; ++f) {
    if (a.faces[f].vertices.size() < 3) continue;
    double offset = 0.0;
    consider(score(ConvexFaceNormal(a, f, &offset)));
  }
  // Vertices (a point against the ellipsoid) and edges (a point, the normal kept normal to
  // the edge): the exact score of their maximisers; a point inside the ellipsoid may have
  // several local maxima: the axes of the ellipsoid are tried as starts too.
  for (const Vec3& v : a.vertices) {
    const SmoothSupport P{v, Mat3::Zero()};
    consider(score(SmoothSignedDistance(P, E, nullptr, &b.rot).normal));
  }
  std::map<std::pair<int, int>, bool> seen;
  for (const geometry::ConvexFace& face : a.faces) {
    const int m = static_cast<int>(face.vertices.size());
    for (int k = 0; k < m; ++k) {
      int i = face.vertices[k], j = face.vertices[(k + 1) % m];
      if (i > j) std::swap(i, j);
      if (i == j || !seen.emplace(std::make_pair(i, j), true).second) continue;
      const Vec3 e = a.vertices[j] - a.vertices[i];
      if (!(e.norm() > 0.0)) continue;
      const Vec3 mid = 0.5 * (a.vertices[i] + a.vertices[j]);
      const SmoothSupport P{mid, Mat3::Zero()};
      const SupportGap s = MaximizeSupportGap(P, E, E.center - mid, &e);
      consider(score(s.normal));
      if (s.gap >= 0.0) continue;
      for (int c = 0; c < 3; ++c)
        for (double sign : {1.0, -1.0}) {
          const Vec3 n0 = sign * b.rot.col(c);
          if (n0.cross(e).norm() < 1e-6 * e.norm()) continue;  // along the edge
          consider(score(MaximizeSupportGap(P, E, n0, &e).normal));
        }
    }
  }
  return best;
}

std::optional<ContactGeometry> ConvexEllipsoid(const geometry::Convex& a,
                                               const geometry::Ellipsoid& b, double epsilon) {
  if (a.faces.empty() || a.vertices.empty()) return std::nullopt;
  const SupportGap s = ConvexEllipsoidDistance(a, b);
  if (!(s.gap < epsilon)) return std::nullopt;
  // Surface id: of the faces whose plane passes through p_A, the one best aligned with n.
  const geometry::Aabb box = a.Bounds();
  const double tol = 1e-6 * (box.hi - box.lo).norm();
  int face = -1;
  double best_dot = -std::numeric_limits<double>::infinity(), any_dot = best_dot;
  int any = 0;
  for (int f = 0; f < static_cast<int>(a.faces.size()); ++f) {
    if (a.faces[f].vertices.size() < 3) continue;
    double offset = 0.0;
    const Vec3 nf = ConvexFaceNormal(a, f, &offset);
    const double dot = nf.dot(s.normal);
    if (dot > any_dot) any_dot = dot, any = f;
    if (std::abs(nf.dot(s.pa) - offset) <= tol && dot > best_dot) best_dot = dot, face = f;
  }
  if (face < 0) face = any;
  return FromGap(s, epsilon, b.radii.minCoeff(), a.faces[face].surfid, b.surfid);
}

std::optional<ContactGeometry> EllipsoidConvex(const geometry::Ellipsoid& a,
                                               const geometry::Convex& b, double epsilon) {
  return Flip(ConvexEllipsoid(b, a, epsilon));
}

std::optional<ContactGeometry> EllipsoidPiecePair(const geometry::Shape& a, int pa,
                                                  const geometry::Shape& b, int pb,
                                                  double epsilon) {
  const int na = static_cast<int>(a.convexes.size()), nb = static_cast<int>(b.convexes.size());
  const int sa = na + static_cast<int>(a.spheres.size());
  const int sb = nb + static_cast<int>(b.spheres.size());
  if (pa >= sa) {
    const geometry::Ellipsoid& A = a.ellipsoids[pa - sa];
    if (pb < nb) return EllipsoidConvex(A, b.convexes[pb], epsilon);
    if (pb < sb) return EllipsoidSphere(A, b.spheres[pb - nb], epsilon);
    return EllipsoidEllipsoid(A, b.ellipsoids[pb - sb], epsilon);
  }
  const geometry::Ellipsoid& B = b.ellipsoids[pb - sb];
  if (pa < na) return ConvexEllipsoid(a.convexes[pa], B, epsilon);
  return SphereEllipsoid(a.spheres[pa - na], B, epsilon);
}

}  // namespace solfec::contact
