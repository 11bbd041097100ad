// Domain: the time step of manual chapter 1 and the bookkeeping around it.
#include "domain/domain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/errors.h"
#include "base/math.h"
#include "body/rigid_body.h"
#include "domain/springs.h"
#include "integration/integrator.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::domain {

using body::Body;
using body::BodyKind;
using contact::Constraint;
using contact::ConstraintKind;

Domain::Domain(Analysis analysis, double step)
    : analysis_(analysis), step_(step), decomposition_(std::make_unique<SerialDecomposition>()) {
  set_step(step);
}

Domain::~Domain() = default;

void Domain::set_step(double h) {
  if (!std::isfinite(h) || h <= 0.0)
    throw InputError("SOLFEC: time step must be positive (argument 'step', value " +
                     std::to_string(h) + ")");
  step_ = h;
}

body::Body& Domain::AddBody(std::unique_ptr<body::Body> b) {
  b->set_id(next_body_id_++);
  body_by_id_[b->id()] = b.get();
  integrators_[b.get()] = integration::MakeIntegrator(*b, analysis_ == Analysis::kQuasiStatic
                                                              ? integration::Mode::kQuasiStatic
                                                              : integration::Mode::kDynamic);
  bodies_.push_back(std::move(b));
  if (step_count_ > 0) ++bodies_added_since_step_;
  return *bodies_.back();
}

body::Body& Domain::AddBodyWithId(std::unique_ptr<body::Body> b, Id id) {
  if (FindBody(id)) throw InputError("AddBodyWithId: body id " + std::to_string(id) + " is in use");
  const Id next = next_body_id_;
  next_body_id_ = id;
  body::Body& added = AddBody(std::move(b));
  next_body_id_ = std::max(next, id + 1);
  return added;
}

void Domain::DeleteBody(Id id) {
  Body* b = FindBody(id);
  if (!b) return;
  if (step_count_ > 0) ++bodies_deleted_since_step_;
  constraints_.remove_if([b](const Constraint& c) { return c.body1 == b || c.body2 == b; });
  constraint_index_valid_ = false;
  body_by_id_.erase(id);
  integrators_.erase(b);
  bodies_.erase(
      std::remove_if(bodies_.begin(), bodies_.end(), [b](const auto& p) { return p.get() == b; }),
      bodies_.end());
}

body::Body* Domain::FindBody(Id id) const {
  const auto it = body_by_id_.find(id);
  return it == body_by_id_.end() ? nullptr : it->second;
}

contact::Constraint& Domain::AddConstraint(contact::Constraint c) {
  c.id = next_constraint_id_;
  next_constraint_id_ += constraint_id_stride_;
  constraints_.push_back(std::move(c));
  constraint_index_valid_ = false;
  return constraints_.back();
}

void Domain::SetDecomposition(std::unique_ptr<Decomposition> d) {
  decomposition_ = d ? std::move(d) : std::make_unique<SerialDecomposition>();
}

void Domain::SetConstraintIdStride(int stride, int offset) {
  // Start from a multiple of stride above every id in use, then shift by offset.
  const Id base = (next_constraint_id_ + stride - 1) / stride * stride;
  next_constraint_id_ = base + offset;
  constraint_id_stride_ = stride;
}

void Domain::RestoreClock(double time, int step_count, Id next_constraint_id) {
  time_ = time;
  step_count_ = step_count;
  next_constraint_id_ = std::max(next_constraint_id_, next_constraint_id);
  for (Callback& cb : callbacks_)
    cb.when.MovePast(time_, step_, cb.when.interval > 0.0 ? cb.when.interval : step_);
}

contact::Constraint& Domain::RestoreConstraint(contact::Constraint c) {
  next_constraint_id_ = std::max(next_constraint_id_, c.id + 1);
  constraints_.push_back(std::move(c));
  constraint_index_valid_ = false;
  return constraints_.back();
}

