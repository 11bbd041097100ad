// Node-to-face contact (CONTACT_METHOD 'NODE_TO_FACE'): slave surface nodes of FE meshes
// against master faces, found by the three-stage search of the paper (octree over bodies,
// node BVH against face BVH, isoparametric projection). The search returns node-face pairs;
// the contact manager (domain/contact_manager.h) makes and deletes their constraints.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "base/types.h"
#include "body/body.h"
#include "contact/contact_surface.h"
#include "contact/face_projection.h"
#include "contact/octree.h"

namespace solfec::contact {

enum class ContactMethod { kOverlap, kNodeToFace };

// Stage 2 of the search done another way: the node-face pairs of a (master, slave) surface
// pair that go to the local test. The library's search is the three-stage one (octree over
// bodies, slave-node BVH, <= 8 nodes a leaf, against master-face BVH); other ways, which
// find the same contacts, are references for tests and benchmarks
// (tests/cpp/contact/reference_searches.h).
class PairFinder {
 public:
  virtual ~PairFinder() = default;
  // Whether every pair of surfaces is a pass (no octree; every surface refreshed in full) and
  // each pair is tested as it comes (brute force: 10^7 pairs and more, not listed).
  virtual bool exhaustive() const { return false; }
  // Of an exhaustive finder: the local test first rejects a node outside the face's inflated
  // box (which the rest of the test implies).
  virtual bool box_check() const { return false; }
  // Calls pair(k, f) for node-face pairs of the pass, k a slave node (an index into
  // slave.slave_nodes()) and f a master face; a pair may come more than once. The surfaces
  // are refreshed (points, faces and their boxes; their hierarchies are fitted here if
  // used). Returns the number of box tests made.
  virtual long Pairs(ContactSurface& master, ContactSurface& slave,
                     const std::function<void(int, int)>& pair) const = 0;
};

// An existing node-to-face contact, for the rule that keeps it (NodeToFaceOptions): the
// slave node of `slave` against a face of `master`, and its gap.
struct HeldContact {
  Id master = kNoId, slave = kNoId;
  int node = -1;
  double gap = 0.0;
};

struct NodeToFaceOptions {
  // A node in front of a face comes into contact when gap <= max(margin, h max(0, -v_N)),
  // v_N the normal relative free velocity (it would reach the face within the step); an
  // existing contact stays while gap <= max(margin, h max(0, -v_N), old gap + margin).
  // < 0: 1e-4 times the slave surface's mean face diameter.
  double margin = -1.0;
  // Deepest penetration still captured, as a fraction of the smaller of the face diameter
  // and the slave surface's mean face diameter; deeper by up to h/2 max(0, -v_N) (the search
  // runs at q(t+h/2): a node that came through the face within the half step, however fast)
  // and, for an existing contact of the node with the master body, by its previous depth.
  double depth_fraction = 0.2;
  // Temporal coherence of the three-stage search (ContactSurface::FitSkin), as a fraction of
  // each surface's mean face diameter: stage 2's node-face pairs of a master-slave pair are
  // kept from step to step while both surfaces' nodes and face boxes, relative to their
  // centroids, stay within this skin of their snapshots (and their normals within
  // ContactSurface::kSkinTurn of theirs) and the centroids' difference within the pass's
  // reach of its value at the traversal, and only their nodes in the faces' current boxes
  // go on to stage 3 (the same pairs as a fresh traversal). 0: the hierarchies are
  // traversed every search.
  double skin = 0.05;
};

// One slave node in contact with one master face.
struct NodeFaceContact {
  body::Body* master = nullptr;
  body::Body* slave = nullptr;
  int node = -1;        // slave mesh node
  int face = -1;        // master surface face
  FaceProjection projection;
  Vec3 master_ref = Vec3::Zero();  // referential point of the projection on the master
  Vec3 slave_ref = Vec3::Zero();   // referential point of the slave node
  body::MeshFacePoint master_face;  // mesh masters: master_ref as face nodes and weights
  double area = 0.0;               // tributary area of the slave node
  int surf_master = 0, surf_slave = 0;
};

// Timings [s] and counts of the last search: the total in CPU time of the searching thread,
// the stages in wall-clock time (a CPU-time call costs ~1.5 us on a virtual machine).
// refresh: surfaces and face hierarchies; bvh: stage 2, with the refit of the slave-node
// hierarchies of the three-stage search, which only it uses. The octree searches refresh in
// full only the surfaces of stage 1's pairs (and those not seen before); the others are
// bounded (ContactSurface::Bound).
struct NodeToFaceStats {
  double refresh = 0, octree = 0, bvh = 0, local = 0, total = 0;
  int body_pairs = 0;          // stage 1 output (ordered master-slave passes)
  long elementary_pairs = 0;   // stage 2 output (node-face pairs given to the local test)
  long box_tests = 0;          // BVH node-pair box tests
  int contacts = 0;            // stage 3 output
  int surfaces = 0;            // surfaces of the search
  int refreshed = 0;           // of them refreshed in full (the others only bounded)
  int octree_pairs = 0;        // stage 1 pairs before the refreshed boxes are compared
  int skin_kept = 0;           // three-stage passes whose stage-2 pairs were kept (skin)
  long skin_pairs = 0;         // the kept and new pairs checked against the current boxes
};

// Pairs of bodies and of surfaces that never touch (CONTACT_EXCLUDE_BODIES / _SURFACES).
struct NodeToFaceFilters {
  const std::set<std::pair<Id, Id>>* bodies = nullptr;
  const std::set<std::pair<int, int>>* surfaces = nullptr;
};

class NodeToFace {
 public:
  ContactMethod method = ContactMethod::kOverlap;
  NodeToFaceOptions options;
  // Stage 2 of Search another way (null: the three-stage search): benchmarks time each way
  // over a run of its own (all find the same contacts, so the runs are identical).
  std::shared_ptr<const PairFinder> pair_finder;

