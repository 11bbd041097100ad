// Narrow phase: contact point, normal, gap and area from the overlap of two shape pieces
// (manual chapter 6.1): convex-convex, convex-sphere, sphere-sphere.
#pragma once

#include <optional>

#include "base/types.h"
#include "geometry/convex.h"
#include "geometry/sphere.h"

namespace solfec::contact {

// A detected overlap. normal is a unit vector pointing from piece 1 into piece 2 (outward
// of piece 1); gap <= 0 is minus the penetration depth along the normal; area is the
// contact area estimate; surf1/surf2 are the surface ids of the touching faces.
struct ContactGeometry {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double gap = 0.0;
  double area = 0.0;
  int surf1 = 0, surf2 = 0;
};

// Returns the contact if the pieces overlap (gap < 0 beyond epsilon), nullopt otherwise.
// `epsilon` is the geometric tolerance (GEOMETRIC_EPSILON).
std::optional<ContactGeometry> ConvexConvex(const geometry::Convex& a, const geometry::Convex& b,
                                            double epsilon);
// The same, leaving the intersection polytope in *polytope (used by contact patches).
struct ClipPolytope;
std::optional<ContactGeometry> ConvexConvex(const geometry::Convex& a, const geometry::Convex& b,
                                            double epsilon, ClipPolytope* polytope);
// Contact detection (Solfec-1.0's rule, manual 6.1): pieces closer than `epsilon` touch.
// The overlap of a with b swollen by epsilon gives the normal, point and area; the gap is
// minus the penetration depth, 0 for pieces that touch or are less than epsilon apart.
std::optional<ContactGeometry> ConvexConvexContact(const geometry::Convex& a,
                                                   const geometry::Convex& b, double epsilon,
                                                   ClipPolytope* polytope);
std::optional<ContactGeometry> ConvexSphere(const geometry::Convex& a, const geometry::Sphere& b,
                                            double epsilon);
std::optional<ContactGeometry> SphereConvex(const geometry::Sphere& a, const geometry::Convex& b,
                                            double epsilon);
std::optional<ContactGeometry> SphereSphere(const geometry::Sphere& a, const geometry::Sphere& b,
                                            double epsilon);

}  // namespace solfec::contact
