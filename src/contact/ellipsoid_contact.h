// Narrow phase of ellipsoids (ELLIP) against ellipsoids, spheres and convexes (also mesh
// elements as convexes): a support-function formulation.
//
// For convex sets A and B with support functions h_A, h_B the signed distance is
//   sd = max over unit n of f(n),  f(n) = -h_A(n) - h_B(-n),
// the distance when they are apart and minus the penetration depth (the shortest
// translation that separates them) when they overlap; the maximiser n is the contact normal
// (from A into B), and the support points p_A = argmax_A n.x, p_B = argmin_B n.x are the
// closest (deepest) points, with p_B - p_A = sd n. An ellipsoid has the smooth support
// function h(n) = c.n + sqrt(n^T Q n), Q = R diag(r)^2 R^T (a sphere: Q = r^2 I; a point:
// Q = 0), so f is maximised by Newton's method on the unit sphere (quadratic convergence;
// the Riemannian Hessian P H P - (n.g) P with P = I - n n^T). A convex's support function
// is piecewise linear: its face normals, and the maximisers over its vertices (a point) and
// edges (a point, n kept normal to the edge) are the candidates; each is scored with the
// exact f, which never exceeds sd, and the best one is the contact.
#pragma once

#include <optional>

#include "base/types.h"
#include "contact/narrow_phase.h"
#include "geometry/convex.h"
#include "geometry/ellipsoid.h"
#include "geometry/shape.h"
#include "geometry/sphere.h"

namespace solfec::contact {

// A smooth support function h(n) = center.n + sqrt(n^T Q n).
struct SmoothSupport {
  Vec3 center = Vec3::Zero();
  Mat3 Q = Mat3::Zero();
};

SmoothSupport SupportOf(const geometry::Ellipsoid& e);
SmoothSupport SupportOf(const geometry::Sphere& s);

// Local maximum of f(n) = -h_A(n) - h_B(-n) over unit n (n kept normal to *axis when axis
// is given), from the start n0; returns n (from A into B), f(n) and the support points.
struct SupportGap {
  Vec3 normal = Vec3::UnitZ();
  double gap = 0.0;
  Vec3 pa = Vec3::Zero(), pb = Vec3::Zero();
  int iterations = 0;
  bool converged = false;
};
SupportGap MaximizeSupportGap(const SmoothSupport& a, const SmoothSupport& b, const Vec3& n0,
                              const Vec3* axis = nullptr);

// Signed distance of two smooth pieces (the best local maximum from the centre line and,
// when they overlap, from the axes of both).
SupportGap SmoothSignedDistance(const SmoothSupport& a, const SmoothSupport& b,
                                const Mat3* axes_a = nullptr, const Mat3* axes_b = nullptr);

// Contacts: returned when the signed distance is below epsilon (GEOMETRIC_EPSILON, pieces
// closer than it touch, as the other pairs), with gap = min(0, signed distance), normal
// from the first piece into the second, point midway between the support points.
std::optional<ContactGeometry> EllipsoidEllipsoid(const geometry::Ellipsoid& a,
                                                  const geometry::Ellipsoid& b, double epsilon);
std::optional<ContactGeometry> EllipsoidSphere(const geometry::Ellipsoid& a,
                                               const geometry::Sphere& b, double epsilon);
std::optional<ContactGeometry> SphereEllipsoid(const geometry::Sphere& a,
                                               const geometry::Ellipsoid& b, double epsilon);
std::optional<ContactGeometry> ConvexEllipsoid(const geometry::Convex& a,
                                               const geometry::Ellipsoid& b, double epsilon);
std::optional<ContactGeometry> EllipsoidConvex(const geometry::Ellipsoid& a,
                                               const geometry::Convex& b, double epsilon);

// Piece pa of a against piece pb of b (pieces: convexes, spheres, ellipsoids), one of them
// an ellipsoid; normal from a into b.
std::optional<ContactGeometry> EllipsoidPiecePair(const geometry::Shape& a, int pa,
                                                  const geometry::Shape& b, int pb, double epsilon);

// Signed distance between a convex and an ellipsoid (normal from the convex).
SupportGap ConvexEllipsoidDistance(const geometry::Convex& a, const geometry::Ellipsoid& b);

}  // namespace solfec::contact