void Domain::DeleteConstraint(Id id) {
  constraints_.remove_if([id](const Constraint& c) { return c.id == id; });
  constraint_index_valid_ = false;
}

contact::Constraint* Domain::FindConstraint(Id id) {
  if (!constraint_index_valid_) {
    constraint_index_.clear();
    for (Constraint& c : constraints_) constraint_index_[c.id] = &c;
    constraint_index_valid_ = true;
  }
  const auto it = constraint_index_.find(id);
  return it == constraint_index_.end() ? nullptr : it->second;
}

Vec3 Domain::Gravity(double t) const {
  return Vec3(gravity_[0](t), gravity_[1](t), gravity_[2](t));
}

int Domain::num_contacts() const {
  return static_cast<int>(
      std::count_if(constraints_.begin(), constraints_.end(),
                    [](const auto& c) { return c.kind == ConstraintKind::kContact; }));
}

void Domain::AddCallback(double interval, std::function<bool()> fn) {
  callbacks_.push_back({IntervalEvent{interval, time_ + interval}, std::move(fn)});
}

void Domain::LimitStepToCritical(bool all) {
  if (analysis_ != Analysis::kDynamic) return;
  double lowest = step_;
  const Body* which = nullptr;
  for (auto& b : bodies_) {
    if (!all && !Active(*b)) continue;
    const double hc = 0.5 * integrators_.at(b.get())->CriticalStep();  // Solfec-1.0's 0.5
    if (hc < lowest) {
      lowest = hc;
      which = b.get();
    }
  }
  if (!which) return;
  if (!step_warned_) {
    step_warned_ = true;
    std::fprintf(stderr,
                 "WARNING: RUN: time step lowered from %g to %g s, half the critical step of "
                 "%s body %lld%s (scheme 'DEF_EXP'), as Solfec-1.0 does; SOLFEC.step shows the "
                 "step used (scheme 'DEF_LIM' keeps the step)\n",
                 step_, lowest, body::KindName(which->kind()), static_cast<long long>(which->id()),
                 which->label().empty() ? "" : (" ('" + which->label() + "')").c_str());
  }
  step_ = lowest;
}

bool Domain::GuidesObstacles(const Constraint& c) {
  if (c.kind != ConstraintKind::kFixPoint && c.kind != ConstraintKind::kFixDirection &&
      c.kind != ConstraintKind::kVeloDir)
    return false;
  const auto obstacle = [](const body::Body* b) {
    return !b || b->kind() == body::BodyKind::kObstacle;
  };
  return (c.body1 || c.body2) && obstacle(c.body1) && obstacle(c.body2);
}

void Domain::GuideObstacles(double t, double h) {
  std::vector<Constraint*> rows;
  std::vector<body::RigidBody*> guided;
  for (auto& b : bodies_)
    if (b->kind() == body::BodyKind::kObstacle) static_cast<body::RigidBody&>(*b).set_guided(false);
  if (analysis_ != Analysis::kDynamic) return;
  for (Constraint& c : constraints_) {
    if (!GuidesObstacles(c)) continue;  // (every rank: obstacles are integrated everywhere)
    rows.push_back(&c);
    for (body::Body* b : {c.body1, c.body2}) {
      if (!b) continue;
      auto* r = static_cast<body::RigidBody*>(b);
      if (!r->guided()) guided.push_back(r);
      r->set_guided(true);
    }
  }
  if (rows.empty()) return;
  guide_dynamics_.Assemble(rows, t, h, guide_problem_, {false, false, true});
  // Equality rows on a few rigid bodies: Gauss-Seidel to round-off.
  solvers::GaussSeidelOptions o;
  o.epsilon = 1e-13;
  o.maxiter = 10000;
  o.anderson = 0;
  solvers::GaussSeidelSolver gs(o);
  gs.Solve(guide_problem_);
  for (body::RigidBody* r : guided) r->impulse().setZero(body::RigidBody::kNumDofs);
  guide_dynamics_.Scatter(rows, h, guide_problem_);
  for (body::RigidBody* r : guided) {
    VecX du = r->impulse();
    r->ApplyInverseInertia(du);
    r->u_free() += du;
    r->impulse().setZero(body::RigidBody::kNumDofs);
  }
}

