// The ProcessCoupling of one solfec-mpi step: rows of several ranks acting on shared bodies
// see each other through B (an impulse exchange per sweep), and the W blocks between them.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "base/types.h"
#include "body/body.h"
#include "parallel/communicator.h"
#include "solvers/block_problem.h"
#include "solvers/process_coupling.h"

namespace solfec::parallel {

// What the exchanges cost (DomainDecomposition's statistics).
struct CouplingStats {
  double comm_time = 0.0;   // [s] in exchanges and sums
  double bytes_sent = 0.0;  // by this rank
  double exchanges = 0.0;   // Exchange calls
};

// For every body that rows of several ranks touch, the impulse h sum sign H^T R of this
// rank's rows goes to the other touching ranks, and the velocity A^-1 (their impulses)
// enters B of this rank's rows on that body (docs/parallel.md, "The coupled solve").
class RankCoupling final : public solvers::ProcessCoupling {
 public:
  struct Entry {
    int row = 0;        // this rank's row
    double sign = 1.0;  // -1 on body1 of a two-body row, else +1
    body::HOperator H;  // the row's H on the shared body
    MatX AinvHt;        // A^-1 H^T of the shared body (dofs x 3; set by Plan)
  };
  struct Shared {
    body::Body* body = nullptr;
    std::vector<Entry> entries;
    VecX ext;  // impulse of the other ranks' rows (last Exchange)
    VecX start;  // the same, of the reactions they started the sweep with (B_previous)
  };

  RankCoupling(const Communicator& comm, CouplingStats& stats)
      : comm_(comm), stats_(stats), to_rank_(comm.size()) {}

  // Starts a step's coupling of `problem` (its B as assembled is kept as B0).
  void Reset(const solvers::BlockProblem& problem);
  std::vector<Shared>& shared() { return shared_; }
  // Per rank: indices of shared() sent to / received from it, in body id order on all ranks.
  std::vector<std::vector<int>>& to_rank() { return to_rank_; }
  // Message sizes of this step's exchanges (one MPI_Alltoall; both sides know the shared
  // bodies) and each entry's A^-1 H^T; throws SolverError when the ranks disagree.
  void Plan();
  // Collective, after Plan: greedy colouring of the ranks (neighbours: ranks sharing a body)
  // so that no two neighbours have the same colour (manual Alg. 9.2), the same on every rank.
  void Colour();
  const std::vector<int>& colours() const { return colour_; }  // per rank
  int num_colours() const { return num_colours_; }

  void StartExchange(const solvers::BlockProblem& problem) override;
  void FinishExchange(solvers::BlockProblem& problem) override;
  void StartStageExchange(const solvers::BlockProblem& problem, int stage, bool forward,
                          const std::vector<Vec3>* start) override;
  bool FinishStageExchange(solvers::BlockProblem& problem,
                           std::vector<Vec3>* B_previous) override;
  void Progress() override;
  std::vector<char> BoundaryRows(int rows) const override;
  void AddCrossProduct(const solvers::BlockProblem& problem, const std::vector<Vec3>& x,
                       std::vector<Vec3>& y) override;
  void Sum(std::vector<double>& values) override;
  // FULL: rows on shared bodies in the stage of this rank's colour, inner rows spread over
  // the stages to even them; MIDDLE_JACOBI: rows next to both lower and higher colours in
  // stage 0 instead; other variants: one stage (docs/parallel.md, "Gauss-Seidel variants").
  std::vector<std::vector<int>> SweepStages(int variant, int rows) override;
  // Rank r sweeps rows on shared bodies in stage s of this solve's sweeps (SweepStages'
  // rule, known to every rank without communication): FULL s = colour(r); MIDDLE_JACOBI
  // s = 0 or colour(r); one stage: s = 0. Only those stage exchanges send to r.
  bool UsesStage(int rank, int stage) const;
  // FULL: rank r swept its rows on shared bodies before stage s (a lower colour in a
  // forward sweep, a higher one in a backward sweep), so its messages of stage s also carry
  // the impulses of the sweep's start.
  bool SendsStart(int rank, int stage) const;

  // B of this rank's rows as assembled (before any Exchange).
  const std::vector<Vec3>& B0() const { return B0_; }
  // Collective: the W blocks h sign_a sign_c H_a A^-1 H_c^T between this rank's rows a and
  // other ranks' rows c through the shared bodies, keyed (id of a, id of c); row_ids are
  // the constraint ids of this rank's rows.
  std::map<std::pair<Id, Id>, Mat3> CrossBlocks(const std::vector<Id>& row_ids) const;

 private:
  // Sends h sum sign H^T x of this rank's rows on every shared body to the other touching
  // ranks (point to point, neighbours only; nonblocking: FinishImpulses completes it and
  // sets Shared::ext to what they sent).
  // stage >= 0: to / from the ranks that use the stage only (UsesStage), with the impulses
  // of `start` too where SendsStart; FinishImpulses returns whether this rank received (ext
  // and Shared::start unchanged otherwise).
  void StartImpulses(const std::vector<Vec3>& x, int stage = -1,
                     const std::vector<Vec3>* start = nullptr);
  bool FinishImpulses();
  void PackImpulse(const Shared& s, const std::vector<Vec3>& x, double* out) const;
  void ExchangeImpulses(const std::vector<Vec3>& x) {
    StartImpulses(x);
    FinishImpulses();
  }
  // y[row] += sign H A^-1 v for every entry of a shared body, v = its ext or start.
  void AddVelocities(std::vector<Vec3>& y, VecX Shared::*impulse) const;
  // B of the rows on shared bodies = B0 + the velocities of ext (the current reactions of the
  // other ranks) or of start (those of the sweep's start: FinishStageExchange's B_previous).
  void SetB(std::vector<Vec3>& B, VecX Shared::*impulse) const;

  const Communicator& comm_;
  CouplingStats& stats_;
  std::vector<Shared> shared_;
  std::vector<std::vector<int>> to_rank_;
  std::vector<Vec3> B0_;
  double h_ = 0.0;
  std::vector<int> scount_, rcount_;
  std::vector<int> colour_;  // per rank (Colour)
  int num_colours_ = 1;
  int stage_rule_ = 0;       // SweepStages: 0 one stage, 1 FULL, 2 MIDDLE_JACOBI
  bool receiving_ = false;   // the exchange in flight brings impulses to this rank
  int stage_ = -1;           // of the exchange in flight (-1: the whole exchange)
  bool forward_ = true;      // direction of the sweep of the stage exchange in flight
  std::vector<double> send_, recv_;
  std::vector<int> sdisp_, rdisp_;
  std::vector<MPI_Request> requests_;  // of the exchange in flight (StartImpulses)
};

}  // namespace solfec::parallel
