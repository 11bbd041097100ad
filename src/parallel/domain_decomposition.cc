// MPI domain decomposition of the time step: ownership, migration, ghosts, coupled solve.
#include "parallel/domain_decomposition.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>

#include "base/errors.h"
#include "base/timer.h"
#include "body/body_state.h"
#include "contact/constraint_record.h"

namespace solfec::parallel {

using body::Body;
using body::BodyKind;
using contact::Constraint;
using contact::ConstraintKind;

namespace {

constexpr int kConstraintRecord = contact::kFlatConstraintSize;  // doubles per PackConstraint

bool IsObstacle(const Body* b) { return b && b->kind() == BodyKind::kObstacle; }

// The body whose owner solves c: for contacts the lowest-id non-obstacle body (the rule
// ContactManager::Detect applies to new pairs), for user constraints body1 (else body2).
const Body* HomeBody(const Constraint& c) {
  const Body* a = IsObstacle(c.body1) ? nullptr : c.body1;
  const Body* b = IsObstacle(c.body2) ? nullptr : c.body2;
  if (c.kind != ConstraintKind::kContact) return a ? a : b;
  if (a && b) return a->id() <= b->id() ? a : b;
  return a ? a : b;
}

// by_id[id] (null outside it): the bodies indexed by id.
Body* ById(const std::vector<Body*>& by_id, double id) {
  return id >= 0 && id < static_cast<double>(by_id.size()) ? by_id[static_cast<size_t>(id)]
                                                           : nullptr;
}

void PackBody(const Body& b, std::vector<double>& out) { body::AppendFlatState(b, out); }

// Reads one PackBody record at p into the domain's copy; returns the body (null when the
// body is not in this domain) and advances p. by_id, when given, indexes the bodies by id.
Body* UnpackBody(domain::Domain& d, const double*& p, const std::vector<Body*>* by_id = nullptr) {
  const body::BodyState s = body::ReadFlatState(p);
  Body* b = by_id ? ById(*by_id, static_cast<double>(s.id)) : d.FindBody(s.id);
  if (!b) return nullptr;
  if (!body::StateFits(*b, s)) {
    std::ostringstream msg;
    msg << "solfec-mpi: body " << s.id << " has " << b->q().size() << " configuration values on "
        << "this rank but " << s.nq << " on its owner; the deck must create the same bodies on "
        << "every rank";
    throw InputError(msg.str());
  }
  body::UnpackState(*b, s);
  return b;
}

void Put(std::vector<double>& out, const Vec3& v) { out.insert(out.end(), v.data(), v.data() + 3); }
Vec3 Get3(const double* p) { return Vec3(p[0], p[1], p[2]); }

// The constraint record (contact/constraint_record.h) in its flat form.
void PackConstraint(const Constraint& c, std::vector<double>& out) {
  contact::AppendFlatRecord(contact::RecordOf(c), out);
}

}  // namespace

// ---------------------------------------------------------------- ownership

DomainDecomposition::DomainDecomposition(MPI_Comm comm)
    : comm_(comm), coupling_(std::make_unique<RankCoupling>(comm_, coupling_stats_)) {}

DomainDecomposition::~DomainDecomposition() = default;

int DomainDecomposition::OwnerOf(Id id) const {
  return id >= 0 && static_cast<size_t>(id) < owner_.size() ? owner_[id] : -1;
}

void DomainDecomposition::SetOwner(Id id, int rank) {
  if (static_cast<size_t>(id) >= owner_.size()) {
    owner_.resize(id + 1, -1);
    state_.resize(id + 1, kInactive);
  }
  owner_[id] = rank;
  if (rank == comm_.rank())
    state_[id] = kOwned;
  else if (state_[id] == kOwned)
    state_[id] = kInactive;
}

bool DomainDecomposition::Owns(const Body& b) const {
  if (!started_) return b.kind() != BodyKind::kObstacle;  // before the first step: replicated
  const Id id = b.id();
  return id >= 0 && static_cast<size_t>(id) < state_.size() && state_[id] == kOwned;
}

bool DomainDecomposition::Active(const Body& b) const {
  if (!started_ || b.kind() == BodyKind::kObstacle) return true;
  const Id id = b.id();
  return id >= 0 && static_cast<size_t>(id) < state_.size() && state_[id] != kInactive;
}

bool DomainDecomposition::Home(const Constraint& c) const {
  const Body* b = HomeBody(c);
  if (!b) return comm_.rank() == 0;
  if (!started_) return true;
  return OwnerOf(b->id()) == comm_.rank();
}

std::vector<std::vector<double>> DomainDecomposition::Exchange(
    const std::vector<std::vector<double>>& send) {
  Timer t;
  t.Start();
  for (int r = 0; r < comm_.size(); ++r)
    if (r != comm_.rank()) bytes_sent_ += 8.0 * static_cast<double>(send[r].size());
  std::vector<std::vector<double>> recv = comm_.AllToAll(send);
  comm_time_ += t.Stop();
  return recv;
}

void DomainDecomposition::SetBalance(double tolerance, bool lockdir, double degenratio,
                                     double weightfactor, int updatefreq) {
  update_frequency = std::max(1, updatefreq);
  settings_.tolerance = tolerance;
  settings_.lock_directions = lockdir;
  settings_.degenerate_ratio = degenratio;
  settings_.weight_factor = weightfactor;
  if (started_) {  // new Zoltan settings: repartition at the next step
    partitioner_ = std::make_unique<Partitioner>(comm_, settings_);
    steps_since_balance_ = -1;
  }
}

void DomainDecomposition::Initialize(domain::Domain& d) {
  const int me = comm_.rank();
  d.SetConstraintIdStride(comm_.size(), me);
  partitioner_ = std::make_unique<Partitioner>(comm_, settings_);
  // Every rank holds the same bodies: rank 0 partitions them all, the others pass none.
  PartitionInput in;
  if (me == 0) {
    for (const auto& b : d.bodies()) {
      if (b->kind() == BodyKind::kObstacle) continue;
      in.ids.push_back(b->id());
      in.centroids.push_back(b->SpatialPoint(b->center()));
    }
  }
  std::vector<int> owners;
  if (PartitionOrNot(in, owners)) {
    ;  // Zoltan cuts
  } else {
    for (size_t i = 0; i < in.ids.size(); ++i) owners.push_back(static_cast<int>(i % comm_.size()));
  }
  std::vector<std::int64_t> pairs;
  for (size_t i = 0; i < in.ids.size(); ++i) {
    pairs.push_back(in.ids[i]);
    pairs.push_back(owners[i]);
  }
  const std::vector<std::int64_t> all = comm_.AllGather(pairs);
  for (size_t i = 0; i + 1 < all.size(); i += 2)
    SetOwner(static_cast<Id>(all[i]), static_cast<int>(all[i + 1]));
  for (const auto& b : d.bodies())
    if (b->kind() == BodyKind::kObstacle)
      obstacle_work_[b->id()] = {b->external_work, b->contact_work, b->friction_work};
  started_ = true;
  DropContactsAwayFromHome(d);
}

void DomainDecomposition::CheckSameBodies(const domain::Domain& d) {
  // A deck that creates bodies on some ranks only (Solfec-1.0's parallel decks guard BODY
  // with `if RANK() == 0:`) would hand them to owners that do not have them: they would
  // stand still there, and their contacts would be lost. Count, sum and a mixed sum of
  // squares of the ids (unsigned, wrapping) tell the sets apart.
  std::uint64_t n = 0, s1 = 0, s2 = 0;
  for (const auto& b : d.bodies()) {
    const auto id = static_cast<std::uint64_t>(b->id());
    ++n;
    s1 += id;
    s2 += id * id * 0x9E3779B97F4A7C15ull;
  }
  const std::vector<std::int64_t> all = comm_.AllGather(std::vector<std::int64_t>{
      static_cast<std::int64_t>(n), static_cast<std::int64_t>(s1),
      static_cast<std::int64_t>(s2)});
  for (int r = 1; r < comm_.size(); ++r) {
    if (std::equal(all.begin(), all.begin() + 3, all.begin() + 3 * r)) continue;
    std::ostringstream msg;
    msg << "solfec-mpi: rank " << r << " holds " << all[3 * r] << " bodies and rank 0 holds "
        << all[0];
    if (all[3 * r] == all[0]) msg << " with other ids";
    msg << " at time " << d.time() << "; every rank must create the same bodies (the deck "
        << "runs on every rank and the model is replicated, docs/parallel.md): create them "
           "outside `if RANK() == 0:` (Solfec-1.0's parallel decks create bodies on rank 0 "
           "only)";
    throw InputError(msg.str());
  }
}

bool DomainDecomposition::PartitionOrNot(const PartitionInput& in, std::vector<int>& owners) {
  // Zoltan's RCB needs a few objects per part: with fewer than two bodies per rank the
  // caller keeps (or deals out) the owners instead.
  const double total = comm_.AllReduceSum(static_cast<double>(in.ids.size()));
  if (total < 2.0 * comm_.size()) return false;
  owners = partitioner_->Partition(in).owner;
  have_cuts_ = true;
  return true;
}

void DomainDecomposition::AssignNewBodies(domain::Domain& d) {
  // Bodies created after the partition (by a callback, on every rank alike): the rank whose
  // region holds the mass centre (the same answer on every rank: the kept Zoltan cuts).
  for (const auto& b : d.bodies()) {
    if (b->kind() == BodyKind::kObstacle || OwnerOf(b->id()) >= 0) continue;
    SetOwner(b->id(), have_cuts_ ? partitioner_->OwnerOfPoint(b->SpatialPoint(b->center()))
                                 : static_cast<int>(b->id() % comm_.size()));
  }
}

void DomainDecomposition::RemoveForeignConstraints(domain::Domain& d) {
  if (foreign_.empty()) return;
  std::sort(foreign_.begin(), foreign_.end());
  std::list<Constraint>& list = d.mutable_constraints();
  for (auto it = list.begin(); it != list.end();) {
    const auto next = std::next(it);
    if (std::binary_search(foreign_.begin(), foreign_.end(), it->id))
      spare_.splice(spare_.end(), list, it);
    it = next;
  }
  foreign_.clear();
}

void DomainDecomposition::DropContactsAwayFromHome(domain::Domain& d) {
  // Contacts whose home moved to another rank (sent there by Rebalance).
  d.mutable_constraints().remove_if(
      [this](const Constraint& c) { return c.kind == ConstraintKind::kContact && !Home(c); });
}

void DomainDecomposition::FlushGhostWork(domain::Domain& d) {
  // Work done by this rank's contacts on ghost copies (Domain::AccountContactWork) goes home.
  std::vector<std::vector<double>> send(comm_.size());
  for (auto& [id, w0] : ghost_work_) {
    Body* b = d.FindBody(id);
    const int o = OwnerOf(id);
    if (!b || o < 0) continue;
    const double d0 = b->external_work - w0[0], d1 = b->contact_work - w0[1],
                 d2 = b->friction_work - w0[2];
    if (d0 == 0.0 && d1 == 0.0 && d2 == 0.0) continue;
    send[o].insert(send[o].end(), {static_cast<double>(id), d0, d1, d2});
    w0 = {b->external_work, b->contact_work, b->friction_work};
  }
  const auto recv = Exchange(send);
  for (const auto& buf : recv) {
    for (size_t i = 0; i + 3 < buf.size(); i += 4) {
      Body* b = d.FindBody(static_cast<Id>(buf[i]));
      if (!b) continue;
      b->external_work += buf[i + 1];
      b->contact_work += buf[i + 2];
      b->friction_work += buf[i + 3];
    }
  }
}

void DomainDecomposition::Rebalance(domain::Domain& d, bool force) {
  const int me = comm_.rank(), n = comm_.size();
  // Load of a body (local dynamics, manual 4.4 weightfactor = 1): the constraints this rank
  // solves with it as their home body (the rows of the solve follow the home bodies'
  // owners) + kBodyLoad for its own integration and detection (a row costs ~15 times a
  // body's step in the drum benchmark). Ranks are compared on the weights Zoltan balances.
  constexpr double kBodyLoad = 1.0 / 16.0;
  std::map<Id, double> load;
  for (const auto& b : d.bodies())
    if (Owns(*b)) load[b->id()] = kBodyLoad;
  for (const Constraint& c : d.constraints()) {
    const Body* b = HomeBody(c);
    if (!b) continue;
    auto it = load.find(b->id());
    if (it != load.end()) it->second += 1.0;
  }
  const double f = settings_.weight_factor;
  std::vector<double> loads(n, 0.0);
  for (const auto& [id, w] : load) loads[me] += (1.0 - f) + f * w;
  comm_.ConsistentSum(loads);  // identical on every rank: one decision
  double total = 0.0, largest = 0.0;
  for (double w : loads) total += w, largest = std::max(largest, w);
  const double imbalance = total > 0.0 ? largest / (total / n) : 1.0;
  last_imbalance_ = imbalance;
  PartitionInput in;
  for (const auto& [id, w] : load) {
    const Body* b = d.FindBody(id);
    in.ids.push_back(id);
    in.centroids.push_back(b->SpatialPoint(b->center()));
    in.weights.push_back(w);
  }
  // Over the tolerance: new cuts (Zoltan, from the kept ones); otherwise bodies whose mass
  // centre crossed a kept cut move to the rank of their new region.
  std::vector<int> owners;
  if (force || imbalance > settings_.tolerance) {
    if (PartitionOrNot(in, owners))
      rebalances_ += 1.0;
    else
      owners.assign(in.ids.size(), me);
  } else {
    for (const Vec3& x : in.centroids)
      owners.push_back(have_cuts_ ? partitioner_->OwnerOfPoint(x) : me);
  }
  std::vector<std::int64_t> moves;
  std::vector<std::vector<double>> send(n);
  for (size_t i = 0; i < in.ids.size(); ++i) {
    if (owners[i] == me) continue;
    moves.push_back(in.ids[i]);
    moves.push_back(owners[i]);
    PackBody(*d.FindBody(in.ids[i]), send[owners[i]]);
  }
  const std::vector<std::int64_t> all = comm_.AllGather(moves);
  const auto recv = Exchange(send);
  for (size_t i = 0; i + 1 < all.size(); i += 2)
    SetOwner(static_cast<Id>(all[i]), static_cast<int>(all[i + 1]));
  for (const auto& buf : recv) {
    const double* p = buf.data();
    while (p < buf.data() + buf.size()) {
      Body* b = UnpackBody(d, p);
      if (b) ghost_work_.erase(b->id());
    }
  }
  migrations_ += static_cast<double>(all.size() / 2);
  if (!all.empty()) {
    // Contacts go with their home body to its new owner, state and all (reaction, previous
    // gap): a contact found afresh there would start cold and, node-to-face, could be
    // decided otherwise (a gap within the previous gap + margin, a node held deep). Added
    // once the ghosts of the new owner are refreshed (AdoptMigratedContacts).
    std::vector<std::vector<double>> sendc(n);
    for (const Constraint& c : d.constraints()) {
      if (c.kind != ConstraintKind::kContact || Home(c)) continue;
      const Body* hb = HomeBody(c);
      const int owner = hb ? OwnerOf(hb->id()) : -1;
      if (owner >= 0 && owner != me) PackConstraint(c, sendc[owner]);
    }
    migrated_contacts_.clear();
    for (const auto& buf : Exchange(sendc))
      migrated_contacts_.insert(migrated_contacts_.end(), buf.begin(), buf.end());
    DropContactsAwayFromHome(d);
  }
}

void DomainDecomposition::AdoptMigratedContacts(domain::Domain& d) {
  std::list<Constraint>& list = d.mutable_constraints();
  for (size_t i = 0; i + kConstraintRecord <= migrated_contacts_.size(); i += kConstraintRecord) {
    const contact::ConstraintRecord r = contact::ReadFlatRecord(migrated_contacts_.data() + i);
    Body* body1 = r.body1 >= 0 ? d.FindBody(r.body1) : nullptr;
    Body* body2 = r.body2 >= 0 ? d.FindBody(r.body2) : nullptr;
    // (Both bodies are here when the contact still holds: the other body overlaps the home
    // body, so it is a ghost of its owner; otherwise the detection ends the contact.)
    if ((r.body1 >= 0 && (!body1 || !Active(*body1))) ||
        (r.body2 >= 0 && (!body2 || !Active(*body2))))
      continue;
    Constraint c;
    contact::SetIdentityAndState(r, body1, body2, c);
    c.material = d.surface_materials().Find(c.surf1, c.surf2);
    if (Home(c)) list.push_back(std::move(c));
  }
  migrated_contacts_.clear();
}

void DomainDecomposition::RefreshGhosts(domain::Domain& d) {
  const int me = comm_.rank(), n = comm_.size();
  // Boxes of owned bodies grown by how far they can move in a step, and their union.
  // With CONTACT_METHOD 'NODE_TO_FACE' also by how far apart a node-to-face contact can
  // begin or hold (margin, previous gap + margin): every rank's largest, so that the two
  // growths of a pair cover it whichever body is the slave.
  const bool node_to_face = d.node_to_face().enabled();
  double capture = 0.0;
  std::vector<std::pair<Body*, geometry::Aabb>> boxes;
  for (const auto& b : d.bodies()) {
    if (!Owns(*b)) continue;
    const geometry::Aabb box = b->shape().Bounds();
    if (box.empty()) continue;
    boxes.emplace_back(b.get(), box);
    if (node_to_face) capture = std::max(capture, d.node_to_face().SlaveMarginBound(*b, box));
  }
  if (node_to_face) {
    double held = 0.0;  // the largest gap of a node-to-face contact, here or arriving
    for (const Constraint& c : d.constraints())
      if (contact::IsNodeToFace(c)) held = std::max(held, c.gap);
    for (size_t i = 0; i + kConstraintRecord <= migrated_contacts_.size(); i += kConstraintRecord) {
      const contact::ConstraintRecord r = contact::ReadFlatRecord(migrated_contacts_.data() + i);
      if (std::holds_alternative<contact::NodeFace>(r.source)) held = std::max(held, r.gap);
    }
    capture = comm_.AllReduceMax(capture + held);
  }
  const double h = d.step(), eps = 2.0 * d.contact_settings().geometric_epsilon + capture;
  geometry::Aabb region;
  for (auto& [b, box] : boxes) {
    const double umax = b->u().size() ? b->u().cwiseAbs().maxCoeff() : 0.0;
    box.Inflate(h * umax * (1.0 + (box.hi - box.lo).norm()) + eps);
    region.Extend(box);
  }
  std::vector<double> mine(6);
  for (int k = 0; k < 3; ++k) mine[k] = region.lo[k], mine[3 + k] = region.hi[k];
  const std::vector<double> all = comm_.AllGather(mine);
  // After a Synchronize every rank's copy is current: the ids say which are ghosts.
  const bool ids_only = synchronized_;
  const auto pack = [ids_only](const Body& b, std::vector<double>& out) {
    if (ids_only)
      out.push_back(static_cast<double>(b.id()));
    else
      PackBody(b, out);
  };
  std::vector<std::vector<double>> send(n);
  std::vector<std::set<Id>> sent(n);
  for (const auto& [b, box] : boxes) {
    for (int s = 0; s < n; ++s) {
      if (s == me) continue;
      geometry::Aabb other;
      other.lo = Vec3(all[6 * s], all[6 * s + 1], all[6 * s + 2]);
      other.hi = Vec3(all[6 * s + 3], all[6 * s + 4], all[6 * s + 5]);
      if (other.empty() || !other.Overlaps(box)) continue;
      if (sent[s].insert(b->id()).second) pack(*b, send[s]);
    }
  }
  // User constraints (PUT_RIGID_LINK, PUT_SPRING, ...) solved on body1's rank need body2.
  for (const Constraint& c : d.constraints()) {
    if (c.kind == ConstraintKind::kContact || !c.body1 || !c.body2) continue;
    const Body* hb = HomeBody(c);
    const Body* other = hb == c.body1 ? c.body2 : c.body1;
    if (!hb || IsObstacle(other) || !Owns(*other)) continue;
    const int home = OwnerOf(hb->id());
    if (home >= 0 && home != me && sent[home].insert(other->id()).second) pack(*other, send[home]);
  }
  for (const auto& [id, w] : ghost_work_)
    if (static_cast<size_t>(id) < state_.size() && state_[id] == kGhost) state_[id] = kInactive;
  ghost_work_.clear();
  const auto recv = Exchange(send);
  synchronized_ = false;
  for (const auto& buf : recv) {
    const double* p = buf.data();
    while (p < buf.data() + buf.size()) {
      Body* b = ids_only ? d.FindBody(static_cast<Id>(*p++)) : UnpackBody(d, p);
      if (!b || static_cast<size_t>(b->id()) >= state_.size() || state_[b->id()] == kOwned)
        continue;
      state_[b->id()] = kGhost;
      ghost_work_[b->id()] = {b->external_work, b->contact_work, b->friction_work};
    }
  }
  ghost_sum_ += static_cast<double>(ghost_work_.size());
}

void DomainDecomposition::BeginStep(domain::Domain& d) {
  Timer t;
  t.Start();
  CheckSameBodies(d);
  if (!started_) Initialize(d);
  RemoveForeignConstraints(d);
  AssignNewBodies(d);
  FlushGhostWork(d);
  if (steps_since_balance_ < 0 || ++steps_since_balance_ >= update_frequency) {
    const bool force = steps_since_balance_ < 0;
    steps_since_balance_ = 0;
    Timer b;
    b.Start();
    Rebalance(d, force);
    balance_time_ += b.Stop();
  }
  RefreshGhosts(d);
  AdoptMigratedContacts(d);
  steps_ += 1.0;
  step_time_ += t.Stop();
}

// ---------------------------------------------------------------- solve

solvers::ProcessCoupling* DomainDecomposition::PrepareSolve(domain::Domain& d,
                                                            const std::vector<Constraint*>& rows,
                                                            solvers::BlockProblem& problem) {
  const int me = comm_.rank(), n = comm_.size();
  std::map<Id, Body*> touched;  // non-obstacle bodies of this rank's rows
  for (const Constraint* c : rows)
    for (Body* b : {c->body1, c->body2})
      if (b && !IsObstacle(b)) touched[b->id()] = b;
  // 1. Tell the owners which of their bodies this rank's rows touch.
  std::vector<std::vector<double>> send(n);
  remote_touched_.clear();
  for (const auto& [id, b] : touched) {
    const int o = OwnerOf(id);
    if (o == me || o < 0) continue;
    send[o].push_back(static_cast<double>(id));
    remote_touched_.push_back(id);
  }
  const auto recv = Exchange(send);
  // 2. Owners tell every touching rank who else touches the body (when more than one does).
  std::map<Id, std::vector<int>> touchers;
  for (const auto& [id, b] : touched)
    if (OwnerOf(id) == me) touchers[id].push_back(me);
  for (int r = 0; r < n; ++r)
    for (double x : recv[r]) touchers[static_cast<Id>(x)].push_back(r);
  std::vector<std::vector<double>> announce(n);
  std::map<Id, std::vector<int>> others;
  for (auto& [id, ranks] : touchers) {
    if (ranks.size() < 2) continue;
    std::sort(ranks.begin(), ranks.end());
    for (int r : ranks) {
      if (r == me) continue;
      announce[r].push_back(static_cast<double>(id));
      announce[r].push_back(static_cast<double>(ranks.size()));
      for (int x : ranks) announce[r].push_back(x);
    }
    if (std::find(ranks.begin(), ranks.end(), me) != ranks.end()) others[id] = ranks;
  }
  const auto heard = Exchange(announce);
  for (const auto& buf : heard) {
    for (size_t i = 0; i + 1 < buf.size();) {
      const Id id = static_cast<Id>(buf[i]);
      const int k = static_cast<int>(buf[i + 1]);
      others[id].assign(buf.begin() + i + 2, buf.begin() + i + 2 + k);
      i += 2 + k;
    }
  }
  // 3. The coupling: this rank's rows on every shared body, in body id order on all ranks.
  coupling_->Reset(problem);
  std::vector<RankCoupling::Shared>& shared = coupling_->shared();
  std::map<Id, int> index;
  for (const auto& [id, ranks] : others) {
    if (!touched.count(id)) continue;
    index[id] = static_cast<int>(shared.size());
    shared.push_back({touched[id], {}, VecX(), VecX()});
    for (int r : ranks)
      if (r != me) coupling_->to_rank()[r].push_back(index[id]);
  }
  for (size_t i = 0; i < rows.size() && !shared.empty(); ++i) {
    const Constraint& c = *rows[i];
    const bool two = c.body1 && c.body2;
    for (int k = 0; k < 2; ++k) {
      Body* b = k == 0 ? c.body1 : c.body2;
      if (!b) continue;
      auto it = index.find(b->id());
      if (it == index.end()) continue;
      RankCoupling::Entry e;
      e.row = static_cast<int>(i);
      e.sign = (k == 0 && two) ? -1.0 : 1.0;
      body::ComputeConstraintH(*b, k == 0 ? c.X1 : c.X2, k == 0 ? -1 : contact::SlaveNode(c),
                               k == 0 ? c.face1 : body::MeshFacePoint(), c.base, e.H);
      shared[it->second].entries.push_back(std::move(e));
    }
  }
  shared_sum_ += static_cast<double>(shared.size());
  coupling_->Plan();
  coupling_->Colour();
  return coupling_.get();  // on every rank: the solvers' sums are collective
}

void DomainDecomposition::FinishSolve(domain::Domain& d) {
  // Impulses of this rank's rows on bodies owned elsewhere go to their owners.
  std::vector<std::vector<double>> send(comm_.size());
  for (Id id : remote_touched_) {
    Body* b = d.FindBody(id);
    const int nd = b->num_dofs();
    std::vector<double>& out = send[OwnerOf(id)];
    out.push_back(static_cast<double>(id));
    out.push_back(nd);
    if (b->impulse().size() == nd)
      out.insert(out.end(), b->impulse().data(), b->impulse().data() + nd);
    else
      out.insert(out.end(), nd, 0.0);
  }
  const auto recv = Exchange(send);
  for (const auto& buf : recv) {
    for (size_t i = 0; i + 1 < buf.size();) {
      Body* b = d.FindBody(static_cast<Id>(buf[i]));
      const int nd = static_cast<int>(buf[i + 1]);
      if (b && b->num_dofs() == nd) {
        VecX& imp = b->impulse();
        if (imp.size() != nd) imp = VecX::Zero(nd);
        imp += Eigen::Map<const VecX>(buf.data() + i + 2, nd);
      }
      i += 2 + nd;
    }
  }
}

std::vector<Id> DomainDecomposition::GatherIds(const std::vector<Id>& mine) {
  std::vector<std::int64_t> v(mine.begin(), mine.end());
  const std::vector<std::int64_t> all = comm_.AllGather(v);
  return std::vector<Id>(all.begin(), all.end());
}

// ---------------------------------------------------------------- whole problem

namespace {

constexpr int kRowRecord = 24;  // doubles per row before its blocks (PackRow)

void PackRow(const domain::ProblemRow& r, const solvers::Law& law, const Vec3& B0, const Vec3& R,
             const Vec3& U, std::vector<double>& out) {
  for (Id x : {r.id, r.body1, r.body2}) out.push_back(static_cast<double>(x));
  Put(out, r.point);
  out.push_back(static_cast<double>(static_cast<int>(law.kind)));
  for (double x : {law.friction, law.restitution, law.UN_prev, law.cohesion}) out.push_back(x);
  out.push_back(law.cohesive ? 1.0 : 0.0);
  for (const Vec3& v : {law.target, B0, R, U}) Put(out, v);
}

void UnpackRow(const double* p, domain::ProblemRow& r, solvers::Law& law, Vec3& B, Vec3& R,
               Vec3& U) {
  r = {static_cast<Id>(p[0]), static_cast<Id>(p[1]), static_cast<Id>(p[2]), Get3(p + 3)};
  law.kind = static_cast<solvers::LawKind>(static_cast<int>(p[6]));
  law.friction = p[7];
  law.restitution = p[8];
  law.UN_prev = p[9];
  law.cohesion = p[10];
  law.cohesive = p[11] != 0.0;
  law.target = Get3(p + 12);
  B = Get3(p + 15);
  R = Get3(p + 18);
  U = Get3(p + 21);
}

}  // namespace

// Every rank packs [rows, per row: PackRow, block count, (column id, 9 values)...], the
// cross-rank blocks of its rows included; all ranks gather all and index the columns.
void DomainDecomposition::GatherProblem(const domain::Domain& d, solvers::BlockProblem& whole,
                                        std::vector<domain::ProblemRow>& rows) {
  const solvers::BlockProblem& P = d.last_problem();
  const std::vector<domain::ProblemRow>& mine = d.last_problem_rows();
  const int n = P.size();
  std::vector<Id> ids(n);
  for (int a = 0; a < n; ++a) ids[a] = mine[a].id;
  const bool coupled = started_ && coupling_->B0().size() == static_cast<size_t>(n);
  const std::map<std::pair<Id, Id>, Mat3> cross =
      started_ ? coupling_->CrossBlocks(ids) : std::map<std::pair<Id, Id>, Mat3>{};
  std::vector<double> out{static_cast<double>(n)};
  for (int a = 0; a < n; ++a) {
    const Vec3 zero = Vec3::Zero();
    PackRow(mine[a], P.laws[a], coupled ? coupling_->B0()[a] : P.B[a],
            a < static_cast<int>(P.R.size()) ? P.R[a] : zero,
            a < static_cast<int>(P.U.size()) ? P.U[a] : zero, out);
    const auto first = cross.lower_bound({ids[a], std::numeric_limits<Id>::min()});
    auto last = first;
    while (last != cross.end() && last->first.first == ids[a]) ++last;
    const auto nblocks = P.row_ptr[a + 1] - P.row_ptr[a] + std::distance(first, last);
    out.push_back(static_cast<double>(nblocks));
    for (int k = P.row_ptr[a]; k < P.row_ptr[a + 1]; ++k) {
      out.push_back(static_cast<double>(ids[P.col[k]]));
      out.insert(out.end(), P.W[k].data(), P.W[k].data() + 9);
    }
    for (auto it = first; it != last; ++it) {
      out.push_back(static_cast<double>(it->first.second));
      out.insert(out.end(), it->second.data(), it->second.data() + 9);
    }
  }
  const std::vector<double> all = comm_.AllGather(out);
  // rows first (their ids index the columns), then the blocks
  rows.clear();
  whole = solvers::BlockProblem();
  whole.step = P.step;
  std::vector<std::vector<std::pair<Id, Mat3>>> blocks;
  for (size_t i = 0; i < all.size();) {
    const int m = static_cast<int>(all[i++]);
    for (int a = 0; a < m; ++a) {
      rows.emplace_back();
      whole.laws.emplace_back();
      whole.B.emplace_back();
      whole.R.emplace_back();
      whole.U.emplace_back();
      UnpackRow(&all[i], rows.back(), whole.laws.back(), whole.B.back(), whole.R.back(),
                whole.U.back());
      i += kRowRecord;
      const int nb = static_cast<int>(all[i++]);
      blocks.emplace_back();
      for (int k = 0; k < nb; ++k, i += 10)
        blocks.back().emplace_back(static_cast<Id>(all[i]), Eigen::Map<const Mat3>(&all[i + 1]));
    }
  }
  std::map<Id, int> index;
  for (size_t a = 0; a < rows.size(); ++a) index[rows[a].id] = static_cast<int>(a);
  whole.row_ptr.assign(1, 0);
  for (const auto& row : blocks) {
    for (const auto& [id, w] : row) {
      whole.col.push_back(index.at(id));
      whole.W.push_back(w);
    }
    whole.row_ptr.push_back(static_cast<int>(whole.col.size()));
  }
}

// ---------------------------------------------------------------- synchronisation

void DomainDecomposition::Synchronize(domain::Domain& d) {
  if (!started_) return;
  Timer t;
  t.Start();
  const int me = comm_.rank();
  FlushGhostWork(d);
  by_id_.clear();
  for (const auto& b : d.bodies()) {
    if (b->id() < 0) continue;
    if (static_cast<size_t>(b->id()) >= by_id_.size()) by_id_.resize(b->id() + 1, nullptr);
    by_id_[b->id()] = b.get();
  }
  std::vector<double> mine;
  mine.reserve(d.bodies().size() * 24);  // (rigid bodies: 24 values each)
  for (const auto& b : d.bodies())
    if (Owns(*b)) PackBody(*b, mine);
  std::vector<int> counts;
  const std::vector<double> all = comm_.AllGather(mine, &counts);
  size_t offset = 0;
  for (int r = 0; r < comm_.size(); ++r) {
    const double* p = all.data() + offset;
    const double* end = p + counts[r];
    offset += counts[r];
    if (r == me) continue;
    while (p < end) {
      Body* b = UnpackBody(d, p, &by_id_);
      if (b && ghost_work_.count(b->id()))
        ghost_work_[b->id()] = {b->external_work, b->contact_work, b->friction_work};
    }
  }
  // Obstacles are integrated everywhere, but each rank's contacts add work to its own copy:
  // the copies get the sum of every rank's work since the last synchronisation.
  std::vector<Body*> obstacles;
  std::vector<double> work;
  for (const auto& b : d.bodies()) {
    if (b->kind() != BodyKind::kObstacle) continue;
    const auto base = obstacle_work_.try_emplace(
        b->id(), std::array<double, 3>{b->external_work, b->contact_work, b->friction_work});
    const std::array<double, 3>& w0 = base.first->second;
    obstacles.push_back(b.get());
    work.insert(work.end(),
                {b->external_work - w0[0], b->contact_work - w0[1], b->friction_work - w0[2]});
  }
  comm_.ConsistentSum(work);
  for (size_t i = 0; i < obstacles.size(); ++i) {
    Body* b = obstacles[i];
    std::array<double, 3>& w0 = obstacle_work_[b->id()];
    b->external_work = w0[0] + work[3 * i];
    b->contact_work = w0[1] + work[3 * i + 1];
    b->friction_work = w0[2] + work[3 * i + 2];
    w0 = {b->external_work, b->contact_work, b->friction_work};
  }
  // Constraints: user constraints are on every rank (their solution comes from home);
  // contacts of other ranks are copied in until the next step.
  RemoveForeignConstraints(d);
  std::vector<double> cons;
  cons.reserve(d.constraints().size() * kConstraintRecord);
  for (const Constraint& c : d.constraints())
    if (Home(c)) PackConstraint(c, cons);
  const std::vector<double> allc = comm_.AllGather(cons, &counts);
  // Appended after the loop (FindConstraint's index stays valid), in nodes of the copies
  // the last step removed (RemoveForeignConstraints keeps them in spare_).
  std::list<Constraint> incoming;
  int last_s1 = -1, last_s2 = -1;  // surface pair of the last material lookup
  const material::SurfaceMaterial* last_material = nullptr;
  offset = 0;
  for (int r = 0; r < comm_.size(); ++r) {
    const size_t begin = offset, end = offset + counts[r];
    offset = end;
    if (r == me) continue;
    for (size_t i = begin; i + kConstraintRecord <= end; i += kConstraintRecord) {
      const contact::ConstraintRecord r = contact::ReadFlatRecord(allc.data() + i);
      const Id id = r.id;
      if (r.kind != ConstraintKind::kContact) {
        if (Constraint* c = d.FindConstraint(id)) contact::SetState(r, *c);
        continue;
      }
      Body* body1 = ById(by_id_, static_cast<double>(r.body1));
      Body* body2 = ById(by_id_, static_cast<double>(r.body2));
      if ((r.body1 >= 0 && !body1) || (r.body2 >= 0 && !body2)) continue;
      if (spare_.empty()) {
        incoming.emplace_back();
      } else {
        incoming.splice(incoming.end(), spare_, spare_.begin());
        incoming.back() = Constraint();
      }
      Constraint& c = incoming.back();
      contact::SetIdentityAndState(r, body1, body2, c);
      if (c.surf1 != last_s1 || c.surf2 != last_s2 || !last_material) {
        last_s1 = c.surf1;
        last_s2 = c.surf2;
        last_material = d.surface_materials().Find(c.surf1, c.surf2);
      }
      c.material = last_material;
      foreign_.push_back(id);
    }
  }
  spare_.clear();  // copies of contacts that ended
  d.mutable_constraints().splice(d.mutable_constraints().end(), incoming);
  synchronized_ = true;
  comm_time_ += t.Stop();
}

std::map<std::string, double> DomainDecomposition::Stats() {
  std::vector<double> sums{bytes_sent_ + coupling_stats_.bytes_sent, migrations_, ghost_sum_,
                           shared_sum_};
  comm_.ConsistentSum(sums);
  std::map<std::string, double> out;
  out["ranks"] = comm_.size();
  out["steps"] = steps_;
  out["balance_time"] = comm_.AllReduceMax(balance_time_);
  out["begin_step_time"] = comm_.AllReduceMax(step_time_);
  out["comm_time"] = comm_.AllReduceMax(comm_time_ + coupling_stats_.comm_time);
  out["bytes_sent"] = sums[0];
  out["bytes_per_step"] = steps_ > 0 ? sums[0] / steps_ : 0.0;
  out["migrations"] = migrations_;  // (every rank counts every move)
  out["rebalances"] = rebalances_;
  out["ghosts_per_step"] = steps_ > 0 ? sums[2] / steps_ : 0.0;
  out["shared_bodies_per_step"] = steps_ > 0 ? sums[3] / steps_ : 0.0;
  out["exchanges"] = coupling_stats_.exchanges;
  out["colours"] = coupling_->num_colours();  // of the last step's rank colouring
  out["imbalance"] = last_imbalance_;         // at the last check (largest rank load / average)
  return out;
}

domain::Decomposition* CreateDomainDecomposition() { return new DomainDecomposition(); }

}  // namespace solfec::parallel