// One time step of manual chapter 1, a stage per line (docs/design.md walks through it).
// Each stage's wall time goes to its TIMING label; under solfec-mpi the stages work on this
// rank's bodies and rows, and the decomposition's collective calls join the ranks.
void Domain::Step(solvers::ConstraintSolver& solver) {
  RequireCoupledSolver(solver);  // solfec-mpi: the solver must couple the ranks' rows
  LimitStep();                   // DEF_EXP: at most half the critical step
  const double t = time_, h = step_;
  Timer timer;
  const auto stage = [&timer](auto&& run) {
    timer.Start();
    run();
    return timer.Stop();
  };
  StageTimes& times = stage_times_;
  times.PARBAL = stage([&] { BalanceRanks(); });          // solfec-mpi: migration, ghosts
  times.TIMINT = stage([&] { BeginIntegration(t, h); });  // q(t+h/2), u_free
  times.CONUPD = stage([&] { UpdateConstraints(); });     // frames at q(t+h/2)
  times.CONDET = stage([&] { DetectContacts(); });        // new contacts, sparsified
  times.LOCDYN = stage([&] { AssembleLocalDynamics(t, h, solver); });  // W, B
  times.CONSOL = stage([&] {
    SolveConstraints(h, solver);  // R: C(B + W R, R) = 0; impulses h H^T R
    BreakConstraints();           // |R| > strength
  });
  times.TIMINT += stage([&] { EndIntegration(t, h); });     // u(t+h), q(t+h); t += h
  times.PARBAL += stage([&] { SynchronizeRanksIfDue(); });  // before output, callbacks
  NotifyObservers();                                        // output, progress
}

// --- the stages of Step

void Domain::RequireCoupledSolver(const solvers::ConstraintSolver& solver) const {
  if (!distributed() || solver.supports_coupling()) return;
  throw InputError(std::string(solver.name()) + (solver.matrix_free() ? " (locdyn 'OFF')" : "") +
                   ": not available in solfec-mpi runs yet; use GAUSS_SEIDEL_SOLVER, "
                   "PENALTY_SOLVER or NEWTON_SOLVER (docs/parallel.md)");
}

void Domain::BalanceRanks() {
  decomposition_->BeginStep(*this);  // collective; nothing in serial runs
  constraint_index_valid_ = false;
}

void Domain::LimitStep() {
  // solfec-mpi lowers the step only at the start of RUN (Run), when every rank sees every
  // body, so that the ranks keep one step.
  if (!distributed()) LimitStepToCritical(false);
}

// q(t+h/2) = q(t) + h/2 u(t); u_free = u(t) + h A^-1 f(t+h/2). QUASI_STATIC: q and the loads
// at t+h, u_free = h A^-1 f (quasi_static_integrator.h).
void Domain::BeginIntegration(double t, double h) {
  const bool qs = analysis_ == Analysis::kQuasiStatic;
  const Vec3 g = Gravity(qs ? t + h : t + 0.5 * h);
  active_.clear();
  active_.reserve(bodies_.size());
  for (auto& b : bodies_)
    if (Active(*b)) active_.push_back({b.get(), integrators_.at(b.get()).get()});
  for (Stepped& s : active_) s.integrator->CheckStep(h);  // throws before anything moves
  for (Stepped& s : active_) s.integrator->BeginStep(t, h);
  for (Stepped& s : active_) s.integrator->FreeVelocity(t, h, g);
}

// Existing contacts and the user constraints at q(t+h/2).
void Domain::UpdateConstraints() {
  contacts_.Update(*this);
  UpdateUserConstraints();
}

void Domain::DetectContacts() {
  contacts_.Detect(*this);
  CheckPenetration();
}