  bool enabled() const { return method == ContactMethod::kNodeToFace; }
  // A bound of the margin of b as a slave (the gap at which its nodes come into contact
  // with no approach speed): options.margin, or 1e-4 times the diagonal of b's current
  // bounding box `box`, which bounds its mean face diameter (0 for bodies that are never
  // slaves). solfec-mpi grows the ghost regions by it: bodies that close their gap to
  // within it must see each other.
  double SlaveMarginBound(const body::Body& b, const geometry::Aabb& box) const;
  // With NODE_TO_FACE: the pair is handled here (one body is a mesh FE body and the other
  // can be its master or slave; not two obstacles) and must be skipped by overlap contact.
  bool Handles(const body::Body& a, const body::Body& b) const;
  // For each of `bodies`: whether overlap contact may still meet it, i.e. it has a pair with
  // another of them (not two obstacles) that Handles does not take, or self-contact on.
  std::vector<bool> OverlapBodies(const std::vector<body::Body*>& bodies) const;

  using Filters = NodeToFaceFilters;

  // Refreshes the surfaces of the bodies (current geometry, u_free) and finds the node-face
  // pairs in contact (stage 2 by pair_finder if set), `held` the existing contacts (the keep
  // rule of NodeToFaceOptions); adds its time to the accumulated time. Results sorted by
  // (master id, slave id, node), one per (master, slave, node): of the faces passing the
  // local test, the smallest |gap| (then the lowest face index). The list is kept here (its
  // storage reused) until the next search.
  const std::vector<NodeFaceContact>& Search(const std::vector<body::Body*>& bodies, double h,
                                             const Filters& filters = {},
                                             const std::vector<HeldContact>& held = {});
  // The same search (refresh included) with stage 2 by `finder` (null: the three-stage
  // search); fills stats() but not the accumulated time.
  const std::vector<NodeFaceContact>& SearchWith(const PairFinder* finder,
                                                 const std::vector<body::Body*>& bodies,
                                                 double h, const Filters& filters = {},
                                                 const std::vector<HeldContact>& held = {});

