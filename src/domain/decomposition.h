// The seam through which solfec-mpi splits a Domain's time step over MPI ranks (body
// ownership, ghosts, coupled solves); implemented in src/parallel, absent in serial runs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "body/body.h"
#include "contact/constraint.h"
#include "solvers/block_problem.h"
#include "solvers/process_coupling.h"

namespace solfec::domain {

class Domain;

// Who a row of the last step's local dynamics is (LOCDYN_DUMP): the constraint's id, its
// bodies (-1: none) and its spatial point.
struct ProblemRow {
  Id id = -1;
  Id body1 = -1;
  Id body2 = -1;
  Vec3 point = Vec3::Zero();
};

// Every rank holds every body of the deck (the deck runs on every rank); a body is *owned*
// by one rank, which integrates it, and is a *ghost* on the ranks whose bodies it may touch
// (refreshed from the owner every step). Obstacles are integrated everywhere. A constraint
// is solved by one rank, its *home*. Methods marked collective are called by all ranks in
// the same order (docs/parallel.md).
class Decomposition {
 public:
  virtual ~Decomposition() = default;

  // Collective, first thing of a step: rebalancing and body migration when due, ghost
  // refresh, removal of the constraints copied in by Synchronize.
  virtual void BeginStep(Domain& d) = 0;
  // This rank integrates b (obstacles: false).
  virtual bool Owns(const body::Body& b) const = 0;
  // b takes part in this rank's step: owned, ghost or obstacle.
  virtual bool Active(const body::Body& b) const = 0;
  // This rank solves c (contacts: the owner of the lowest-id non-obstacle body; user
  // constraints: the owner of body1).
  virtual bool Home(const contact::Constraint& c) const = 0;
  // Collective, after the assembly of this rank's rows: the coupling through which the
  // solver sees the reactions of the other ranks' rows on shared bodies (null: none, the
  // serial solve).
  virtual solvers::ProcessCoupling* PrepareSolve(Domain& d,
                                                 const std::vector<contact::Constraint*>& rows,
                                                 solvers::BlockProblem& problem) = 0;
  // Collective, after the solve: the impulses of this rank's rows on bodies owned elsewhere
  // are added to the owners' impulse() before the end of the step.
  virtual void FinishSolve(Domain& d) = 0;
  // Collective: ids of the owned bodies this rank removes (outside EXTENTS) -> the ids
  // removed on every rank.
  virtual std::vector<Id> GatherIds(const std::vector<Id>& mine) = 0;
  // Collective: every rank's copy of every body and constraint current (before callbacks,
  // output and at the end of RUN): states from the owners, work done on ghosts to the
  // owners, the other ranks' contacts copied in (removed again by the next BeginStep).
  virtual void Synchronize(Domain& d) = 0;
  // Collective: the whole last-step local dynamics on every rank, as the serial run would
  // assemble it: every rank's rows (in rank order) with their B as assembled, and the W blocks
  // between rows of different ranks (h H_a A^-1 H_c^T through their shared bodies) added.
  virtual void GatherProblem(const Domain& d, solvers::BlockProblem& whole,
                             std::vector<ProblemRow>& rows) = 0;
  // IMBALANCE_TOLERANCE(solfec, tolerance, lockdir, degenratio, weightfactor).
  virtual void SetBalance(double tolerance, bool lockdir, double degenratio,
                          double weightfactor, int updatefreq) = 0;
  // Collective: statistics summed (times: maximum) over ranks (SOLFEC.parallel_stats).
  virtual std::map<std::string, double> Stats() = 0;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Whether the step is split over ranks (false: the SerialDecomposition).
  virtual bool distributed() const { return true; }
};

// The decomposition of a serial run (the null object): one rank owns, sees and solves
// everything; the collective calls do nothing (GatherIds returns its argument, GatherProblem
// the domain's last problem).
class SerialDecomposition final : public Decomposition {
 public:
  void BeginStep(Domain&) override {}
  bool Owns(const body::Body&) const override { return true; }
  bool Active(const body::Body&) const override { return true; }
  bool Home(const contact::Constraint&) const override { return true; }
  solvers::ProcessCoupling* PrepareSolve(Domain&, const std::vector<contact::Constraint*>&,
                                         solvers::BlockProblem&) override {
    return nullptr;
  }
  void FinishSolve(Domain&) override {}
  std::vector<Id> GatherIds(const std::vector<Id>& mine) override { return mine; }
  void Synchronize(Domain&) override {}
  void GatherProblem(const Domain& d, solvers::BlockProblem& whole,
                     std::vector<ProblemRow>& rows) override;
  void SetBalance(double, bool, double, double, int) override {}
  std::map<std::string, double> Stats() override { return {}; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  bool distributed() const override { return false; }
};

}  // namespace solfec::domain