// W = h H A^-1 H^T, B = H u_free of the rows this rank solves. DYNAMIC: the obstacles moved
// by their own constraints get their velocity first (GuideObstacles); those rows are not
// solved again (QUASI_STATIC: only FIX_POINT / FIX_DIRECTION, which Solfec-1.0 decks put on
// obstacles, are accepted there, and they are vacuous).
void Domain::AssembleLocalDynamics(double t, double h, const solvers::ConstraintSolver& solver) {
  GuideObstacles(t, h);
  rows_.clear();
  rows_.reserve(constraints_.size());
  for (Constraint& c : constraints_)
    if (Home(c) && !GuidesObstacles(c)) rows_.push_back(&c);
  local_dynamics_.Assemble(rows_, t, h, problem_,
                           {solver.matrix_free(), analysis_ == Analysis::kQuasiStatic});
  problem_rows_.resize(rows_.size());
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Constraint& c = *rows_[i];
    problem_rows_[i] = {c.id, c.body1 ? c.body1->id() : -1, c.body2 ? c.body2->id() : -1, c.point};
  }
}

// Solves C(B + W R, R) = 0 and adds h H^T R to the bodies' impulses (solfec-mpi: with the
// other ranks' rows, and the impulses on bodies owned elsewhere sent to their owners).
void Domain::SolveConstraints(double h, solvers::ConstraintSolver& solver) {
  solvers::ProcessCoupling* coupling = decomposition_->PrepareSolve(*this, rows_, problem_);
  solver_stats_ = coupling ? solver.SolveCoupled(problem_, *coupling) : solver.Solve(problem_);
  local_dynamics_.Scatter(rows_, h, problem_);
  decomposition_->FinishSolve(*this);
  for (size_t i = 0; i < rows_.size(); ++i)
    rows_[i]->merit = i < solver_stats_.row_merit.size() ? solver_stats_.row_merit[i] : 0.0;
}

// Constraints with a strength (FIX_POINT, PUT_RIGID_LINK) break once |R| exceeds it; the
// home rank decides and every rank's copy goes.
void Domain::BreakConstraints() {
  std::vector<Id> broken;
  for (const Constraint& c : constraints_)
    if (Home(c) && c.strength > 0 && c.R.norm() > c.strength) broken.push_back(c.id);
  const std::vector<Id> all = decomposition_->GatherIds(broken);
  if (!all.empty()) {
    const std::set<Id> gone(all.begin(), all.end());
    constraints_.remove_if([&gone](const Constraint& c) { return gone.count(c.id) > 0; });
  }
  rows_.clear();  // (may point at removed constraints)
  constraint_index_valid_ = false;
}

// u(t+h) = u_free + A^-1 H^T R h; q(t+h) = q(t+h/2) + h/2 u(t+h) for the bodies this rank
// owns (and the obstacles); contact work; the clock; NaN check; EXTENTS.
void Domain::EndIntegration(double t, double h) {
  for (Stepped& s : active_)
    if (Owns(*s.body) || s.body->kind() == BodyKind::kObstacle) s.integrator->EndStep(t, h);
  active_.clear();
  AccountContactWork(h);
  time_ = t + h;
  ++step_count_;
  CheckFinite();
  DeleteBodiesOutsideExtents();
  deleted_last_step_ = bodies_deleted_since_step_;  // also those deleted between steps
  bodies_deleted_since_step_ = 0;
  new_last_step_ = bodies_added_since_step_;
  bodies_added_since_step_ = 0;
}

// solfec-mpi: every rank's copy current before output and callbacks read it.
void Domain::SynchronizeRanksIfDue() {
  if (ObserverDue() || CallbackDue()) SynchronizeRanks();
}

void Domain::SynchronizeRanks() {
  decomposition_->Synchronize(*this);  // collective; nothing in serial runs
  synchronized_step_ = step_count_;
  constraint_index_valid_ = false;
}

