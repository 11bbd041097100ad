// Domain: owns bodies, constraints, materials, loads and run options; Step() writes down
// the time-stepping algorithm of manual chapter 1, one call per stage.
#pragma once

#include <array>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/interval_event.h"
#include "base/time_series.h"
#include "base/timer.h"
#include "base/types.h"
#include "body/body.h"
#include "contact/constraint.h"
#include "contact/node_to_face.h"
#include "contact/sparsify.h"
#include "domain/contact_manager.h"
#include "domain/decomposition.h"
#include "integration/integrator.h"
#include "local_dynamics/local_dynamics.h"
#include "material/bulk_material.h"
#include "material/surface_material.h"
#include "solvers/block_problem.h"
#include "solvers/constraint_solver.h"

namespace solfec::domain {

// kQuasiStatic: inertia neglected, one equilibrium step per time step (the integrator's
// Mode::kQuasiStatic, integration/quasi_static_integrator.h).
enum class Analysis { kDynamic, kQuasiStatic };

// Per-stage timings of the last step [s] (manual TIMING/HISTORY labels).
struct StageTimes {
  double TIMINT = 0, CONUPD = 0, CONDET = 0, LOCDYN = 0, CONSOL = 0, PARBAL = 0;
};

// Energies of manual ENERGY: kinetic, internal, external, contact, friction [J].
struct Energy {
  double kinetic = 0, internal = 0, external = 0, contact = 0, friction = 0;
};

// The deck's contact settings: GEOMETRIC_EPSILON, the DOMAIN extents, PENETRATION_DEPTH,
// CONTACT_SPARSIFY, CONTACT_POINTS and CONTACT_EXCLUDE_BODIES / _SURFACES / _OBJECTS.
struct ContactSettings {
  double geometric_epsilon = 1e-6;
  std::optional<std::array<double, 6>> extents;  // bodies leaving are deleted
  double penetration_depth = -1.0;               // < 0: unlimited
  contact::SparsifyOptions sparsify;
  // CONTACT_POINTS: contact points per pair of touching convex pieces (1, the default: one
  // point, Solfec-1.0's model; 4: the corners of the contact polygon, chosen by the deck).
  int contact_points = 1;
  std::set<std::pair<Id, Id>> excluded_bodies;  // unordered pairs stored (min, max)
  std::set<std::pair<int, int>> excluded_surfaces;
  // CONTACT_EXCLUDE_OBJECTS: (body id, piece) pairs that never touch.
  std::set<std::pair<std::pair<Id, int>, std::pair<Id, int>>> excluded_objects;
};

class Domain {
 public:
  Domain(Analysis analysis, double step);
  ~Domain();

  // --- model
  body::Body& AddBody(std::unique_ptr<body::Body> b);  // assigns the next id
  // READ mode: a body made from its stored definition keeps its stored id (unused here).
  body::Body& AddBodyWithId(std::unique_ptr<body::Body> b, Id id);
  void DeleteBody(Id id);                              // and its constraints
  body::Body* FindBody(Id id) const;
  const std::vector<std::unique_ptr<body::Body>>& bodies() const { return bodies_; }

  contact::Constraint& AddConstraint(contact::Constraint c);  // assigns the next id
  void DeleteConstraint(Id id);
  contact::Constraint* FindConstraint(Id id);
  const std::list<contact::Constraint>& constraints() const { return constraints_; }
  // Mutable access invalidates the id index used by FindConstraint.
  std::list<contact::Constraint>& mutable_constraints() {
    constraint_index_valid_ = false;
    return constraints_;
  }

  material::SurfaceMaterialTable& surface_materials() { return surface_materials_; }
  const material::SurfaceMaterialTable& surface_materials() const { return surface_materials_; }

  std::array<ScalarOrSeries, 3>& gravity() { return gravity_; }
  Vec3 Gravity(double t) const;

  // --- run
  // One time step (manual chapter 1) with the given constraint solver.
  void Step(solvers::ConstraintSolver& solver);
  // Steps until time() reaches time() + duration (rounded to whole steps), calling the
  // callbacks; returns false if a callback or the interrupt hook stopped it.
  bool Run(solvers::ConstraintSolver& solver, double duration);

