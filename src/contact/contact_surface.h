// A body's surface for node-to-face contact: master faces (FE boundary faces or convex
// faces) and, for FINITE_ELEMENT meshes, the slave surface nodes, with their hierarchies.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/types.h"
#include "body/body.h"
#include "contact/surface_bvh.h"
#include "geometry/aabb.h"

namespace solfec::contact {

struct SurfaceFace {
  std::array<int, 4> vertices{};  // indices into ContactSurface::points, CCW from outside
  int size = 3;                   // 3 (triangle) or 4 (bilinear quadrilateral)
  int surfid = 0;
};

// Bounds lo_i <= n_i <= hi_i of a face's unit normal over its natural domain (up to 1 + 1e-6
// of its centre in s and t: the local test accepts projections up to 1e-9 outside).
struct NormalBounds {
  Vec3 lo = -Vec3::Ones(), hi = Vec3::Ones();
  // Whether every unit normal n within the bounds has m . n above 1e-9 |m|_1: then a node
  // of (unnormalised) normal m faces away from the face at every point of it, and the
  // local test, which needs m . n < 0 at the projection, rejects the pair. The margin is
  // far above the rounding of the bounds and of a projection's normal.
  bool FacedAwayBy(const Vec3& m) const {
    // Per component the lesser of m_i lo_i and m_i hi_i (no branch: hard to predict).
    const double least = std::min(m[0] * lo[0], m[0] * hi[0]) +
                         std::min(m[1] * lo[1], m[1] * hi[1]) +
                         std::min(m[2] * lo[2], m[2] * hi[2]);
    return least > 1e-9 * (std::abs(m[0]) + std::abs(m[1]) + std::abs(m[2]));
  }
};

// Mesh FE bodies (FINITE_ELEMENT without a background mesh): points are the mesh nodes
// (point i = node i), faces the mesh boundary faces, slave nodes the nodes on those faces.
// Other bodies whose shape holds only convexes: points are the convex vertices (convex
// after convex), faces the convex faces (quadrilaterals kept, larger polygons split into a
// fan of triangles); they are masters only. Faces and slave nodes are numbered once at
// Build; RefreshPoints and RefreshFaces update coordinates, free velocities (u_free), normals
// and boxes.
class ContactSurface {
 public:
  // Whether a body can be a slave (mesh FE body) or a master (slave-capable, or only
  // convexes in its shape).
  static bool CanBeSlave(const body::Body& b);
  static bool CanBeMaster(const body::Body& b);

