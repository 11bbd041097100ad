// Contact patch points from the overlap polytope projected on the contact plane.
#include "contact/contact_patch.h"

#include <algorithm>
#include <cmath>

#include "base/math.h"
#include "contact/convex_clip.h"

namespace solfec::contact {

namespace {

using P2 = Eigen::Vector2d;

double Cross(const P2& o, const P2& a, const P2& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// Convex hull of 2D points (Andrew's monotone chain), counter-clockwise.
std::vector<P2> Hull2(std::vector<P2> p) {
  std::sort(p.begin(), p.end(),
            [](const P2& a, const P2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  if (p.size() < 3) return p;
  std::vector<P2> h(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && Cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && Cross(h[k - 2], h[k - 1], p[i - 1]) <= 0) --k;
    h[k++] = p[i - 1];
  }
  h.resize(k - 1);
  return h;
}

// Line distance of q from the line through a, b (signed by side).
double SideDistance(const P2& a, const P2& b, const P2& q) {
  const double len = (b - a).norm();
  return len > 0.0 ? Cross(a, b, q) / len : 0.0;
}

// Area centroid of a convex polygon (counter-clockwise), or (0, 0) if it has no area.
P2 AreaCentroid(const std::vector<P2>& hull) {
  double area = 0.0;
  P2 centroid = P2::Zero();
  for (size_t i = 1; i + 1 < hull.size(); ++i) {
    const double t = 0.5 * Cross(hull[0], hull[i], hull[i + 1]);
    area += t;
    centroid += t * (hull[0] + hull[i] + hull[i + 1]) / 3.0;
  }
  return area > 0.0 ? P2(centroid / area) : P2::Zero();
}
}  // namespace

std::vector<ContactGeometry> ConvexConvexPatch(const geometry::Convex& a,
                                               const geometry::Convex& b, double epsilon,
                                               int max_points, bool face_centroid) {
  std::vector<ContactGeometry> out;
  thread_local ClipPolytope poly;
  const auto base = ConvexConvexContact(a, b, epsilon, &poly);
  if (!base) return out;
  if ((max_points <= 1 && !face_centroid) || poly.points.empty()) {
    out.push_back(*base);
    return out;
  }

  // 2D coordinates of the polytope's points on the contact plane through the centroid.
  const Vec3 n = base->normal;
  const Mat3 frame = BaseFromNormal(n);
  const Vec3 t1 = frame.col(0), t2 = frame.col(1), c = base->point;
  std::vector<P2> pts;
  pts.reserve(poly.points.size());
  for (const Vec3& p : poly.points) pts.emplace_back(t1.dot(p - c), t2.dot(p - c));
  const std::vector<P2> hull = Hull2(std::move(pts));
  if (max_points <= 1) {  // face_centroid: the polygon's area centroid
    const P2 o = AreaCentroid(hull);
    out.push_back(*base);
    out[0].point = c + o.x() * t1 + o.y() * t2;
    return out;
  }

  // A patch smaller than a twentieth of the smaller piece is point-like (a corner or a
  // grazing edge): a single point there avoids nearly coincident, redundant constraints
  // that add no rotational resistance but slow the solver down.
  auto diagonal = [](const geometry::Convex& c) {
    Vec3 lo = c.vertices[0], hi = c.vertices[0];
    for (const Vec3& v : c.vertices) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
    return (hi - lo).norm();
  };
  const double size = std::min(diagonal(a), diagonal(b));
  double radius = 0.0;
  for (const P2& p : hull) radius = std::max(radius, p.norm());
  const double tiny = std::max({epsilon, 0.05 * size, 0.5 * std::abs(base->gap)});
  std::vector<P2> chosen;
  if (radius > tiny && hull.size() >= 2) {
    // p0 farthest from the centroid, p1 farthest from p0, then the farthest points from
    // the line p0-p1 on either side.
    auto far_from = [&](const P2& q) {
      return *std::max_element(hull.begin(), hull.end(), [&](const P2& x, const P2& y) {
        return (x - q).squaredNorm() < (y - q).squaredNorm();
      });
    };
    const P2 p0 = far_from(P2::Zero());
    const P2 p1 = far_from(p0);
    chosen = {p0, p1};
    if (max_points >= 3) {
      const P2* left = nullptr;
      const P2* right = nullptr;
      double dl = tiny, dr = -tiny;
      for (const P2& q : hull) {
        const double d = SideDistance(p0, p1, q);
        if (d > dl) dl = d, left = &q;
        if (d < dr) dr = d, right = &q;
      }
      if (left) chosen.push_back(*left);
      if (right && static_cast<int>(chosen.size()) < max_points) chosen.push_back(*right);
    }
  }
  if (chosen.size() < 2) {
    out.push_back(*base);
    return out;
  }
  const double area = base->area / static_cast<double>(chosen.size());
  for (const P2& q : chosen) {
    ContactGeometry g = *base;
    g.point = c + q.x() * t1 + q.y() * t2;
    g.area = area;
    out.push_back(g);
  }
  return out;
}

}  // namespace solfec::contact
