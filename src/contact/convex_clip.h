// Intersection polytope of two convex polyhedra by successive half-space clipping, with every
// face tagged by the input face(s) whose plane it lies on (manual 6.1, Figure 6.1).
#pragma once

#include <vector>

#include "base/types.h"
#include "geometry/convex.h"

namespace solfec::contact {

// A face of the intersection polytope: a convex polygon (points[begin, begin + count),
// counter-clockwise seen from outside) on the plane of face `face_a` of the first convex
// and/or face `face_b` of the second one (-1 if not on that convex's boundary; both >= 0
// when two faces with the same outward normal coincide).
struct ClipFace {
  int begin = 0, count = 0;
  int face_a = -1, face_b = -1;
  Vec3 normal = Vec3::UnitZ();  // unit outward normal (the plane normal of the source face)
};

// Boundary representation of a convex polytope as independent face polygons. Points are
// duplicated between faces (an edge's end points are bitwise equal in both faces).
struct ClipPolytope {
  std::vector<Vec3> points;
  std::vector<ClipFace> faces;

  void clear() {
    points.clear();
    faces.clear();
  }
  // Area of face f (>= 0).
  double FaceArea(int f) const;
  // Volume and volume centroid (cone decomposition from the mean point).
  double Volume(Vec3* centroid) const;
};

// Computes a ∩ b into `out` (cleared first). Points within `tol` of a clipping plane count
// as lying on it: exactly coplanar faces with equal orientation become one face tagged by
// both sources, and touching faces with opposite orientation give an empty result. Returns
// false if the intersection is empty or flat (no interior within `tol`). Reuses internal
// thread-local scratch buffers, so repeated calls do not allocate once warmed up.
bool IntersectConvexes(const geometry::Convex& a, const geometry::Convex& b, double tol,
                       ClipPolytope* out);
// The same with the faces of b that a penetrates by less than `swell` >= 0 (the nearly
// separating ones) swollen: their planes n.x <= d moved out to n.x <= d + swell (faces
// tagged by them lie on the moved planes); *swollen receives their number. Pieces that touch
// or are less than `swell` apart across such a face then give a thin polytope whose extent
// along the contact normal is the penetration depth plus `swell` (contact detection: pieces
// within GEOMETRIC_EPSILON touch). Side faces keep their planes, so the contact polygon is
// the true one.
bool IntersectConvexes(const geometry::Convex& a, const geometry::Convex& b, double tol,
                       double swell, ClipPolytope* out, int* swollen);
// The number of faces of c that `other` penetrates by less than `swell` (all of other's
// vertices at signed distance >= -swell from the face plane).
int NearlySeparatingFaces(const geometry::Convex& c, const geometry::Convex& other,
                          double swell);

// Unit outward normal of face f of c (Newell's method) and the plane offset n.x on it
// (from the face's vertex mean); local to the contact module so that it does not depend on
// the geometry implementation details.
Vec3 ConvexFaceNormal(const geometry::Convex& c, int f, double* offset);

// A geometric tolerance for coordinates of the given magnitude: a few thousand ulps of the
// largest absolute coordinate of both convexes (points closer to a plane than this are on it).
double ClipTolerance(const geometry::Convex& a, const geometry::Convex& b);

}  // namespace solfec::contact
