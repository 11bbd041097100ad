// HULL: convex hull of a point set with qhull (reentrant libqhull_r), coplanar facets merged.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "base/errors.h"
#include "base/math.h"
#include "geometry/shape.h"

extern "C" {
#include <libqhull_r/libqhull_r.h>
}

namespace solfec::geometry {
namespace {

// Relative thickness (times the bounding-box diagonal) below which a point set is flat.
constexpr double kFlatTolerance = 1e-9;

[[noreturn]] void Fail(const std::string& routine, const std::string& what,
                       const std::string& fix) {
  throw InputError(routine + ": " + what + " (argument 'points'); " + fix);
}

// Rejects point sets that are too small, non-finite, coincident, collinear or coplanar.
void CheckPoints(const std::vector<Vec3>& points, const std::string& routine) {
  const int n = static_cast<int>(points.size());
  if (n < 4) {
    Fail(routine, std::to_string(n) + " points given",
         "a hull needs at least 4 points not in one plane");
  }
  Aabb box;
  for (int i = 0; i < n; ++i) {
    if (!points[i].allFinite()) {
      Fail(routine, "point " + std::to_string(i) + " has a non-finite coordinate",
           "give finite coordinates");
    }
    box.Extend(points[i]);
  }
  const double tol = kFlatTolerance * (box.hi - box.lo).norm();
  auto farthest = [&](auto distance) {
    int best = 0;
    for (int i = 1; i < n; ++i) {
      if (distance(points[i]) > distance(points[best])) best = i;
    }
    return best;
  };
  const Vec3 p0 = points[0];
  const Vec3 p1 = points[farthest([&](const Vec3& p) { return (p - p0).norm(); })];
  if (!((p1 - p0).norm() > tol)) Fail(routine, "points coincide", "give distinct points");
  const Vec3 u = (p1 - p0).normalized();
  auto line_distance = [&](const Vec3& p) { return (p - p0).cross(u).norm(); };
  const Vec3 p2 = points[farthest(line_distance)];
  if (!(line_distance(p2) > tol)) {
    Fail(routine, "points are collinear", "give points spanning a solid");
  }
  const Vec3 w = u.cross(p2 - p0).normalized();
  auto plane_distance = [&](const Vec3& p) { return std::abs(w.dot(p - p0)); };
  if (!(plane_distance(points[farthest(plane_distance)]) > tol)) {
    Fail(routine, "points are coplanar", "give points spanning a solid");
  }
}

// Orders a facet's points counter-clockwise seen along +normal (2-d monotone chain in the
// facet plane), dropping points inside the polygon or on its edges.
std::vector<int> OrderFacet(const std::vector<Vec3>& points, std::vector<int> ids,
                            const Vec3& normal, double scale) {
  const Mat3 base = BaseFromNormal(normal);
  auto xy = [&](int i) {
    return Eigen::Vector2d(points[i].dot(base.col(0)), points[i].dot(base.col(1)));
  };
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    const Eigen::Vector2d pa = xy(a), pb = xy(b);
    return pa.x() < pb.x() || (pa.x() == pb.x() && pa.y() < pb.y());
  });
  const double eps = 1e-12 * scale * scale;
  auto cross = [&](int o, int a, int b) {
    const Eigen::Vector2d oa = xy(a) - xy(o), ob = xy(b) - xy(o);
    return oa.x() * ob.y() - oa.y() * ob.x();
  };
  std::vector<int> hull(2 * ids.size());
  size_t k = 0;
  for (size_t i = 0; i < ids.size(); ++i) {  // lower chain
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], ids[i]) <= eps) --k;
    hull[k++] = ids[i];
  }
  for (size_t i = ids.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && cross(hull[k - 2], hull[k - 1], ids[i]) <= eps) --k;
    hull[k++] = ids[i];
  }
  hull.resize(k > 0 ? k - 1 : 0);
  return hull;
}

}  // namespace

Convex Hull(const std::vector<Vec3>& points, int volid, int surfid, const std::string& routine) {
  CheckPoints(points, routine);
  const int n = static_cast<int>(points.size());
  std::vector<coordT> coords(3 * points.size());
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) coords[3 * i + d] = points[i][d];
  }
  const Aabb box = [&] {
    Aabb b;
    for (const Vec3& p : points) b.Extend(p);
    return b;
  }();
  const double scale = (box.hi - box.lo).norm();

  // Default 3-d qhull options merge coplanar facets ('C-0', 'Qx'); all messages go to a null
  // sink so that nothing is printed.
  FILE* sink = std::fopen("/dev/null", "w");
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, sink);
  char command[] = "qhull";
  const int exitcode = qh_new_qhull(qh, 3, n, coords.data(), False, command, nullptr, sink);
  std::vector<std::vector<int>> facets;
  std::vector<Vec3> normals;
  if (exitcode == 0) {
    facetT* facet;
    vertexT* vertex;
    vertexT** vertexp;
    FORALLfacets {
      std::vector<int> ids;
      FOREACHvertex_(facet->vertices) { ids.push_back(qh_pointid(qh, vertex->point)); }
      facets.push_back(std::move(ids));
      normals.emplace_back(facet->normal[0], facet->normal[1], facet->normal[2]);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (sink) std::fclose(sink);
  if (exitcode != 0 || facets.size() < 4) {
    Fail(routine, "qhull could not build the hull (nearly flat or degenerate point set)",
         "give points spanning a solid");
  }

  // Polygonal faces over renumbered hull vertices.
  Convex hull;
  hull.volid = volid;
  std::vector<int> index(points.size(), -1);
  for (size_t f = 0; f < facets.size(); ++f) {
    std::vector<int> polygon = OrderFacet(points, facets[f], normals[f], scale);
    if (polygon.size() < 3) continue;
    for (int& p : polygon) {
      if (index[p] < 0) {
        index[p] = static_cast<int>(hull.vertices.size());
        hull.vertices.push_back(points[p]);
      }
      p = index[p];
    }
    hull.faces.push_back(ConvexFace{std::move(polygon), surfid});
  }
  hull.Validate(routine);
  return hull;
}

}  // namespace solfec::geometry