void Domain::NotifyObservers() {
  for (const StepObserver& o : step_observers_) o.after_step(*this);
  if (progress_) progress_(*this);
}

// --- RUN

bool Domain::Run(solvers::ConstraintSolver& solver, double duration) {
  LimitStepToCritical(true);  // explicit bodies: the step Solfec-1.0 would take
  const long steps = std::max(0L, std::lround(duration / step_));
  run_end_time_ = time_ + steps * step_;
  bool warned = false;  // one stderr warning per RUN about an unconverged solve
  // (while, not a count: Step may lower the step; the same count when it stays)
  while (time_ + 0.5 * step_ < run_end_time_) {
    Step(solver);
    if (!solver_stats_.converged && !warned) {
      warned = true;
      std::fprintf(stderr,
                   "WARNING: %s did not converge at step %d (t = %g): merit %.3e after "
                   "%d iterations (error %s); further failures of this RUN are not reported "
                   "here (see the progress line and HISTORY 'MERIT')\n",
                   solver.name(), step_count_, time_, solver_stats_.merit, solver_stats_.iters,
                   solver_stats_.error.c_str());
    }
    if (!solver_stats_.converged && solver_failure_ && !solver_failure_(solver_stats_))
      return false;
    for (Callback& cb : callbacks_) {
      if (cb.when.Due(time_, step_)) {
        cb.when.MovePast(time_, step_, cb.when.interval > 0.0 ? cb.when.interval : step_);
        if (!cb.fn()) return false;
      }
    }
    if (interrupt_check_ && interrupt_check_()) return false;
  }
  // The deck reads a current state after RUN.
  if (synchronized_step_ != step_count_) SynchronizeRanks();
  return true;
}

bool Domain::CallbackDue() const {
  for (const Callback& cb : callbacks_)
    if (cb.when.Due(time_, step_)) return true;
  return false;
}

bool Domain::ObserverDue() const {
  for (const StepObserver& o : step_observers_)
    if (o.due && o.due(*this)) return true;
  return false;
}

void Domain::AddStepObserver(std::function<void(const Domain&)> after_step,
                             std::function<bool(const Domain&)> due) {
  step_observers_.push_back({std::move(after_step), std::move(due)});
}

void Domain::UpdateUserConstraints() {
  for (Constraint& c : constraints_) {
    if (!Home(c)) continue;
    switch (c.kind) {
      case ConstraintKind::kContact:
        break;
      case ConstraintKind::kFixPoint:
      case ConstraintKind::kFixDirection:
      case ConstraintKind::kVeloDir:
        c.point = c.body1->SpatialPoint(c.X1);
        if (c.body2) c.point2 = c.body2->SpatialPoint(c.X2);  // two-body FIX_DIRECTION
        break;
      case ConstraintKind::kRigidLink: {
        c.point = c.body1 ? c.body1->SpatialPoint(c.X1) : c.X_origin;
        c.point2 = c.body2 ? c.body2->SpatialPoint(c.X2) : c.X_origin;
        if (c.length > 0.0) {
          const Vec3 d = c.point2 - c.point;
          if (d.norm() > 0.0) c.base = BaseFromNormal(d.normalized());
        }
        break;
      }
      case ConstraintKind::kSpring:
        UpdateSpring(c, analysis_ == Analysis::kQuasiStatic);
        break;
      case ConstraintKind::kGlue:  // PARTITION
        c.point = c.body1->SpatialPoint(c.X1);
        c.point2 = c.body2->SpatialPoint(c.X2);
        break;
    }
  }
}

void Domain::CheckPenetration() const {
  if (contact_settings_.penetration_depth < 0.0) return;
  for (const Constraint& c : constraints_) {
    if (c.kind == ConstraintKind::kContact && c.gap < -contact_settings_.penetration_depth) {
      std::ostringstream msg;
      msg << "UNPHYSICAL_PENETRATION: gap " << c.gap << " between bodies " << c.body1->id()
          << " and " << c.body2->id() << " at time " << time_ << " exceeds the depth "
          << contact_settings_.penetration_depth << "; reduce the time step or stiffen the model";
      throw SolverError(msg.str());
    }
  }
}