  // Numbers faces and slave nodes of the body's current shape.
  void Build(const body::Body& b);
  // Current points, free velocities, bounds and face diameters (rebuilds the numbering if the
  // convex layout changed).
  void RefreshPoints(const body::Body& b);
  // The cheap alternative for a search that may not need this surface (a mesh surface
  // already built for b, not refreshed itself): the current point bounds and max speed, the
  // motion since the last RefreshPoints as a rigid motion (centroid shift, best-fit
  // rotation) plus a drift (the largest remaining point displacement), and upper bounds of
  // the face diameters, those of the last RefreshPoints plus twice the drift (the rigid
  // motion keeps distances; the drifts of two vertices change theirs by at most the sum);
  // faces, normals and hierarchies stay as they were (fresh() is false until the next
  // RefreshPoints). False, with nothing done, when it does not apply (mesh surfaces with
  // faces only; non-finite coordinates or velocities).
  bool Bound(const body::Body& b);
  // Then (the capture distance depends on every surface's speed and face size): face boxes
  // holding every point y = S + g n of the face's normal segment with
  // -(depth_fraction min(face diameter, depth_cap) + sink) <= g <= `inflate` (S on the face,
  // n its unit normal there; axis i grown by the bounds of g n_i over the face; `sink`: the
  // extra depth a local test may accept, a node's approach within half a step and existing
  // contacts' depth), their union (face_bounds()), and the slave-node normals and areas (one
  // pass over the faces). The face BVH is refitted by FitFaces, for the searches that use it.
  void RefreshFaces(double inflate, double depth_fraction, double depth_cap, double sink = 0.0);
  // A box holding every point a local test can accept of any face now, with these
  // RefreshFaces arguments, and every slave node (after Bound or RefreshPoints): the point
  // bounds grown by the largest reach beyond a face's vertices, intersected (after Bound)
  // with the last face boxes moved and grown by bounds of the motion since.
  geometry::Aabb ReachBox(double inflate, double depth_fraction, double depth_cap,
                          double sink = 0.0) const;
  // The face BVH refitted to the face boxes of the last RefreshFaces (once after each).
  void FitFaces();
  // The slave-node BVH refitted to the current points (after RefreshFaces; only the
  // three-stage search uses it).
  void FitNodes();
  // Temporal coherence of the three-stage search (a Verlet skin; after RefreshFaces): a
  // snapshot of the slave nodes and of the face boxes relative to the centroid c0 of the
  // points then, y0 = y - c0 and B0 = B - c0, with the slave-node BVH over the boxes
  // y0 + [-skin, skin]^3 and skin_face_bvh() over the boxes B0 grown by skin. The snapshot
  // holds while every node y is within `skin` of c + y0 in each coordinate and every face
  // box B within c + B0 grown by skin, c the current centroid (a surface that translates
  // keeps it); then a node y of a slave in a face box B of a master has
  // y0 + (c_slave - c_master) in B0 grown by skin_m + skin_s (the master's and the slave's
  // skins), so the node-face pairs of the two trees, the node tree shifted by
  // d = c_slave - c_master and grown by r, hold every pair with the node in the face's
  // current box while c_slave - c_master stays within r of d (NodeToFace keeps each pass's
  // pairs with its d and r). Retaken when it does not hold (a new version: unique in the
  // process, never 0, so a kept list can never pass for another surface's); `skin` is used
  // only then. Returns the version.
  std::uint64_t FitSkin(double skin);
  // The skin of the snapshot (FitSkin's argument then) and the centroid of the points (as of
  // the last RefreshPoints: current after it).
  double skin() const { return skin_; }
  const Vec3& centroid() const { return centroid_; }
  // The face BVH of the snapshot (FitSkin).
  const SurfaceBvh& skin_face_bvh() const { return skin_face_bvh_; }
  // The snapshot also holds only while each slave node's normal direction u = m / |m|_1 (m:
  // node_normals()) stays within kSkinTurn of its snapshot in each component, and each
  // face's normal bounds within kSkinTurn of theirs: skin_node_normals() are the ranges
  // u0 -+ kSkinTurn, skin_face_normals() the snapshot bounds grown by kSkinTurn, and a pair
  // with SkinFacedAway(node range, face range) stays culled (FacedAwayBy) while the
  // snapshots hold: it is left out of the kept pairs.
  static constexpr double kSkinTurn = 0.05;
  const std::vector<NormalBounds>& skin_node_normals() const { return skin_node_normals_; }
  const std::vector<NormalBounds>& skin_face_normals() const { return skin_face_normals_; }
  // Whether u . n > 1e-8 for every u within `node` and n within `face` (the least product
  // per component among the ranges' ends): then FacedAwayBy(m) for every such m.
  static bool SkinFacedAway(const NormalBounds& node, const NormalBounds& face) {
    double least = 0.0;
    for (int i = 0; i < 3; ++i)
      least += std::min(std::min(node.lo[i] * face.lo[i], node.lo[i] * face.hi[i]),
                        std::min(node.hi[i] * face.lo[i], node.hi[i] * face.hi[i]));
    return least > 1e-8;
  }
  // Node-face pairs, as of the snapshots, of one slave against this surface as the master
  // (NodeToFace's cache of stage 2; valid while both versions are current): the range
  // [begin, begin + count) of the owning NodeToFace's list of the search `stamp`.
  struct SkinPass {
    Id slave = kNoId;
    std::uint64_t master_version = 0, slave_version = 0;
    long stamp = 0;  // the last search that used it
    std::size_t begin = 0;
    int count = 0;
    // The shift d of the slave's node tree and its growth r at the traversal: the pairs
    // hold while c_slave - c_master stays within r of d (FitSkin).
    Vec3 shift = Vec3::Zero();
    double reach = 0.0;
  };
  std::vector<SkinPass>& skin_passes() { return skin_passes_; }
  // Bounds lo_i <= n_i <= hi_i (i = x, y, z) of the unit normal of the face x[0..n) over its
  // natural domain (-1 and 1 where no bound is found, e.g. a strongly warped quad).
  static void NormalRange(const Vec3* x, int n, Vec3& lo, Vec3& hi);
  // The bound ReachBox uses for face x[0..n): after its vertices move to R x_a + t + r_a
  // (R a rotation, |r_a| <= drift), the unit normal at every (s, t) of the face is within
  // this distance of R times the old one (2, i.e. none, where NormalRange has no bound).
  static double NormalChangeBound(const Vec3* x, int n, double drift);

