// A MESH split by a plane that cuts through its elements, as Solfec-1.0 does it (msh.c
// MESH_Split with remesh): the boundary surface is cut by the plane into the closed surfaces
// of the two sides (the boundary faces clipped by the plane plus the cross-section of the
// elements), each side is filled with tetrahedra by TetGen, and the new faces on the cut get
// the given surface ids. The mesher is passed in (python/solfec/tetgen.py runs TetGen).
#pragma once

#include <array>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/types.h"
#include "geometry/mesh.h"

namespace solfec::domain {

// A tetrahedral mesh of a closed triangulated surface: nodes, tetrahedra (positive volume),
// boundary triangles and their markers (those of the input triangles they lie on).
struct TetMesh {
  std::vector<Vec3> nodes;
  std::vector<std::array<int, 4>> tets;
  std::vector<std::array<int, 3>> faces;
  std::vector<int> markers;
};
// (points, triangles, markers >= 1) -> TetMesh; throws on failure.
using Tetrahedralizer = std::function<TetMesh(const std::vector<Vec3>&,
                                              const std::vector<std::array<int, 3>>&,
                                              const std::vector<int>&)>;

// The plane section of a mesh: `points` holds the mesh nodes (same numbers) followed by the
// points where the plane crosses element edges; `section` the triangles of the cross-section
// (the elements' cut polygons and inter-element faces on the plane), `section_element` the
// element each lies in (-1: an inter-element face); `below`, `above` the boundary faces
// clipped to each side as triangles with their surface ids. Nodes within `tol` of the plane
// count as on it. `crossing`: the elements the plane cuts through.
struct MeshSection {
  std::vector<Vec3> points;
  std::vector<std::array<int, 3>> section;
  std::vector<int> section_element;
  std::vector<std::array<int, 3>> below, above;
  std::vector<int> below_sid, above_sid;
  int crossing = 0;
  std::vector<int> sign;                          // of each node: -1 below, 0 on, +1 above
  std::map<std::pair<int, int>, int> crossings;   // element edge (a < b) -> its point
};
MeshSection CutMeshByPlane(const geometry::Mesh& mesh, const Vec3& point, const Vec3& normal);

// True when the section triangles form one edge-connected piece.
bool SectionConnected(const MeshSection& s);
// The section triangles of the edge-connected piece holding the triangle nearest to `point`.
std::vector<int> SectionPiece(const MeshSection& s, const Vec3& point);

// The parts of `mesh` below and above the plane (point, normal), each side tetrahedralized
// by `tetgen` and separated into its connected pieces: below parts first, then above (`below`
// receives how many are below). Cut faces get sids.first on the parts below (outward normal
// +normal), sids.second above; other boundary faces keep their ids; a tetrahedron gets the
// volume id volid_at(its centroid). Throws InputError naming `routine` when the plane misses
// the mesh's inside or the mesher fails.
std::vector<geometry::Mesh> RemeshSplit(const geometry::Mesh& mesh, const Vec3& point,
                                        const Vec3& normal, std::pair<int, int> sids,
                                        const Tetrahedralizer& tetgen,
                                        const std::function<int(const Vec3&)>& volid_at,
                                        const std::string& routine, int* below = nullptr);

// topoadj: the mesh re-meshed whole (TetGen) with the section piece next to `point`
// (SectionPiece) as an inner facet, then split along that facet's faces (SplitMeshAtFaces:
// one part when the cut leaves the mesh connected, e.g. a ring cut once, else two or more).
// Cut faces get sids.first where their outward normal is +normal, sids.second otherwise.
std::vector<geometry::Mesh> RemeshSlit(const geometry::Mesh& mesh, const Vec3& point,
                                       const Vec3& normal, std::pair<int, int> sids,
                                       const Tetrahedralizer& tetgen,
                                       const std::function<int(const Vec3&)>& volid_at,
                                       const std::string& routine);

}  // namespace solfec::domain
