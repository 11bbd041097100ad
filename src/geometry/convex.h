// Convex polyhedron: vertices, faces with surface ids, volume id (manual 4.1.1 CONVEX).
#pragma once

#include <string>
#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"
#include "geometry/mass_properties.h"

namespace solfec::geometry {

struct ConvexFace {
  std::vector<int> vertices;  // counter-clockwise seen from outside
  int surfid = 0;
};

struct Convex {
  std::vector<Vec3> vertices;
  std::vector<ConvexFace> faces;
  int volid = 0;
  // Indices (in the owning Shape's convex list) of convexes sharing a face with this one:
  // topological adjacency used by contact sparsification (manual Algorithm 6.1).
  std::vector<int> neighbors;

  // Checks that the data describe a closed convex polyhedron with outward faces; throws
  // InputError naming `routine` (e.g. "CONVEX") on degeneracy: fewer than 4 vertices, a
  // face with < 3 vertices or an index out of range, zero volume, inward or non-convex faces.
  void Validate(const std::string& routine) const;

  // Unit outward normal of face f (Newell's method; robust for non-triangular faces).
  Vec3 FaceNormal(int f) const;
  // Face plane offset: FaceNormal(f).dot(x) == FacePlaneOffset(f) on the face.
  double FacePlaneOffset(int f) const;
  Aabb Bounds() const;
  MassProperties ComputeMassProperties() const;
  // x -> A x + t for every vertex (A may scale; faces flip order if det(A) < 0).
  void Transform(const Mat3& A, const Vec3& t);
  // Vertex furthest along direction d.
  Vec3 Support(const Vec3& d) const;
  bool Contains(const Vec3& p, double eps = 0.0) const;
};

}  // namespace solfec::geometry
