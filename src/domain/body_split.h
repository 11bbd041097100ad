// Run-time splitting of bodies: SIMPLIFIED_CRACK (a PSEUDO_RIGID or FINITE_ELEMENT body splits
// along a plane once the normal tension there exceeds the strength ft) and RT_SPLIT (a
// FINITE_ELEMENT mesh body split along a set of its inter-element faces). The parts are new
// bodies of the domain; the parent is deleted. Solfec-1.0: cra.c, bod.c BODY_Split /
// BODY_Split_Mesh, msh.c MESH_Split / MESH_Split_By_Faces.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/types.h"
#include "body/body.h"
#include "domain/domain.h"
#include "geometry/mesh.h"
#include "domain/mesh_plane_remesh.h"

namespace solfec::domain {

// A prescribed crack plane of a body (SIMPLIFIED_CRACK, criterion TENSILE).
struct Crack {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitX();     // unit
  std::pair<int, int> surfids{0, 0};  // cut faces: first on the part below, second above
  bool topoadj = false;            // cut only what is connected to `point` across the plane
  double ft = 0.0;                 // tensile strength [Pa]
  double Gf = 0.0;                 // fracture energy [J/m^2] (stored; not used, as in Solfec-1.0)
  // A FINITE_ELEMENT mesh may be cut through its elements (re-meshed by a Tetrahedralizer;
  // set when the CrackSet has one).
  bool remesh = false;
  // Referential points where the tension is evaluated (set by PrepareCrack); FE bodies:
  // for each, the elements on both sides of the face with the natural coordinates there.
  std::vector<Vec3> samples;
  std::vector<std::pair<int, Vec3>> sample_elements;
};

// One part of a mesh split along faces: the part's mesh and, for each part node, the parent
// node it copies (ascending parent elements; nodes in first-use order).
struct SplitMeshPart {
  geometry::Mesh mesh;
  std::vector<int> elements;  // parent element of each part element
  std::vector<int> nodes;     // parent node of each part node
  // number of each part node in the split mesh as a whole: the parent's nodes keep theirs
  // (the copy in the group of the lowest element), further copies follow in node order
  std::vector<int> split_nodes;
};

// Splits `mesh` along the given faces (node lists of 3 or 4 parent nodes, any order of the
// list; their orientation gives a normal n_f by the right-hand rule): each listed face shared
// by two elements stops joining them, a node is duplicated for each group of its elements
// that no longer connects around it (so a face set ending inside the mesh leaves a slit that
// closes at its front), and the connected element groups become the parts. A cut face gets
// surface id sid1 on the element whose outward normal agrees with n_f, sid2 on the other.
// `matched` (if given) is the number of listed faces found between two elements.
std::vector<SplitMeshPart> SplitMeshAtFaces(const geometry::Mesh& mesh,
                                            const std::vector<std::vector<int>>& faces,
                                            int sid1, int sid2, int* matched = nullptr);

// Inter-element faces of `mesh` on the plane (point, normal), oriented with normal +n (the
// element below first). With topoadj only those connected (by shared edges) to the face
// nearest to `point`. `crossing` receives the number of elements the plane cuts through (a
// plane on element faces cuts none). Tolerance: 1e-8 of the mesh's bounding-box diagonal.
std::vector<std::vector<int>> MeshFacesOnPlane(const geometry::Mesh& mesh, const Vec3& point,
                                               const Vec3& normal, bool topoadj, int* crossing);

// Checks that `crack` can split body `b` (PSEUDO_RIGID: the plane cuts the shape;
// FINITE_ELEMENT: the plane runs along inter-element faces of the mesh or, with
// crack.remesh and a MESH shape, cuts through elements: RemeshSplit) and sets its sample
// points; throws InputError naming `routine` otherwise.
void PrepareCrack(const body::Body& b, Crack& crack, const std::string& routine);
// True when PrepareCrack would accept the crack for body b (sets the samples).
bool CrackApplies(const body::Body& b, Crack& crack);

// Largest normal tension n.sigma.n [Pa] (Cauchy stress) over the crack's sample points.
double CrackTension(const body::Body& b, const Crack& crack);

// Splits body `id` along the crack plane; returns the new bodies' ids (two or more parts, or
// one when the cut leaves the body connected: a slit), or none when nothing was cut. The
// parent is deleted; its user constraints, point loads and pressures move to the part holding
// their points; contacts are dropped (found again by the next step). A FINITE_ELEMENT MESH
// cut through elements is re-meshed by `tetgen` (RemeshSplit): the parts' node positions and
// velocities are the parent's motion x(X), v(X) interpolated at their referential points.
std::vector<Id> SplitBodyByPlane(Domain& d, Id id, const Crack& crack,
                                 const Tetrahedralizer* tetgen = nullptr);

// RT_SPLIT: splits FINITE_ELEMENT body `id` (a MESH shape) along `faces` (SplitMeshAtFaces).
// One part (a slit) or two parts become new bodies labelled label1 (the parent's label when
// empty and there is one part), label2; `node_maps` receives each part's parent nodes.
// Throws InputError naming RT_SPLIT: not a plain mesh body, no face matched ("No splitting
// happened"), more than two parts.
std::vector<Id> SplitBodyByFaces(Domain& d, Id id, const std::vector<std::vector<int>>& faces,
                                 int sid1, int sid2, const std::string& label1,
                                 const std::string& label2,
                                 std::vector<std::vector<int>>& node_maps);

// The cracks of a domain, checked after every step (Solfec-1.0 checks at the end of each
// step): a body whose tension exceeds ft at one of its cracks splits there; its other cracks
// pass to the parts they still cut.
class CrackSet {
 public:
  void Add(Id body, Crack crack) { cracks_.push_back({body, std::move(crack)}); }
  // One check of every crack; splits bodies; returns the (parent, parts) of this call.
  std::vector<std::pair<Id, std::vector<Id>>> Check(Domain& d);
  // Restart (solfec -c): the cracks of the bodies `gone` (split before the restored frame)
  // pass to those of `parts` they still cut, as the split itself would have passed them.
  void Remap(const Domain& d, const std::vector<Id>& gone, const std::vector<Id>& parts);
  int count() const { return static_cast<int>(cracks_.size()); }
  // The mesher for cracks through elements of FINITE_ELEMENT meshes (python: TetGen).
  void set_tetgen(Tetrahedralizer t) { tetgen_ = std::move(t); }
  bool has_tetgen() const { return static_cast<bool>(tetgen_); }
  int splits() const { return splits_; }

 private:
  std::vector<std::pair<Id, Crack>> cracks_;
  int splits_ = 0;
  Tetrahedralizer tetgen_;
};

}  // namespace solfec::domain