  // fn() every `interval` [s] of simulated time (0: every step) between RUN's steps; false
  // stops RUN.
  void AddCallback(double interval, std::function<bool()> fn);
  // after_step(domain) after every step (output); may throw to stop the run. due(domain):
  // whether after_step will read the state of this step (solfec-mpi synchronizes the ranks'
  // copies first); none: never.
  void AddStepObserver(std::function<void(const Domain&)> after_step,
                       std::function<bool(const Domain&)> due = nullptr);
  // Progress report after every step (see domain/progress.h); replaces the previous one.
  void set_progress(std::function<void(const Domain&)> report) { progress_ = std::move(report); }
  // Polled every step; returns true to interrupt the run (e.g. Ctrl-C in Python).
  void set_interrupt_check(std::function<bool()> check) { interrupt_check_ = std::move(check); }
  // Failure policy for solver statistics: returns false to stop the run.
  void set_solver_failure(std::function<bool(const solvers::SolverStats&)> policy) {
    solver_failure_ = std::move(policy);
  }

  // --- options
  Analysis analysis() const { return analysis_; }
  double time() const { return time_; }
  double step() const { return step_; }
  void set_step(double h);
  int step_count() const { return step_count_; }
  // --- restoring a saved state (results READ mode and restart; see src/io/)
  // Sets the clock and the next constraint id; callbacks are moved past `time`.
  void RestoreClock(double time, int step_count, Id next_constraint_id);
  // Appends a constraint keeping its id (the id counter moves past it).
  contact::Constraint& RestoreConstraint(contact::Constraint c);
  Id next_constraint_id() const { return next_constraint_id_; }
  // Time at which the current (or last) RUN ends.
  double run_end_time() const { return run_end_time_; }
  // --- contact settings of the deck (see ContactSettings) and the node-to-face search
  ContactSettings& contact_settings() { return contact_settings_; }
  const ContactSettings& contact_settings() const { return contact_settings_; }
  // CONTACT_METHOD: node-to-face contact of FE meshes (options, surfaces, search timings).
  contact::NodeToFace& node_to_face() { return node_to_face_; }
  const contact::NodeToFace& node_to_face() const { return node_to_face_; }

  // --- solfec-mpi (domain/decomposition.h); serial runs have the SerialDecomposition
  void SetDecomposition(std::unique_ptr<Decomposition> d);
  Decomposition& decomposition() const { return *decomposition_; }
  // Whether the step is split over MPI ranks (solfec-mpi).
  bool distributed() const { return decomposition_->distributed(); }
  // b takes part in this rank's step (always true in serial runs).
  bool Active(const body::Body& b) const { return decomposition_->Active(b); }
  // This rank integrates b (serial: every body).
  bool Owns(const body::Body& b) const { return decomposition_->Owns(b); }
  // This rank solves c (serial: every constraint).
  bool Home(const contact::Constraint& c) const { return decomposition_->Home(c); }
  // New constraint ids from here on are next, next + stride, ... shifted by offset (ranks
  // number their new constraints apart: offset = rank, stride = number of ranks).
  void SetConstraintIdStride(int stride, int offset);

  // --- last step statistics
  const solvers::SolverStats& solver_stats() const { return solver_stats_; }
  // The local dynamics U = W R + B of the last step as solved (LOCDYN_DUMP).
  const solvers::BlockProblem& last_problem() const { return problem_; }
  const std::vector<ProblemRow>& last_problem_rows() const { return problem_rows_; }
  const StageTimes& stage_times() const { return stage_times_; }
  int num_contacts() const;
  int num_deleted_bodies_last_step() const { return deleted_last_step_; }
  int num_new_bodies_last_step() const { return new_last_step_; }

  // Energy of the whole domain, of one body, or of a set of bodies.
  Energy ComputeEnergy() const;
  Energy ComputeEnergy(const std::vector<const body::Body*>& bodies) const;
  // PUT_SPRING stored energy per body (half of a two-body spring's potential to each body).
  std::unordered_map<const body::Body*, double> SpringEnergies() const;