  const body::Body* body() const { return body_; }
  bool is_mesh() const { return is_mesh_; }
  const std::vector<Vec3>& points() const { return points_; }
  const std::vector<Vec3>& ref_points() const { return ref_points_; }
  const std::vector<Vec3>& velocities() const { return velocities_; }  // u_free at points
  const std::vector<SurfaceFace>& faces() const { return faces_; }
  const std::vector<double>& face_diameters() const { return face_diam_; }
  const std::vector<geometry::Aabb>& face_boxes() const { return face_boxes_; }
  // Bounds of each face's unit normal over its natural domain (NormalRange, of the last
  // RefreshFaces).
  const std::vector<NormalBounds>& face_normal_bounds() const { return face_normals_; }
  const std::vector<int>& slave_nodes() const { return nodes_; }  // point indices
  // Slave-node index of each point (-1: not a slave node; empty for convex surfaces).
  const std::vector<int>& slave_slots() const { return slot_; }
  // Area-weighted normals of the slave nodes: the sums of the area vectors of the faces
  // around (outward, not unit: the search only needs their direction).
  const std::vector<Vec3>& node_normals() const { return node_normal_; }
  const std::vector<double>& node_areas() const { return node_area_; }
  const std::vector<int>& node_surfids() const { return node_surfid_; }
  const SurfaceBvh& face_bvh() const { return face_bvh_; }  // as of the last FitFaces
  // The union of the face boxes of the last RefreshFaces; whether there are such boxes.
  const geometry::Aabb& face_bounds() const { return face_bounds_; }
  bool has_face_boxes() const { return faces_refreshed_ && !faces_.empty(); }
  const SurfaceBvh& node_bvh() const { return node_bvh_; }
  const geometry::Aabb& bounds() const { return bounds_; }  // of the points
  double max_speed() const { return max_speed_; }           // max |u_free| over the points
  double mean_face_diameter() const { return mean_diam_; }
  // Whether points and faces are current (RefreshPoints since the last Bound).
  bool fresh() const { return fresh_; }
  // Set by the search for a surface of a stage-1 pair (refreshed directly next time).
  bool paired() const { return paired_; }
  void set_paired(bool p) { paired_ = p; }
  // Upper bounds of the largest and of the mean face diameter (exact when fresh).
  double max_diameter_bound() const { return max_bound_; }
  double mean_diameter_bound() const { return mean_bound_; }
  // Current vertex coordinates of face f into x[0..size), returns the size (inline: called
  // per face by the refresh and per node-face pair by the local test).
  int face_vertices(int f, Vec3* x) const {
    const SurfaceFace& sf = faces_[f];
    for (int a = 0; a < sf.size; ++a) x[a] = points_[sf.vertices[a]];
    return sf.size;
  }

 private:
  void BuildMesh(const body::Body& b);
  void BuildConvexes(const body::Body& b);
  bool LayoutChanged(const body::Body& b) const;

  const body::Body* body_ = nullptr;
  bool is_mesh_ = false;
  std::vector<int> layout_;  // convex vertex counts (layout check of convex surfaces)
  std::vector<Vec3> points_, ref_points_, velocities_;
  std::vector<SurfaceFace> faces_;
  std::vector<double> face_diam_;
  std::vector<geometry::Aabb> face_boxes_;
  std::vector<NormalBounds> face_normals_;
  std::vector<int> nodes_, node_surfid_, slot_;
  std::vector<Vec3> node_normal_;
  std::vector<double> node_area_;
  SurfaceBvh face_bvh_, node_bvh_, skin_face_bvh_;
  geometry::Aabb face_bounds_;
  bool faces_refreshed_ = false;   // RefreshFaces since Build
  bool face_tree_fitted_ = false;  // FitFaces since RefreshFaces
  // FitSkin's snapshot: valid (false after Build and FitNodes, which change the numbering or
  // the node tree), skin, version, nodes and face boxes (relative to the centroid then).
  bool skin_valid_ = false;
  double skin_ = 0.0;
  std::uint64_t skin_version_ = 0;
  std::vector<Vec3> skin_points_;
  std::vector<geometry::Aabb> skin_boxes_, skin_scratch_;
  std::vector<NormalBounds> skin_node_normals_, skin_face_normals_;
  std::vector<SkinPass> skin_passes_;
  bool SkinHolds() const;
  geometry::Aabb bounds_;
  double max_speed_ = 0.0, mean_diam_ = 0.0, max_diam_ = 0.0;
  double max_bound_ = 0.0, mean_bound_ = 0.0;
  bool fresh_ = false, paired_ = false;
  // Motion since the last RefreshPoints (Bound): x_i = centre_ + rotation_ (x_i^last -
  // centroid_) + r_i, |r_i| <= drift_ (centroid_: of the points then; centre_: now).
  Vec3 centroid_ = Vec3::Zero(), centre_ = Vec3::Zero();
  Mat3 rotation_ = Mat3::Identity();
  double drift_ = 0.0;
  // For ReachBox, of the last RefreshPoints: K >= k (|S_s| + |S_t|) over the faces and
  // k^2 (k: how much S_s, S_t move per unit of drift); of the last RefreshFaces: its
  // arguments and the smallest normal-bound |N| over the faces with one (0: none).
  double max_spread_ = 0.0, spread_square_ = 1.0;
  double fitted_inflate_ = 0.0, fitted_fraction_ = 0.0, fitted_cap_ = 0.0, fitted_sink_ = 0.0;
  double min_lower_ = 0.0;
};

}  // namespace solfec::contact