void Domain::AccountContactWork(double h) {
  // Work of the average reaction over the step: h R . (U(t) + U(t+h)) / 2, normal part into
  // contact work and tangential part into friction work; split evenly between two bodies.
  // PUT_SPRING: the work of the dashpot part of the force into contact work (its elastic
  // part is the spring's stored energy, added to INTERNAL by ComputeEnergy).
  for (const Constraint& c : constraints_) {
    if (c.kind != ConstraintKind::kSpring || !Home(c)) continue;
    const double wd = SpringDashpotWork(c, h);
    const double share = c.body1 && c.body2 ? 0.5 : 1.0;
    for (Body* b : {c.body1, c.body2})
      if (b) b->contact_work += share * wd;
  }
  for (const Constraint& c : constraints_) {
    if (c.kind != ConstraintKind::kContact || !Home(c)) continue;
    const Vec3 Um = 0.5 * (c.U + c.U_prev);
    const double wn = h * c.R.z() * Um.z();
    const double wt = h * (c.R.x() * Um.x() + c.R.y() * Um.y());
    const double share = c.body1 && c.body2 ? 0.5 : 1.0;
    for (Body* b : {c.body1, c.body2}) {
      if (!b) continue;
      b->contact_work += share * wn;
      b->friction_work += share * wt;
    }
  }
}

void Domain::DeleteBodiesOutsideExtents() {
  if (!contact_settings_.extents) return;
  const auto& e = *contact_settings_.extents;
  std::vector<Id> out;
  for (const auto& b : bodies_) {
    if (b->kind() == BodyKind::kObstacle || !Owns(*b)) continue;
    const Vec3 x = b->SpatialPoint(b->center());
    if (x.x() < e[0] || x.y() < e[1] || x.z() < e[2] || x.x() > e[3] || x.y() > e[4] ||
        x.z() > e[5])
      out.push_back(b->id());
  }
  out = decomposition_->GatherIds(out);  // every rank deletes them (solfec-mpi)
  for (Id id : out) DeleteBody(id);
}

void Domain::CheckFinite() const {
  for (const auto& b : bodies_) {
    if (!Owns(*b)) continue;
    if (!b->q().allFinite() || !b->u().allFinite()) {
      std::ostringstream msg;
      msg << "RUN: the state of body " << b->id();
      if (!b->label().empty()) msg << " ('" << b->label() << "')";
      msg << " became NaN/infinite at time " << time_
          << "; reduce the time step or check loads and materials";
      throw SolverError(msg.str());
    }
  }
}

Energy Domain::ComputeEnergy() const {
  std::vector<const Body*> all;
  for (const auto& b : bodies_) all.push_back(b.get());
  return ComputeEnergy(all);
}

Energy Domain::ComputeEnergy(const std::vector<const body::Body*>& bodies) const {
  Energy e;
  for (const Body* b : bodies) {
    e.kinetic += b->KineticEnergy();
    e.internal += b->InternalEnergy();
    e.external += b->external_work;
    e.contact += b->contact_work;
    e.friction += b->friction_work;
  }
  const std::unordered_map<const Body*, double> springs = SpringEnergies();
  for (const Body* b : bodies) {
    const auto it = springs.find(b);
    if (it != springs.end()) e.internal += it->second;
  }
  return e;
}

std::unordered_map<const Body*, double> Domain::SpringEnergies() const {
  std::unordered_map<const Body*, double> out;
  for (const Constraint& c : constraints_) {
    if (c.kind != ConstraintKind::kSpring) continue;
    const double share = (c.body1 && c.body2 ? 0.5 : 1.0) * SpringPotential(c);
    if (c.body1) out[c.body1] += share;
    if (c.body2) out[c.body2] += share;
  }
  return out;
}

}  // namespace solfec::domain