 private:
  // DYNAMIC (Solfec-1.0's dom.c): lowers step_ to half the smallest critical step of the
  // explicit bodies (BodyIntegrator::CriticalStep) when that is below it, with one stderr
  // warning (the first time) naming the body. `all`: every body (the start of a RUN, when every
  // rank's copies are current), else the active ones.
  void LimitStepToCritical(bool all);
  bool step_warned_ = false;
  void UpdateUserConstraints();
  void CheckPenetration() const;
  // Whether c is a constraint of OBSTACLEs only that guides them (FIXPNT, FIXDIR, VELODIR).
  static bool GuidesObstacles(const contact::Constraint& c);
  void AccountContactWork(double h);
  void DeleteBodiesOutsideExtents();
  void CheckFinite() const;
  bool CallbackDue() const;
  bool ObserverDue() const;

  // --- the stages of Step (domain.cc), in their order
  void RequireCoupledSolver(const solvers::ConstraintSolver& solver) const;
  void BalanceRanks();
  void LimitStep();
  void BeginIntegration(double t, double h);
  void UpdateConstraints();
  void DetectContacts();
  void AssembleLocalDynamics(double t, double h, const solvers::ConstraintSolver& solver);
  void SolveConstraints(double h, solvers::ConstraintSolver& solver);
  void BreakConstraints();
  void EndIntegration(double t, double h);
  void SynchronizeRanksIfDue();
  void SynchronizeRanks();
  void NotifyObservers();

  ContactSettings contact_settings_;
  contact::NodeToFace node_to_face_;
  Analysis analysis_;
  double step_;
  double time_ = 0.0;
  int step_count_ = 0;
  Id next_body_id_ = 0, next_constraint_id_ = 0;
  int constraint_id_stride_ = 1;
  std::unique_ptr<Decomposition> decomposition_;  // never null (SerialDecomposition)
  int synchronized_step_ = -1;                    // step_count_ of the last Synchronize
  std::vector<std::unique_ptr<body::Body>> bodies_;
  // Each body's time integrator, chosen once when the body is added (AddBody).
  std::unordered_map<const body::Body*, std::unique_ptr<integration::BodyIntegrator>> integrators_;
  std::map<Id, body::Body*> body_by_id_;
  std::list<contact::Constraint> constraints_;
  std::unordered_map<Id, contact::Constraint*> constraint_index_;  // rebuilt lazily
  bool constraint_index_valid_ = false;
  material::SurfaceMaterialTable surface_materials_;
  std::array<ScalarOrSeries, 3> gravity_;
  struct Callback {
    IntervalEvent when;
    std::function<bool()> fn;  // false stops RUN
  };
  std::vector<Callback> callbacks_;
  struct StepObserver {
    std::function<void(const Domain&)> after_step;
    std::function<bool(const Domain&)> due;
  };
  std::vector<StepObserver> step_observers_;
  std::function<void(const Domain&)> progress_;
  std::function<bool()> interrupt_check_;
  std::function<bool(const solvers::SolverStats&)> solver_failure_;

  ContactManager contacts_;
  local_dynamics::LocalDynamics local_dynamics_;
  solvers::BlockProblem problem_;
  // DYNAMIC: OBSTACLEs moved by their own constraints (Solfec-1.0): those rows are solved
  // first, on the obstacles' rigid inertia, and give the obstacles their velocity u_free,
  // which the contacts then see (the obstacles do not react to them).
  void GuideObstacles(double t, double h);
  local_dynamics::LocalDynamics guide_dynamics_;
  solvers::BlockProblem guide_problem_;
  struct Stepped {
    body::Body* body;
    integration::BodyIntegrator* integrator;
  };
  std::vector<Stepped> active_;             // the bodies of this rank's step
  std::vector<contact::Constraint*> rows_;  // the constraints of problem_'s rows
  std::vector<ProblemRow> problem_rows_;    // who the rows of problem_ are
  solvers::SolverStats solver_stats_;
  StageTimes stage_times_;
  double run_end_time_ = 0.0;
  int deleted_last_step_ = 0, new_last_step_ = 0, bodies_added_since_step_ = 0;
  int bodies_deleted_since_step_ = 0;  // DeleteBody after the first step (EXTENTS, decks)
};

}  // namespace solfec::domain
