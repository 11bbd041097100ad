// Volume mesh of first-order tetrahedra, pyramids, wedges and hexahedra (manual 4.1.2 MESH).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"
#include "geometry/convex.h"
#include "geometry/mass_properties.h"

namespace solfec::geometry {

// Node numbering follows manual Figure 4.1 (the usual VTK-like ordering):
// TET4 0-1-2 base, 3 apex; PYR5 0-1-2-3 base, 4 apex; WED6 0-1-2 bottom, 3-4-5 top;
// HEX8 0-1-2-3 bottom, 4-5-6-7 top.
struct MeshElement {
  int num_nodes = 0;             // 4, 5, 6 or 8
  std::array<int, 8> nodes{};    // first num_nodes used
  int volid = 0;
};

struct MeshFace {
  std::vector<int> nodes;  // 3 or 4 mesh node indices
  int surfid = 0;
};

struct Mesh {
  std::vector<Vec3> nodes;
  std::vector<MeshElement> elements;
  int default_surfid = 0;             // 'gid': surface id of faces not listed below
  std::vector<MeshFace> surface_faces;  // faces given explicit surface ids

  // Throws InputError naming `routine` and the element: unknown element size, node index
  // out of range, inverted or zero-volume element, listed face not on the boundary.
  void Validate(const std::string& routine) const;

  // Local faces of an element (outward, CCW from outside) as mesh node indices.
  static std::vector<std::vector<int>> ElementFaces(const MeshElement& e);
  // Boundary faces (faces belonging to one element only) with their surface ids.
  std::vector<MeshFace> BoundaryFaces() const;
  // Element e as a convex polyhedron; boundary faces keep their surface ids, inner faces
  // take default_surfid.
  Convex ElementConvex(int e) const;
  // One convex per element, with `neighbors` linking elements that share a face.
  std::vector<Convex> ToConvexes() const;
  // Indices of nodes on faces with surface id `surfid`.
  std::vector<int> NodesOnSurface(int surfid) const;

  Aabb Bounds() const;
  MassProperties ComputeMassProperties() const;
  void Transform(const Mat3& A, const Vec3& t);

  // BEND about the axis (point, direction) by `degrees` (0 < |degrees| <= 360). With d the
  // unit direction (negated together with the angle when degrees < 0), e the unit direction
  // normal to d along which the nodes spread most (largest eigenvalue of the covariance of
  // the nodes projected on the plane normal to d) and n = e x d oriented from the axis towards
  // the nodes (mean (x - p).n > 0), e := d x n, a node x = p + s e + r n + z d is mapped to
  //   x' = p + z d + r (cos(a) n + sin(a) e),  a = |degrees| (s - s_min) / (s_max - s_min),
  // i.e. the straight extent [s_min, s_max] is wrapped onto an arc about the axis keeping
  // each node's distance r from the axis (fibres at r are stretched by r a_total / length).
  // Throws InputError naming BEND for a zero direction, an angle out of range, a node with
  // r <= 0 (the axis must lie beside the mesh), a mesh without extent or an element that
  // the bend inverts.
  void Bend(const Vec3& point, const Vec3& direction, double degrees);
};

// ROUGH_HEX: an i x j x k hexahedral mesh (HEX grading dx, dy, dz) of the box bounding the
// convexes: of the axis-aligned box and the box aligned with the principal axes of the
// convexes' Euler tensor (axes ordered and signed to lie closest to x, y, z; right-handed),
// the one of smaller volume, enlarged by 1% of its size per side (at least 1e-9 of the
// diagonal). volid 0, all surface ids 0. Throws InputError naming ROUGH_HEX.
Mesh RoughHex(const std::vector<Convex>& convexes, int i, int j, int k,
              const std::vector<double>& dx, const std::vector<double>& dy,
              const std::vector<double>& dz);

}  // namespace solfec::geometry
