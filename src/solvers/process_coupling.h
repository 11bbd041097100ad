// Coupling of a constraint problem split over processes (solfec-mpi): the rows one process
// solves see the other processes' reactions only through B, refreshed between sweeps.
#pragma once

#include <vector>

#include "base/types.h"

namespace solfec::solvers {

struct BlockProblem;

// Implemented by the MPI domain decomposition (src/parallel); solvers see no MPI. Every
// method is collective: all processes call it the same number of times, in the same order,
// and the solvers take every decision (stop, restart) from Sum()'s results only, which are
// bit-identical on all processes.
class ProcessCoupling {
 public:
  virtual ~ProcessCoupling() = default;
  // B := B0 + the velocity that the other processes' current reactions (their rows acting on
  // bodies this process's rows also touch) cause at this process's rows; B0 is the problem's
  // B as assembled. Reads problem.R (this process's current reactions, sent to the others).
  void Exchange(BlockProblem& problem) {
    StartExchange(problem);
    FinishExchange(problem);
  }
  // Exchange in two halves (manual Alg. 9.3's sends overlapped with the inner sweeps): the
  // start sends this process's impulses (reads problem.R; later changes of R rows that
  // BoundaryRows() marks 0 do not alter what was sent), the finish waits for the others'
  // and sets B; rows marked 0 may be swept in between, their B does not change.
  virtual void StartExchange(const BlockProblem& problem) = 0;
  virtual void FinishExchange(BlockProblem& problem) = 0;
  // The exchange before stage `stage` of a staged sweep (SweepStages): only the messages
  // that their receivers use in that stage travel (a process uses the stages its rows on
  // shared bodies are swept in), in a sweep `forward` (stages in increasing order) or not.
  // `start`: this process's reactions at the sweep's start (valid for the rows swept before
  // this stage). FinishStageExchange returns whether this
  // process received, i.e. whether B changed; then it also sets the rows of B_previous (when
  // given) to the B of the reactions the other processes started the sweep with (the
  // previous iterate's, for its merit). Every process calls them for every stage, in order.
  virtual void StartStageExchange(const BlockProblem& problem, int stage, bool forward,
                                  const std::vector<Vec3>* start) = 0;
  virtual bool FinishStageExchange(BlockProblem& problem, std::vector<Vec3>* B_previous) = 0;
  // Lets the exchange in flight advance (called now and then between StartExchange and
  // FinishExchange; large messages of some transports move only inside MPI calls).
  virtual void Progress() {}
  // Per row of this process (`rows` of them): 1 when it acts on a body that rows of other
  // processes act on (its B changes with the exchanges), else 0.
  virtual std::vector<char> BoundaryRows(int rows) const = 0;
  // y += the velocity that x, taken as the reactions of every process's rows, causes at this
  // process's rows through the other processes' rows (the W blocks between rows of
  // different processes), so that W x over all processes is problem.MultiplyW(x) plus this
  // (NEWTON_SOLVER's products). x, y: this process's rows.
  virtual void AddCrossProduct(const BlockProblem& problem, const std::vector<Vec3>& x,
                               std::vector<Vec3>& y) = 0;
  // The rows of this process swept in each stage of a coupled Gauss-Seidel sweep for
  // GaussSeidelOptions::Variant `variant` (as int): stage s follows the s-th Exchange of the
  // sweep. The number of stages is the same on every process; one stage means one exchange
  // per sweep. Also fixes who sends to whom in this solve's stage exchanges.
  virtual std::vector<std::vector<int>> SweepStages(int variant, int rows) = 0;
  // Element-wise sums over all processes, in place.
  virtual void Sum(std::vector<double>& values) = 0;
  double Sum(double value) {
    std::vector<double> v{value};
    Sum(v);
    return v[0];
  }
};

// A serial solve's coupling: no other processes, so the exchanges change nothing, no row is
// a boundary row, a sweep is one stage of every row and the sums are this process's values.
class SerialCoupling final : public ProcessCoupling {
 public:
  using ProcessCoupling::Sum;
  void StartExchange(const BlockProblem&) override {}
  void FinishExchange(BlockProblem&) override {}
  void StartStageExchange(const BlockProblem&, int, bool, const std::vector<Vec3>*) override {}
  bool FinishStageExchange(BlockProblem&, std::vector<Vec3>*) override { return false; }
  std::vector<char> BoundaryRows(int rows) const override { return std::vector<char>(rows, 0); }
  void AddCrossProduct(const BlockProblem&, const std::vector<Vec3>&,
                       std::vector<Vec3>&) override {}
  std::vector<std::vector<int>> SweepStages(int, int rows) override {
    std::vector<std::vector<int>> one(1);
    for (int a = 0; a < rows; ++a) one[0].push_back(a);
    return one;
  }
  void Sum(std::vector<double>&) override {}
};

}  // namespace solfec::solvers