  const NodeToFaceStats& stats() const { return stats_; }
  // Accumulated search time [s] (all Search calls, e.g. over a RUN) and the number of calls;
  // the stage times accumulated over the same calls (refresh, octree, bvh, local).
  double accumulated_time() const { return accumulated_; }
  long searches() const { return searches_; }
  const NodeToFaceStats& accumulated_stages() const { return accumulated_stages_; }
  void ResetAccumulated() {
    accumulated_ = 0.0, searches_ = 0;
    accumulated_stages_ = NodeToFaceStats();
  }

 private:
  struct Pass {  // one ordered (master, slave) surface pair
    int master = 0, slave = 0;  // indices into the refreshed surface list
  };
  // Refreshes every surface (`lazy` false), or (`lazy`) bounds the mesh surfaces already
  // built (ContactSurface::Bound) and refreshes the others; sets the capture distances.
  void Refresh(const std::vector<body::Body*>& bodies, double h, bool lazy);
  // After the octree over the reach boxes: keeps the pairs that can make a pass (CanPass)
  // and whose refreshed boxes overlap (the octree's pairs over refreshed boxes, in order),
  // refreshing a stale surface of a pair only while its boxes still overlap, and marks the
  // kept pairs' surfaces paired.
  void RefreshPaired(std::vector<std::pair<int, int>>& pairs, const Filters& filters);
  // Whether active surfaces i and j can make a pass: not two convex surfaces, not an
  // excluded body pair.
  bool CanPass(int i, int j, const Filters& filters) const;
  // Refreshes active surface i in full if it is not (points, faces, margin).
  void Freshen(int i);
  // Refreshes surface i if stale (Freshen); whether its box overlaps j's (SurfaceBox).
  bool FreshenWhileOverlapping(int i, int j);
  // held_ from previous_; then HeldDepth(master): the depth of the deepest previous contact
  // below a face of `master` (0: none).
  void IndexHeld();
  double HeldDepth(Id master) const;
  // A slave's margin: options.margin, or by default 1e-4 times its mean face diameter.
  double MarginFor(double mean_face_diameter) const {
    return options.margin >= 0.0 ? options.margin : 1e-4 * mean_face_diameter;
  }
  // The octree box of active surface i: its face hierarchy's box if fresh, else its reach.
  geometry::Aabb SurfaceBox(int i) const;
  void Passes(const std::vector<std::pair<int, int>>& body_pairs, const Filters& filters,
              std::vector<Pass>& passes);
  struct Candidate { int pass, node, face; };
  // Stage 2: the node-face pairs of the passes by the node BVH against the face BVH, or by
  // `finder` if not null (not exhaustive). They are written to candidates_ (never shrunk: a
  // slot is written before the pair's test decides whether the count advances, no branch on
  // it); returns their number.
  int Candidates(const PairFinder* finder, const std::vector<Pass>& passes);
  // The three-stage stage 2 with the skin (options.skin > 0): each pass's pairs as of the
  // snapshots, kept or traversed anew, then those with the node in the face's current box.
  int SkinCandidates(const std::vector<Pass>& passes);
  // Stage 3 for node k of surface s against face f of surface m; true when in contact, with
  // the projection in p. `box_check`: first reject a node outside the face's inflated box.
  bool LocalTest(int m, int f, int s, int k, double h, bool box_check,
                 FaceProjection& p) const;
  // The local test's decision given the projection p of the node on the face.
  bool Accept(int m, int f, int s, int k, double h, const FaceProjection& p) const;
  // A node-face pair in contact of the open pass (its bodies, areas and referential point
  // are added by Finish): 88 bytes where a NodeFaceContact has 224, written and moved per
  // accepted candidate.
  struct Found {
    int slave_index, face;
    FaceProjection projection;
  };
  // Keeps a node-face pair in contact of the current pass if it is the best so far for its
  // slave node: the smallest |gap|, then the lowest face (one entry per node in found_).
  void Keep(int k, int f, const FaceProjection& p);
  // Closes the pass whose entries start at found_[begin]: frees their slots in best_ and
  // appends their indices to order_, sorted by node.
  void ClosePass(const Pass& pass, int begin);
  // The kept contacts sorted by (master id, slave id, node), with the master's referential
  // point, into results_; drops excluded surface pairs.
  void Finish(const Filters& filters);

