// Three-stage node-to-face contact search.
#include "contact/node_to_face.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <tuple>

#include "base/counting_sort.h"
#include "base/math.h"
#include "contact/contact_frame.h"
#include "contact/octree.h"

namespace solfec::contact {

using body::Body;
using body::BodyKind;

namespace {

// CPU time stopwatch of the calling thread (the fair measure on a shared machine; the
// benchmark compares it with the process time of whole steps). The thread's, not the
// process's: the results writer deflates the last frame on a worker thread meanwhile, and
// that is not search time. A call costs ~1.5 us on a virtual machine (a system call), so it
// times the whole search only.
class CpuTimer {
 public:
  CpuTimer() { Start(); }
  void Start() { start_ = Now(); }
  double Stop() const { return Now() - start_; }

 private:
  static double Now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  double start_ = 0.0;
};

// Wall-clock stopwatch of the stages within a search (~30 ns a call, no system call: eight
// process-time calls cost ~12 us a search, 3% of a 20-cube search, both methods alike).
class StageTimer {
 public:
  StageTimer() { Start(); }
  void Start() { start_ = std::chrono::steady_clock::now(); }
  double Stop() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

namespace {

// The node-to-face roles of a body: slave (a mesh FE body; also a master), master only
// (convexes only), or neither. A pair of two bodies is handled by node-to-face contact
// when one is a slave and the other can be a master.
enum SurfaceRole { kSlave, kMasterOnly, kNoRole };
SurfaceRole RoleOf(const Body& b) {
  return ContactSurface::CanBeSlave(b)    ? kSlave
         : ContactSurface::CanBeMaster(b) ? kMasterOnly
                                          : kNoRole;
}
bool RolesHandled(SurfaceRole a, SurfaceRole b) {
  return (a == kSlave && b != kNoRole) || (b == kSlave && a != kNoRole);
}

}  // namespace

bool NodeToFace::Handles(const Body& a, const Body& b) const {
  if (!enabled() || &a == &b) return false;
  if (a.kind() == BodyKind::kObstacle && b.kind() == BodyKind::kObstacle) return false;
  return RolesHandled(RoleOf(a), RoleOf(b));
}

std::vector<bool> NodeToFace::OverlapBodies(const std::vector<Body*>& bodies) const {
  std::vector<bool> out(bodies.size(), true);
  if (!enabled()) return out;
  // Handles(a, b) for a != b, not two obstacles, depends only on the roles: counts of each
  // role, obstacles apart, tell whether a body has a pair not handled.
  int count[3][2] = {};  // [role][obstacle]
  for (const Body* b : bodies) ++count[RoleOf(*b)][b->kind() == BodyKind::kObstacle];
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Body& a = *bodies[i];
    const SurfaceRole ra = RoleOf(a);
    const bool obstacle = a.kind() == BodyKind::kObstacle;
    int unhandled = 0;
    for (SurfaceRole r : {kSlave, kMasterOnly, kNoRole}) {
      if (RolesHandled(ra, r)) continue;
      // The other bodies of role r (no obstacles for an obstacle).
      unhandled += count[r][0] + (obstacle ? 0 : count[r][1]) - (r == ra && !obstacle ? 1 : 0);
    }
    out[i] = a.selfcontact || unhandled > 0;
  }
  return out;
}

double NodeToFace::SlaveMarginBound(const Body& b, const geometry::Aabb& box) const {
  if (!ContactSurface::CanBeSlave(b)) return 0.0;
  if (options.margin >= 0.0) return options.margin;
  return box.empty() ? 0.0 : 1e-4 * (box.hi - box.lo).norm();
}

void NodeToFace::Refresh(const std::vector<Body*>& bodies, double h, bool lazy) {
  StageTimer timer;
  active_.clear();
  margin_.clear();
  inflate_.clear();
  sink_.clear();
  // Surfaces of bodies no longer present are dropped (ids are sorted in the map; a sorted
  // id list kept between searches avoids a set per step).
  ids_.clear();
  bool any_slave = false;
  for (const Body* b : bodies) {
    ids_.push_back(b->id());
    any_slave = any_slave || ContactSurface::CanBeSlave(*b);
  }
  std::sort(ids_.begin(), ids_.end());
  for (auto it = surfaces_.begin(); it != surfaces_.end();)
    it = std::binary_search(ids_.begin(), ids_.end(), it->first) ? std::next(it)
                                                                 : surfaces_.erase(it);
  if (!any_slave) {
    previous_first_.clear();
    return;
  }
  // A surface far from all others needs no faces: with `lazy`, a mesh surface seen before
  // and not paired by the last search gets only its point bounds, speed and diameter bounds
  // here (ContactSurface::Bound).
  double vslave = 0.0;
  for (Body* b : bodies) {
    if (!ContactSurface::CanBeMaster(*b)) continue;
    ContactSurface& s = surfaces_[b->id()];
    // A surface paired by the last search is likely paired again: refreshed directly.
    const bool paired = s.paired();
    s.set_paired(false);
    if (!lazy || paired || !s.Bound(*b)) {
      s.RefreshPoints(*b);
      ++stats_.refreshed;
    }
    active_.push_back(&s);
    if (s.is_mesh()) vslave = std::max(vslave, s.max_speed());
  }
  // Capture distance: the largest accepted positive gap against any slave (margins and the
  // depth cap from the diameter bounds of the surfaces not refreshed: larger, so the face
  // boxes still hold every node a local test can accept).
  double mmax = 0.0;
  depth_cap_ = 0.0;
  for (ContactSurface* s : active_) {
    margin_.push_back(MarginFor(s->mean_face_diameter()));
    if (!s->is_mesh()) continue;
    depth_cap_ = std::max(depth_cap_, s->mean_diameter_bound());
    mmax = std::max(mmax, MarginFor(s->mean_diameter_bound()));
  }
  // The depth beyond a face's captured depth that a local test can accept (LocalTest): what a
  // node approaches within half a step, h/2 |v_N| <= h/2 (|v_node| + |v_face|), and the
  // depth of an existing contact against the face's body (HeldDepth); 1e-6 more for the
  // shape functions' rounding.
  IndexHeld();
  for (int i = 0; i < static_cast<int>(active_.size()); ++i) {
    const double speeds = active_[i]->max_speed() + vslave;
    inflate_.push_back(2.0 * mmax + max_previous_gap_ + h * speeds);
    sink_.push_back((0.5 * h * speeds + HeldDepth(active_[i]->body()->id())) * (1.0 + 1e-6));
    if (active_[i]->fresh())
      active_[i]->RefreshFaces(inflate_[i], options.depth_fraction, depth_cap_, sink_[i]);
  }
  stats_.surfaces = static_cast<int>(active_.size());
  IndexPrevious();
  stats_.refresh = timer.Stop();
}

void NodeToFace::IndexHeld() {
  // One entry per run of previous contacts with one master (they come grouped by body pair:
  // a short list to sort), its deepest.
  held_.clear();
  for (const HeldContact& g : previous_) {
    if (!(g.gap < 0.0)) continue;
    if (!held_.empty() && held_.back().first == g.master)
      held_.back().second = std::max(held_.back().second, -g.gap);
    else
      held_.emplace_back(g.master, -g.gap);
  }
  std::sort(held_.begin(), held_.end());
}

double NodeToFace::HeldDepth(Id master) const {
  // The last entry of `master` (sorted by depth within it) is its deepest.
  const auto past = std::upper_bound(
      held_.begin(), held_.end(),
      std::make_pair(master, std::numeric_limits<double>::infinity()));
  return past != held_.begin() && std::prev(past)->first == master ? std::prev(past)->second
                                                                  : 0.0;
}

void NodeToFace::Freshen(int i) {
  ContactSurface& s = *active_[i];
  if (s.fresh()) return;
  ++stats_.refreshed;
  s.RefreshPoints(*s.body());
  s.RefreshFaces(inflate_[i], options.depth_fraction, depth_cap_, sink_[i]);
  margin_[i] = MarginFor(s.mean_face_diameter());
}

bool NodeToFace::FreshenWhileOverlapping(int i, int j) {
  Freshen(i);
  return SurfaceBox(i).Overlaps(SurfaceBox(j));
}

geometry::Aabb NodeToFace::SurfaceBox(int i) const {
  const ContactSurface& s = *active_[i];
  if (!s.fresh()) return s.ReachBox(inflate_[i], options.depth_fraction, depth_cap_, sink_[i]);
  return s.has_face_boxes() ? s.face_bounds() : s.bounds();
}

bool NodeToFace::CanPass(int i, int j, const Filters& filters) const {
  const ContactSurface& A = *active_[i];
  const ContactSurface& B = *active_[j];
  if (!A.is_mesh() && !B.is_mesh()) return false;
  return !filters.bodies || filters.bodies->empty() ||
         !filters.bodies->count(std::minmax(A.body()->id(), B.body()->id()));
}

void NodeToFace::RefreshPaired(std::vector<std::pair<int, int>>& pairs,
                               const Filters& filters) {
  size_t kept = 0;
  for (const auto& [i, j] : pairs) {
    if (!CanPass(i, j, filters)) continue;
    // A stale surface is refreshed only while the pair still overlaps: one refreshed box
    // may already part them, and the other surface keeps its cheap bounds. (The octree may
    // have paired them on reach boxes of surfaces refreshed since, by earlier pairs: the
    // boxes are compared again in any case.)
    if (!FreshenWhileOverlapping(i, j) || !FreshenWhileOverlapping(j, i)) continue;
    active_[i]->set_paired(true);
    active_[j]->set_paired(true);
    pairs[kept++] = {i, j};
  }
  pairs.resize(kept);
}

void NodeToFace::IndexPrevious() {
  const int na = static_cast<int>(active_.size());
  previous_base_.resize(na + 1);
  previous_base_[0] = 0;
  active_ids_.clear();
  for (int s = 0; s < na; ++s) {
    previous_base_[s + 1] =
        previous_base_[s] + static_cast<int>(active_[s]->slave_nodes().size());
    active_ids_.emplace_back(active_[s]->body()->id(), s);
  }
  std::sort(active_ids_.begin(), active_ids_.end());
  previous_first_.assign(previous_base_[na], -1);
  previous_next_.assign(previous_.size(), -1);
  // Entries are chained head first: of two entries with one key the later one is found.
  // Consecutive entries mostly share their slave (the constraints of a body pair were added
  // together): its surface is looked up once for them.
  Id slave = kNoId;
  int s = -1;
  for (int e = 0; e < static_cast<int>(previous_.size()); ++e) {
    const HeldContact& g = previous_[e];
    if (e == 0 || g.slave != slave) {
      slave = g.slave;
      const auto it = std::lower_bound(active_ids_.begin(), active_ids_.end(),
                                       std::make_pair(g.slave, -1));
      s = it != active_ids_.end() && it->first == g.slave ? it->second : -1;
    }
    if (s < 0) continue;  // body gone
    const std::vector<int>& slot = active_[s]->slave_slots();
    if (g.node < 0 || g.node >= static_cast<int>(slot.size()) || slot[g.node] < 0) continue;
    int& head = previous_first_[previous_base_[s] + slot[g.node]];
    previous_next_[e] = head;
    head = e;
  }
}

bool NodeToFace::PreviousGapOf(int s, int k, Id master, double& gap) const {
  if (previous_first_.empty()) return false;
  for (int e = previous_first_[previous_base_[s] + k]; e >= 0; e = previous_next_[e]) {
    if (previous_[e].master != master) continue;
    gap = previous_[e].gap;
    return true;
  }
  return false;
}

void NodeToFace::Passes(const std::vector<std::pair<int, int>>& pairs, const Filters& filters,
                        std::vector<Pass>& passes) {
  // Every active surface can be a master; a mesh surface can be a slave (Handles() for the
  // refreshed surfaces without its body-kind casts).
  std::vector<Pass>& all = pass_scratch_;
  all.clear();
  for (const auto& [i, j] : pairs) {
    if (!CanPass(i, j, filters)) continue;
    if (active_[j]->is_mesh()) all.push_back({i, j});  // i master, j slave
    if (active_[i]->is_mesh()) all.push_back({j, i});
  }
  // Passes of one master one after the other: its face hierarchy and points stay in cache
  // (the order of the passes does not change the contacts: Finish sorts them). A stable
  // counting sort by master; the slaves of a master then come in increasing order, as the
  // pairs are sorted (the pairs (i, m), i < m, precede the pairs (m, j), m < j).
  CountingSortBy(all, static_cast<int>(active_.size()),
                 [](const Pass& p) { return p.master; }, pass_end_, passes);
}

bool NodeToFace::LocalTest(int m, int f, int s, int k, double h, bool box_check,
                           FaceProjection& p) const {
  const ContactSurface& M = *active_[m];
  const ContactSurface& S = *active_[s];
  const Vec3& y = S.points()[S.slave_nodes()[k]];
  if (box_check && !M.face_boxes()[f].Contains(y)) return false;
  Vec3 x[4];
  const int n = M.face_vertices(f, x);
  p = ProjectOnFace(x, n, y);
  return Accept(m, f, s, k, h, p);
}

bool NodeToFace::Accept(int m, int f, int s, int k, double h, const FaceProjection& p) const {
  const ContactSurface& M = *active_[m];
  const ContactSurface& S = *active_[s];
  const int node = S.slave_nodes()[k];
  const int n = M.faces()[f].size;
  if (!p.inside) return false;
  if (S.node_normals()[k].dot(p.normal) >= 0.0) return false;  // node must face the face
  // Captured depth: a fraction of the smaller of the face and the slave's faces (a node
  // must not reach through a thin body or a large face to the far side).
  const double depth =
      options.depth_fraction * std::min(M.face_diameters()[f], S.mean_face_diameter());
  // The normal relative free velocity, needed beyond the depth or the margin only.
  const auto normal_speed = [&] {
    double N[4];
    FaceShapeFunctions(n, p.s, p.t, N);
    Vec3 vm = Vec3::Zero();
    for (int a = 0; a < n; ++a) vm += N[a] * M.velocities()[M.faces()[f].vertices[a]];
    return p.normal.dot(S.velocities()[node] - vm);
  };
  if (p.gap < -depth) {
    // Deeper: only by the approach within the half step since q(t) (the search runs at
    // q(t+h/2): a fast node that passed the face then is caught, not let through), and, for
    // an existing contact of this node with this body, by the depth it had (a node caught
    // deep stays held: it does not drop out and sink).
    const double approach = 0.5 * h * std::max(0.0, -normal_speed());
    double reach = depth, previous;
    if (p.gap < -depth - approach && p.gap >= min_previous_gap_ - depth - approach &&
        PreviousGapOf(s, k, M.body()->id(), previous))
      reach -= std::min(previous, 0.0);
    if (p.gap < -reach - approach) return false;
  } else if (p.gap > margin_[s]) {
    // The accepted gap: max(margin, h max(0, -v_N), previous gap + margin); its terms are
    // evaluated only while the gap exceeds those already known (the same decision).
    double limit = std::max(margin_[s], h * std::max(0.0, -normal_speed()));
    double previous;
    if (p.gap > limit && p.gap <= max_previous_gap_ + margin_[s] &&
        PreviousGapOf(s, k, M.body()->id(), previous))
      limit = std::max(limit, previous + margin_[s]);
    if (p.gap > limit) return false;
  }
  return true;
}

void NodeToFace::Keep(int k, int f, const FaceProjection& p) {
  int& b = best_[k];
  if (b < 0) {
    b = static_cast<int>(found_.size());
    found_.push_back({k, f, p});
    return;
  }
  Found& o = found_[b];
  const double g = std::abs(p.gap), go = std::abs(o.projection.gap);
  if (g < go || (g == go && f < o.face)) o = {k, f, p};
}

void NodeToFace::ClosePass(const Pass& pass, int begin) {
  const int end = static_cast<int>(found_.size());
  if (end == begin) return;
  // The pass's entries in (mesh) node order: their indices are sorted, not the entries.
  for (int i = begin; i < end; ++i) {
    best_[found_[i].slave_index] = -1;
    order_.push_back(i);
  }
  const std::vector<int>& nodes = active_[pass.slave]->slave_nodes();
  std::sort(order_.begin() + begin, order_.end(), [&](int a, int b) {
    return nodes[found_[a].slave_index] < nodes[found_[b].slave_index];
  });
  segments_.push_back({active_[pass.master]->body()->id(), active_[pass.slave]->body()->id(),
                       begin, end, pass});
}

void NodeToFace::Finish(const Filters& filters) {
  // Each ordered (master, slave) pair is one pass: ordering the passes orders the contacts.
  std::sort(segments_.begin(), segments_.end(), [](const Segment& a, const Segment& b) {
    return std::tie(a.master, a.slave) < std::tie(b.master, b.slave);
  });
  std::vector<NodeFaceContact>& out = results_;
  out.clear();
  NodeFaceContact c;
  for (const Segment& seg : segments_) {
    const ContactSurface& M = *active_[seg.pass.master];  // of every entry
    const ContactSurface& S = *active_[seg.pass.slave];
    c.master = const_cast<Body*>(M.body());
    c.slave = const_cast<Body*>(S.body());
    for (int i = seg.begin; i < seg.end; ++i) {
      const Found& e = found_[order_[i]];
      const int k = e.slave_index;
      c.surf_master = M.faces()[e.face].surfid;
      c.surf_slave = S.node_surfids()[k];
      if (filters.surfaces &&
          filters.surfaces->count(std::minmax(c.surf_master, c.surf_slave)))
        continue;
      c.node = S.slave_nodes()[k];
      c.slave_ref = S.ref_points()[c.node];
      c.face = e.face;
      c.projection = e.projection;
      c.area = S.node_areas()[k];
      c.master_face = body::MeshFacePoint();
      if (M.is_mesh()) {
        const SurfaceFace& sf = M.faces()[c.face];
        double N[4];
        FaceShapeFunctions(sf.size, c.projection.s, c.projection.t, N);
        c.master_ref.setZero();
        c.master_face.size = sf.size;
        for (int a = 0; a < sf.size; ++a) {
          c.master_ref += N[a] * M.ref_points()[sf.vertices[a]];
          c.master_face.nodes[a] = sf.vertices[a];  // mesh nodes (ContactSurface::BuildMesh)
          c.master_face.weights[a] = N[a];
        }
      } else {
        c.master_ref = c.master->ReferentialPoint(c.projection.point);
      }
      out.push_back(c);
    }
  }
}

namespace {
// The reach of a pass's kept pairs, as a fraction of the sum of its surfaces' skins: how far
// the two surfaces' centroids may move relative to each other before it is traversed anew.
constexpr double kSkinReach = 0.5;
}  // namespace

int NodeToFace::SkinCandidates(const std::vector<Pass>& passes) {
  const int na = static_cast<int>(active_.size());
  fitted_.assign(na, 0);
  skin_version_.resize(na);
  const auto fit = [&](int i) {
    if (fitted_[i]) return;
    fitted_[i] = 1;
    skin_version_[i] = active_[i]->FitSkin(options.skin * active_[i]->mean_face_diameter());
  };
  ++skin_stamp_;
  const std::vector<std::pair<int, int>>& last = skin_lists_;
  std::vector<std::pair<int, int>>& lists = skin_lists_next_;
  lists.clear();
  std::vector<Candidate>& out = candidates_;
  int count = 0;
  for (int p = 0; p < static_cast<int>(passes.size()); ++p) {
    const int m = passes[p].master, s = passes[p].slave;
    fit(m);
    fit(s);
    ContactSurface& M = *active_[m];
    const ContactSurface& S = *active_[s];
    const Id slave = S.body()->id();
    std::vector<ContactSurface::SkinPass>& cache = M.skin_passes();
    // Passes come grouped by master: before its first, the master's entries that the last
    // search did not use are dropped (their ranges are gone; those of this search are added
    // or used after).
    if (p == 0 || passes[p - 1].master != m)
      cache.erase(std::remove_if(cache.begin(), cache.end(),
                                 [&](const ContactSurface::SkinPass& e) {
                                   return e.stamp < skin_stamp_ - 1;
                                 }),
                  cache.end());
    auto e = std::find_if(cache.begin(), cache.end(),
                          [&](const ContactSurface::SkinPass& c) { return c.slave == slave; });
    if (e == cache.end()) {
      cache.push_back(ContactSurface::SkinPass{slave, 0, 0, 0, 0, 0, Vec3::Zero(), 0.0});
      e = std::prev(cache.end());
    }
    // (A new entry has versions 0, which no snapshot has.) The pairs hold while the
    // centroids' difference stays within the reach of the traversal's (0.999: room for the
    // rounding, as in SkinHolds).
    const Vec3 shift = S.centroid() - M.centroid();
    const bool kept = e->master_version == skin_version_[m] &&
                      e->slave_version == skin_version_[s] &&
                      ((shift - e->shift).cwiseAbs().array() <= 0.999 * e->reach).all();
    const std::size_t begin = lists.size();
    if (kept) {
      ++stats_.skin_kept;
      lists.insert(lists.end(), last.begin() + static_cast<std::ptrdiff_t>(e->begin),
                   last.begin() + static_cast<std::ptrdiff_t>(e->begin + e->count));
    } else {
      e->master_version = skin_version_[m];
      e->slave_version = skin_version_[s];
      e->shift = shift;
      e->reach = kSkinReach * (M.skin() + S.skin());
      // Less the pairs that stay culled while the snapshots hold.
      const std::vector<NormalBounds>& node_range = S.skin_node_normals();
      const std::vector<NormalBounds>& face_range = M.skin_face_normals();
      stats_.box_tests += TraversePairs(
          S.node_bvh(), M.skin_face_bvh(), TreeShift{e->shift, e->reach}, [&](int k, int f) {
            if (!ContactSurface::SkinFacedAway(node_range[k], face_range[f]))
              lists.emplace_back(k, f);
          });
    }
    e->stamp = skin_stamp_;
    e->begin = begin;
    e->count = static_cast<int>(lists.size() - begin);
    // The pairs with the node in the face's current box: those of a traversal of the current
    // trees (the same test on the same boxes), less the nodes facing away (Candidates).
    const std::vector<geometry::Aabb>& boxes = M.face_boxes();
    const std::vector<NormalBounds>& bounds = M.face_normal_bounds();
    const std::vector<Vec3>& normals = S.node_normals();
    const std::vector<Vec3>& points = S.points();
    const std::vector<int>& nodes = S.slave_nodes();
    const size_t need = static_cast<size_t>(count) + static_cast<size_t>(e->count);
    if (out.size() < need) out.resize(std::max(need, 2 * out.size() + 256));
    stats_.skin_pairs += e->count;
    for (std::size_t i = begin; i < lists.size(); ++i) {
      const auto [k, f] = lists[i];
      out[count] = {p, k, f};
      count += PointInBox(points[nodes[k]], boxes[f]) & !bounds[f].FacedAwayBy(normals[k]);
    }
  }
  skin_lists_.swap(skin_lists_next_);
  return count;
}

int NodeToFace::Candidates(const PairFinder* finder, const std::vector<Pass>& passes) {
  if (!finder && options.skin > 0.0) return SkinCandidates(passes);
  // The hierarchies of this search's surfaces: the masters' face BVHs and the slaves' node
  // BVHs (a finder fits those it uses).
  if (!finder) {
    fitted_.assign(active_.size(), 0);
    for (const Pass& p : passes) {
      active_[p.master]->FitFaces();
      if (!fitted_[p.slave]) active_[p.slave]->FitNodes();
      fitted_[p.slave] = 1;
    }
  }
  std::vector<Candidate>& out = candidates_;
  int count = 0;
  for (int p = 0; p < static_cast<int>(passes.size()); ++p) {
    const ContactSurface& M = *active_[passes[p].master];
    const ContactSurface& S = *active_[passes[p].slave];
    // A pair whose node faces away from the face at every point of it (normal bounds) is not
    // a candidate: the local test would reject it (about a quarter of the pairs in a pile:
    // nodes near a face parallel to theirs, e.g. the top faces of neighbours side by side).
    // The outcome is hard to predict: the pair is written and the count advanced by it.
    const std::vector<NormalBounds>& bounds = M.face_normal_bounds();
    const std::vector<Vec3>& normals = S.node_normals();
    const auto emit = [&](int k, int f) {
      if (count == static_cast<int>(out.size())) out.resize(2 * out.size() + 256);
      out[count] = {p, k, f};
      count += !bounds[f].FacedAwayBy(normals[k]);
    };
    if (finder)
      stats_.box_tests += finder->Pairs(*active_[passes[p].master], *active_[passes[p].slave],
                                        emit);
    else
      stats_.box_tests += TraversePairs(S.node_bvh(), M.face_bvh(), emit);
  }
  return count;
}

const std::vector<NodeFaceContact>& NodeToFace::Search(const std::vector<Body*>& bodies,
                                                       double h, const Filters& filters,
                                                       const std::vector<HeldContact>& held) {
  const std::vector<NodeFaceContact>& out =
      SearchWith(pair_finder.get(), bodies, h, filters, held);
  accumulated_ += stats_.total;
  ++searches_;
  NodeToFaceStats& a = accumulated_stages_;
  a.refresh += stats_.refresh, a.octree += stats_.octree, a.bvh += stats_.bvh;
  a.local += stats_.local;
  return out;
}

void NodeToFace::SetHeld(const std::vector<HeldContact>& held) {
  previous_ = held;
  max_previous_gap_ = 0.0;
  min_previous_gap_ = std::numeric_limits<double>::infinity();
  for (const HeldContact& c : held) {
    max_previous_gap_ = std::max(max_previous_gap_, c.gap);
    min_previous_gap_ = std::min(min_previous_gap_, c.gap);
  }
}

const std::vector<NodeFaceContact>& NodeToFace::SearchWith(const PairFinder* finder,
                                                           const std::vector<Body*>& bodies,
                                                           double h, const Filters& filters,
                                                           const std::vector<HeldContact>& held) {
  CpuTimer total;
  stats_ = NodeToFaceStats();
  SetHeld(held);
  const bool brute = finder && finder->exhaustive();
  Refresh(bodies, h, !brute);
  // Stage 1: octree over the surface boxes (faces inflated by the capture distance); an
  // exhaustive finder takes every pair of surfaces.
  StageTimer timer;
  std::vector<std::pair<int, int>>& pairs = body_pairs_;
  pairs.clear();
  if (brute) {
    for (int i = 0; i < static_cast<int>(active_.size()); ++i)
      for (int j = i + 1; j < static_cast<int>(active_.size()); ++j) pairs.emplace_back(i, j);
  } else {
    // Stage 1 over the refreshed surfaces' boxes and the others' reach boxes; those of the
    // pairs are then refreshed (RefreshPaired).
    std::vector<geometry::Aabb>& boxes = body_boxes_;
    boxes.clear();
    for (int i = 0; i < static_cast<int>(active_.size()); ++i) boxes.push_back(SurfaceBox(i));
    octree_.Pairs(boxes, pairs);
    stats_.octree_pairs = static_cast<int>(pairs.size());
    stats_.octree = timer.Stop();
    timer.Start();
    RefreshPaired(pairs, filters);
    stats_.refresh += timer.Stop();
    timer.Start();
  }
  std::vector<Pass>& passes = passes_;
  Passes(pairs, filters, passes);
  stats_.body_pairs = static_cast<int>(passes.size());
  stats_.octree += timer.Stop();
  // The best node-face pair in contact per slave node, pass after pass (Keep).
  found_.clear();
  order_.clear();
  segments_.clear();
  size_t most = 0;
  for (const ContactSurface* s : active_) most = std::max(most, s->slave_nodes().size());
  if (best_.size() < most) best_.resize(most, -1);  // entries are reset by ClosePass
  FaceProjection c;
  if (brute) {  // stages 2 and 3 at once: no candidate list (10^7 pairs and more)
    timer.Start();
    const bool boxed = finder->box_check();
    for (const Pass& p : passes) {
      const int begin = static_cast<int>(found_.size());
      stats_.box_tests +=
          finder->Pairs(*active_[p.master], *active_[p.slave], [&](int k, int f) {
            ++stats_.elementary_pairs;
            if (LocalTest(p.master, f, p.slave, k, h, boxed, c)) Keep(k, f, c);
          });
      ClosePass(p, begin);
    }
  } else {
    // Stage 2: slave-node BVH against master-face BVH (Algorithm 1), or the finder's pairs.
    timer.Start();
    const std::vector<Candidate>& candidates = candidates_;
    const int nc = Candidates(finder, passes);
    stats_.elementary_pairs = nc;
    stats_.bvh = timer.Stop();
    // Stage 3: isoparametric projection of each candidate (the candidate's node lies in the
    // face's inflated box: no box check), kProjectionLanes candidates at once (their
    // projections overlap), then accepted or not one by one; candidates come pass after pass.
    timer.Start();
    int pass = -1, begin = 0;
    Vec3 x[kProjectionLanes][4], y[kProjectionLanes];
    int n[kProjectionLanes];
    FaceProjection projection[kProjectionLanes];
    for (int first = 0; first < nc; first += kProjectionLanes) {
      const int count = std::min(kProjectionLanes, nc - first);
      for (int l = 0; l < count; ++l) {
        const Candidate& cd = candidates[first + l];
        const ContactSurface& S = *active_[passes[cd.pass].slave];
        n[l] = active_[passes[cd.pass].master]->face_vertices(cd.face, x[l]);
        y[l] = S.points()[S.slave_nodes()[cd.node]];
      }
      ProjectOnFaces(count, x, n, y, projection);
      for (int l = 0; l < count; ++l) {
        const Candidate& cd = candidates[first + l];
        if (cd.pass != pass) {
          if (pass >= 0) ClosePass(passes[pass], begin);
          pass = cd.pass;
          begin = static_cast<int>(found_.size());
        }
        if (Accept(passes[pass].master, cd.face, passes[pass].slave, cd.node, h, projection[l]))
          Keep(cd.node, cd.face, projection[l]);
      }
    }
    if (pass >= 0) ClosePass(passes[pass], begin);
  }
  Finish(filters);
  stats_.local = timer.Stop();
  stats_.contacts = static_cast<int>(results_.size());
  stats_.total = total.Stop();
  return results_;
}

}  // namespace solfec::contact
