// GAUSS_SEIDEL_SOLVER under solfec-mpi: the rows of each process are swept in stages
// between exchanges of the reactions on shared bodies (manual Alg. 9.2-9.3; the variants of
// GaussSeidelOptions::Variant), around the serial kernel GaussSeidelSolver::Sweep; the loop
// and its stopping tests are the serial ones (Iterate) on sums over all processes.
#include <algorithm>

#include "solvers/gauss_seidel_solver.h"

namespace solfec::solvers {

class GaussSeidelSolver::CoupledSweeps final : public GaussSeidelSolver::Sweeps {
 public:
  CoupledSweeps(GaussSeidelSolver& gs, ProcessCoupling& coupling) : Sweeps(coupling), gs_(gs) {}

  void Begin(BlockProblem& problem) override {
    const int n = problem.size();
    gs_.stages_.clear();
    gs_.visit_.assign(n, 0);
    gs_.stamp_ = 0;
    gs_.B_start_ = problem.B;
    // SIMPLIFIED: one sweep over the contacts, then sweeps over the other rows only (manual
    // 9.1); decided on the number of other rows over all processes.
    simplified_ = gs_.options_.variant == GaussSeidelOptions::Variant::kSimplified;
    if (simplified_) {
      std::vector<std::vector<int>> split(2);
      for (int a = 0; a < n; ++a)
        split[problem.laws[a].kind == LawKind::kSignoriniCoulomb ? 0 : 1].push_back(a);
      others_ = coupling.Sum(static_cast<double>(split[1].size())) > 0.0;
      gs_.PrepareStages(coupling, split, problem);  // not swept as stages: one or the other
    } else {
      gs_.PrepareStages(coupling,
                        coupling.SweepStages(static_cast<int>(gs_.options_.variant), n), problem);
    }
  }
  void Sweep(BlockProblem& problem, SweepSums& sums, bool forward, int iteration) override {
    if (simplified_) {
      ++gs_.stamp_;
      gs_.SweepStage(coupling, problem, sums, gs_.stages_[iteration == 0 ? 0 : 1], true, -1,
                     true);
      return;
    }
    gs_.StagedSweep(coupling, problem, sums, forward);  // one stage per exchange
    if (gs_.options_.innerloops > 1) gs_.InnerLoops(problem, sums, forward);
  }
  void Reduce(SweepSums& sums, std::vector<double>& extra) override {
    gs_.ReduceSweepSums(coupling, sums, extra);
  }
  bool alone() const override { return false; }
  bool contacts_first() const override { return simplified_; }
  bool others() const override { return others_; }