  std::map<Id, ContactSurface> surfaces_;  // by body id
  std::vector<ContactSurface*> active_;    // refreshed surfaces of the current search
  std::vector<double> margin_;             // per active surface (as a slave)
  std::vector<double> inflate_;            // per active surface: its capture distance
  // per active surface: the depth beyond its faces' captured depth a local test can accept
  std::vector<double> sink_;
  std::vector<std::pair<Id, double>> held_;  // (master id, depth), sorted (IndexHeld)
  double depth_cap_ = 0.0;                 // bound of the slaves' mean face diameters
  // Existing contacts (the keep rule), given to the search, and their index for it: the entries of slave node k of active surface s are the chain
  // previous_first_[previous_base_[s] + k], previous_next_[...] (an O(1) lookup per pair;
  // a hash map cost a bucket walk, a cache miss, for every pair beyond the margin).
  std::vector<HeldContact> previous_;
  // previous_ and its gap bounds from the existing contacts of a search.
  void SetHeld(const std::vector<HeldContact>& held);
  std::vector<int> previous_base_, previous_first_, previous_next_;
  std::vector<std::pair<Id, int>> active_ids_;  // (body id, active index), sorted
  double max_previous_gap_ = 0.0;
  // The deepest of them (+inf: none): an existing contact may stay deeper than the depth.
  double min_previous_gap_ = std::numeric_limits<double>::infinity();
  // Builds the index of previous_ over the surfaces of this search (after Refresh).
  void IndexPrevious();
  // The gap of the existing contact of node k of surface s with master `master`, or false.
  bool PreviousGapOf(int s, int k, Id master, double& gap) const;
  // Work lists kept between searches (their capacity: no reallocation per step).
  std::vector<Id> ids_;
  Octree octree_;
  std::vector<geometry::Aabb> body_boxes_;
  std::vector<std::pair<int, int>> body_pairs_;
  std::vector<Pass> passes_, pass_scratch_;
  std::vector<int> pass_end_;  // bucket ends of the passes by master
  std::vector<Candidate> candidates_;
  std::vector<char> fitted_;            // per active surface: its trees fitted this search
  std::vector<std::uint64_t> skin_version_;  // per active surface: its snapshot (FitSkin)
  long skin_stamp_ = 0;                 // searches with the skin (ContactSurface::SkinPass)
  // The kept pairs (slave node index, face) of the last search with the skin, pass after
  // pass (the SkinPass ranges), and those of the current one: a kept pass's pairs are read
  // from one and written to the other, in the same order from step to step (one stream,
  // not a list a pass in the heap, whose first line missed the cache).
  std::vector<std::pair<int, int>> skin_lists_, skin_lists_next_;
  std::vector<Found> found_;            // best contact per slave node, pass after pass
  std::vector<int> best_;               // per slave node of the open pass: index in found_
  std::vector<int> order_;              // found_ indices, each pass's in node order
  struct Segment {                      // the entries of one pass in order_
    Id master, slave;
    int begin, end;
    Pass pass;  // active indices
  };
  std::vector<Segment> segments_;
  std::vector<NodeFaceContact> results_;  // of the last search (Finish)
  NodeToFaceStats stats_;
  double accumulated_ = 0.0;
  long searches_ = 0;
  NodeToFaceStats accumulated_stages_;
};

}  // namespace solfec::contact
