// MPI domain decomposition of a Domain's time step (solfec-mpi): Zoltan ownership of bodies,
// migration, ghost copies, the coupled constraint solve and the synchronisation for output.
#pragma once

#include <array>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "domain/decomposition.h"
#include "domain/domain.h"
#include "parallel/communicator.h"
#include "parallel/partitioner.h"
#include "parallel/rank_coupling.h"
#include "solvers/process_coupling.h"

namespace solfec::parallel {

// docs/parallel.md explains the protocol step by step. Body state travels as
// [id, nq, nu, q, u, external, contact and friction work] (what a results frame restores).
class DomainDecomposition final : public domain::Decomposition {
 public:
  explicit DomainDecomposition(MPI_Comm comm = MPI_COMM_WORLD);
  ~DomainDecomposition() override;

  void BeginStep(domain::Domain& d) override;
  bool Owns(const body::Body& b) const override;
  bool Active(const body::Body& b) const override;
  bool Home(const contact::Constraint& c) const override;
  solvers::ProcessCoupling* PrepareSolve(domain::Domain& d,
                                         const std::vector<contact::Constraint*>& rows,
                                         solvers::BlockProblem& problem) override;
  void FinishSolve(domain::Domain& d) override;
  std::vector<Id> GatherIds(const std::vector<Id>& mine) override;
  void Synchronize(domain::Domain& d) override;
  void GatherProblem(const domain::Domain& d, solvers::BlockProblem& whole,
                     std::vector<domain::ProblemRow>& rows) override;
  void SetBalance(double tolerance, bool lockdir, double degenratio, double weightfactor,
                  int updatefreq) override;
  std::map<std::string, double> Stats() override;
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }

  // Steps between imbalance checks (Solfec-1.0 checks every few steps).
  int update_frequency = 10;

 private:
  enum State : unsigned char { kInactive = 0, kOwned = 1, kGhost = 2 };

  int OwnerOf(Id id) const;
  void SetOwner(Id id, int rank);
  void Initialize(domain::Domain& d);
  // Every rank must hold the same bodies (the model is replicated): an InputError on every
  // rank when a signature of the body ids differs (one all-gather per step).
  void CheckSameBodies(const domain::Domain& d);
  // Zoltan partition of `in` into owners (true), or false when there are too few bodies.
  bool PartitionOrNot(const PartitionInput& in, std::vector<int>& owners);
  void AssignNewBodies(domain::Domain& d);
  void RemoveForeignConstraints(domain::Domain& d);
  void DropContactsAwayFromHome(domain::Domain& d);
  // The contacts Rebalance received with their home bodies, into the domain (home here).
  void AdoptMigratedContacts(domain::Domain& d);
  void FlushGhostWork(domain::Domain& d);
  void Rebalance(domain::Domain& d, bool force);
  void RefreshGhosts(domain::Domain& d);
  std::vector<std::vector<double>> Exchange(const std::vector<std::vector<double>>& send);

  Communicator comm_;
  BalanceSettings settings_;
  std::unique_ptr<Partitioner> partitioner_;
  bool started_ = false;
  bool have_cuts_ = false;  // Zoltan cuts exist (OwnerOfPoint answers)
  // Every copy is current (a Synchronize since the last ghost refresh): RefreshGhosts sends
  // ids, not states. A deck changes bodies on every rank alike (docs/parallel.md).
  bool synchronized_ = false;
  int steps_since_balance_ = 0;
  std::vector<int> owner_;            // by body id; -1: unknown (obstacles, new bodies)
  std::vector<unsigned char> state_;  // by body id: State
  std::map<Id, std::array<double, 3>> ghost_work_;  // works of a ghost when last received
  std::map<Id, std::array<double, 3>> obstacle_work_;  // obstacle works when last synchronised
  std::vector<Id> foreign_;  // constraint ids copied in by Synchronize
  // Nodes of the removed copies, reused by the next Synchronize (no allocation per contact).
  std::list<contact::Constraint> spare_;
  // Packed contacts (PackConstraint) received with their home bodies by Rebalance, added
  // after the ghosts are refreshed.
  std::vector<double> migrated_contacts_;
  std::vector<body::Body*> by_id_;  // Synchronize's body lookup (index: id)
  CouplingStats coupling_stats_;
  std::unique_ptr<RankCoupling> coupling_;
  std::vector<Id> remote_touched_;  // bodies owned elsewhere that this step's rows touch
  // statistics
  double balance_time_ = 0, step_time_ = 0, comm_time_ = 0, bytes_sent_ = 0;
  double migrations_ = 0, rebalances_ = 0, ghost_sum_ = 0, shared_sum_ = 0, steps_ = 0;
  double last_imbalance_ = 1.0;
};

// The factory handed to the `_solfec` module by solfec-mpi (a PyCapsule of this pointer).
domain::Decomposition* CreateDomainDecomposition();

}  // namespace solfec::parallel