 private:
  GaussSeidelSolver& gs_;
  bool simplified_ = false, others_ = false;
};

SolverStats GaussSeidelSolver::SolveCoupled(BlockProblem& problem, ProcessCoupling& coupling) {
  CoupledSweeps sweeps(*this, coupling);
  return Run(problem, sweeps);
}

// The rows of a stage that no other process sees are swept while the exchange is in
// flight (manual Alg. 9.3), then, once it is complete, the rows whose B it changed.
void GaussSeidelSolver::SweepStage(ProcessCoupling& coupling, BlockProblem& problem,
                                   SweepSums& sums, const Stage& stage, bool forward, int index,
                                   bool first) {
  // A forward staged sweep visits the rows in the order before_ was made for.
  const bool ordered = forward && index >= 0;
  if (index < 0) coupling.StartExchange(problem);
  else coupling.StartStageExchange(problem, index, forward, &R_prev_);
  const auto sweep = [&](const int* rows, int m) {
    if (ordered) {
      Sweep<true, true, true>(problem, sums, rows, m);
    } else if (forward) {
      Sweep<true, true>(problem, sums, rows, m);
    } else {
      Sweep<false, true>(problem, sums, rows, m);
    }
  };
  const int ni = static_cast<int>(stage.inner.size());
  // In chunks (from the far end when sweeping backward), letting the exchange progress.
  constexpr int kChunk = 512;
  for (int done = 0; done < ni; done += kChunk) {
    const int m = std::min(kChunk, ni - done);
    sweep(stage.inner.data() + (forward ? done : ni - done - m), m);
    coupling.Progress();
  }
  // B_start_: B of the previous iterate (for its merit; StagedSweep copies B at the sweep's
  // start, the exchanges correct it where they can tell). The inner rows' B never changes,
  // so the copy is right for those already swept too.
  if (index >= 0) {
    coupling.FinishStageExchange(problem, &B_start_);
  } else {
    coupling.FinishExchange(problem);
    if (first) {
      for (int a : boundary_) B_start_[a] = problem.B[a];
    }
  }
  sweep(stage.boundary.data(), static_cast<int>(stage.boundary.size()));
}

void GaussSeidelSolver::StagedSweep(ProcessCoupling& coupling, BlockProblem& problem,
                                    SweepSums& sums, bool forward) {
  ++stamp_;
  for (int a : boundary_) B_start_[a] = problem.B[a];
  const int S = static_cast<int>(stages_.size());
  for (int k = 0; k < S; ++k) {
    const int index = forward ? k : S - 1 - k;
    SweepStage(coupling, problem, sums, stages_[index], forward, index, k == 0);
  }
}

void GaussSeidelSolver::InnerLoops(BlockProblem& problem, SweepSums& sums, bool forward) {
  const int n = problem.size();
  S_iter_ = R_prev_;
  for (int loop = 1; loop < options_.innerloops; ++loop) {
    SweepSums local;  // (the merit and residual stay those of the iteration's start)
    const int S = static_cast<int>(stages_.size());
    for (int k = 0; k < S; ++k) {
      const Stage& st = stages_[forward ? k : S - 1 - k];
      const int ni = static_cast<int>(st.inner.size()), nb = static_cast<int>(st.boundary.size());
      if (forward) {  // (the order of before_, or its reverse)
        Sweep<true, true, true>(problem, local, st.inner.data(), ni);
        Sweep<true, true, true>(problem, local, st.boundary.data(), nb);
      } else {
        Sweep<false, true, true>(problem, local, st.boundary.data(), nb);
        Sweep<false, true, true>(problem, local, st.inner.data(), ni);
      }
    }
    sums.diag_diverged |= local.diag_diverged;
    sums.diag_failed |= local.diag_failed;
    sums.cohesion_broken |= local.cohesion_broken;
  }
  R_prev_.swap(S_iter_);
  sums.change2 = sums.norm2 = 0.0;
  for (int a = 0; a < n; ++a) {
    sums.change2 += (problem.R[a] - R_prev_[a]).squaredNorm();
    sums.norm2 += problem.R[a].squaredNorm();
  }
}

// solfec-mpi: the sums of a sweep over all processes (every decision is taken on them),
// with `extra` values (Anderson's inner products) summed in the same reduction.
void GaussSeidelSolver::ReduceSweepSums(ProcessCoupling& coupling, SweepSums& sums,
                                        std::vector<double>& extra) const {
  std::vector<double> v{sums.change2,      sums.norm2,       sums.merit_prev,
                        sums.residual2_prev, sums.rnorm2_prev, sums.unorm2_prev,
                        sums.diag_diverged ? 1.0 : 0.0, sums.diag_failed ? 1.0 : 0.0,
                        sums.cohesion_broken ? 1.0 : 0.0};
  v.insert(v.end(), extra.begin(), extra.end());
  coupling.Sum(v);
  sums.change2 = v[0];
  sums.norm2 = v[1];
  sums.merit_prev = v[2];
  sums.residual2_prev = v[3];
  sums.rnorm2_prev = v[4];
  sums.unorm2_prev = v[5];
  sums.scale2_prev = std::max({rscale_ * rscale_ * v[4], v[5], bnorm2_});
  sums.diag_diverged = v[6] > 0.0;
  sums.diag_failed = v[7] > 0.0;
  sums.cohesion_broken = v[8] > 0.0;
  std::copy(v.begin() + 9, v.end(), extra.begin());
}

// Stages of a coupled sweep, each split into the rows no other process sees (swept while
// the stage's exchange is in flight) and the others; sorted, as SweepStages returns them.
void GaussSeidelSolver::PrepareStages(ProcessCoupling& coupling,
                                      const std::vector<std::vector<int>>& stages,
                                      const BlockProblem& problem) {
  const int n = problem.size();
  const std::vector<char> boundary = coupling.BoundaryRows(n);
  stages_.assign(stages.size(), Stage());
  for (size_t s = 0; s < stages.size(); ++s)
    for (int a : stages[s]) (boundary[a] ? stages_[s].boundary : stages_[s].inner).push_back(a);
  boundary_.clear();
  for (int a = 0; a < n; ++a)
    if (boundary[a]) boundary_.push_back(a);
  // before_[k] of block k = (a, c): row c comes before row a in a forward staged sweep
  // (stage by stage, inner rows then boundary rows), so that sweep tests no visit stamps.
  std::vector<int> position(n, 0);
  int next = 0;
  for (const Stage& st : stages_) {
    for (int a : st.inner) position[a] = next++;
    for (int a : st.boundary) position[a] = next++;
  }
  before_.assign(problem.col.size(), 0);
  for (int a = 0; a < n; ++a)
    for (int k = problem.row_ptr[a] + 1; k < problem.row_ptr[a + 1]; ++k)
      before_[k] = position[problem.col[k]] < position[a] ? 1 : 0;
}

}  // namespace solfec::solvers
