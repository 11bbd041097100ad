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
};

}  // namespace solfec::geometry
