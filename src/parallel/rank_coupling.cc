// The ProcessCoupling of one solfec-mpi step: impulse exchange and cross-rank W blocks.
#include "parallel/rank_coupling.h"

#include <algorithm>

#include "base/errors.h"
#include "base/timer.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::parallel {

void RankCoupling::Reset(const solvers::BlockProblem& problem) {
  shared_.clear();
  to_rank_.assign(comm_.size(), {});
  B0_ = problem.B;
  h_ = problem.step;
}

void RankCoupling::Plan() {
  const int n = comm_.size();
  for (Shared& s : shared_) {
    for (Entry& e : s.entries) {
      e.AinvHt.setZero(s.body->num_dofs(), 3);
      for (size_t j = 0; j < e.H.dofs.size(); ++j)
        e.AinvHt.row(e.H.dofs[j]) += e.H.values.col(j).transpose();
      s.body->ApplyInverseInertia(e.AinvHt);
    }
  }
  scount_.assign(n, 0);
  for (int q = 0; q < n; ++q)
    for (int k : to_rank_[q]) scount_[q] += shared_[k].body->num_dofs();
  rcount_ = comm_.AllToAllCounts(scount_);
  for (int q = 0; q < n; ++q)
    if (rcount_[q] != scount_[q])
      throw SolverError("solfec-mpi: ranks disagree on the bodies they share");
}

void RankCoupling::Colour() {
  const int n = comm_.size(), me = comm_.rank();
  std::vector<double> mine;
  for (int q = 0; q < n; ++q)
    if (q != me && !to_rank_[q].empty()) mine.push_back(q);
  std::vector<int> counts;
  const std::vector<double> all = comm_.AllGather(mine, &counts);
  std::vector<std::vector<int>> adjacent(n);
  size_t at = 0;
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < counts[r]; ++k) {
      const int q = static_cast<int>(all[at++]);
      adjacent[r].push_back(q);
      adjacent[q].push_back(r);  // (symmetric already; kept robust)
    }
  colour_.assign(n, -1);
  num_colours_ = 1;
  for (int r = 0; r < n; ++r) {  // the lowest colour no coloured neighbour has
    std::vector<char> used(n + 1, 0);
    for (int q : adjacent[r])
      if (colour_[q] >= 0) used[colour_[q]] = 1;
    int c = 0;
    while (used[c]) ++c;
    colour_[r] = c;
    num_colours_ = std::max(num_colours_, c + 1);
  }
}

bool RankCoupling::SendsStart(int rank, int stage) const {
  if (stage_rule_ != 1 || stage < 0) return false;
  return forward_ ? colour_[rank] < stage : colour_[rank] > stage;
}

bool RankCoupling::UsesStage(int rank, int stage) const {
  switch (stage_rule_) {
    case 1: return stage == colour_[rank];
    case 2: return stage == 0 || stage == colour_[rank];
    default: return stage == 0;
  }
}

std::vector<std::vector<int>> RankCoupling::SweepStages(int variant, int rows) {
  using Variant = solvers::GaussSeidelOptions::Variant;
  const Variant v = static_cast<Variant>(variant);
  std::vector<std::vector<int>> stages;
  stage_rule_ = 0;
  if ((v != Variant::kFull && v != Variant::kMiddleJacobi) || num_colours_ < 2 ||
      colour_.size() != static_cast<size_t>(comm_.size())) {
    stages.emplace_back(rows);
    for (int a = 0; a < rows; ++a) stages[0][a] = a;
    return stages;
  }
  stage_rule_ = v == Variant::kFull ? 1 : 2;
  const int me = comm_.rank(), mine = colour_[me];
  std::vector<char> lower(rows, 0), higher(rows, 0);
  for (int q = 0; q < comm_.size(); ++q) {
    for (int k : to_rank_[q]) {
      for (const Entry& e : shared_[k].entries) {
        if (colour_[q] < mine) lower[e.row] = 1;
        if (colour_[q] > mine) higher[e.row] = 1;
      }
    }
  }
  // Rows that need this sweep's values of lower colours go to this rank's colour stage
  // (middle rows of MIDDLE_JACOBI to stage 0); the inner rows fill the stages up to an
  // equal share of the rows each (eq. 9.12's balance of Inner1 / Inner2), so that no rank
  // idles while another sweeps its boundary rows.
  stages.resize(num_colours_);
  std::vector<int> inner;
  for (int a = 0; a < rows; ++a) {
    const bool middle = lower[a] && higher[a];
    if (!lower[a] && !higher[a]) inner.push_back(a);
    else stages[v == Variant::kMiddleJacobi && middle ? 0 : mine].push_back(a);
  }
  const size_t share = (static_cast<size_t>(rows) + num_colours_ - 1) / num_colours_;
  size_t next = 0;
  for (std::vector<int>& stage : stages) {
    while (next < inner.size() && stage.size() < share) stage.push_back(inner[next++]);
    std::sort(stage.begin(), stage.end());
  }
  stages.back().insert(stages.back().end(), inner.begin() + next, inner.end());
  std::sort(stages.back().begin(), stages.back().end());
  return stages;
}

// Adds h sum sign H^T x of this rank's rows on shared body s to out (the body's dofs).
void RankCoupling::PackImpulse(const Shared& s, const std::vector<Vec3>& x, double* out) const {
  for (const Entry& e : s.entries) {
    const Vec3 r = (h_ * e.sign) * x[e.row];
    for (size_t j = 0; j < e.H.dofs.size(); ++j) out[e.H.dofs[j]] += e.H.values.col(j).dot(r);
  }
}

void RankCoupling::StartImpulses(const std::vector<Vec3>& x, int stage,
                                 const std::vector<Vec3>* start) {
  Timer t;
  t.Start();
  const int n = comm_.size(), me = comm_.rank();
  stage_ = stage;
  send_.clear();
  sdisp_.assign(n + 1, 0);
  for (int q = 0; q < n; ++q) {
    if (stage < 0 || UsesStage(q, stage)) {
      for (int k : to_rank_[q]) {
        const size_t at = send_.size();
        send_.resize(at + shared_[k].body->num_dofs(), 0.0);
        PackImpulse(shared_[k], x, send_.data() + at);
      }
      // FULL: a rank of a lower colour swept its rows on shared bodies before this stage;
      // it also sends the impulses of the sweep's start (the receiver's B_previous).
      if (SendsStart(me, stage)) {
        for (int k : to_rank_[q]) {
          const size_t at = send_.size();
          send_.resize(at + shared_[k].body->num_dofs(), 0.0);
          PackImpulse(shared_[k], start ? *start : x, send_.data() + at);
        }
      }
    }
    sdisp_[q + 1] = static_cast<int>(send_.size());
  }
  receiving_ = stage < 0 || UsesStage(me, stage);
  rdisp_.assign(n + 1, 0);
  for (int q = 0; q < n; ++q)
    rdisp_[q + 1] = rdisp_[q] + (receiving_ ? rcount_[q] * (SendsStart(q, stage) ? 2 : 1) : 0);
  recv_.resize(rdisp_[n]);
  // Neighbours only (what grows with the number of ranks is the number of neighbours, not
  // of ranks); one tag: messages between two ranks do not overtake each other.
  constexpr int kTag = 7417;
  requests_.clear();
  for (int q = 0; q < n; ++q) {
    if (rdisp_[q + 1] == rdisp_[q]) continue;
    requests_.emplace_back();
    MPI_Irecv(recv_.data() + rdisp_[q], rdisp_[q + 1] - rdisp_[q], MPI_DOUBLE, q, kTag,
              comm_.comm(), &requests_.back());
  }
  for (int q = 0; q < n; ++q) {
    if (sdisp_[q + 1] == sdisp_[q]) continue;
    requests_.emplace_back();
    MPI_Isend(send_.data() + sdisp_[q], sdisp_[q + 1] - sdisp_[q], MPI_DOUBLE, q, kTag,
              comm_.comm(), &requests_.back());
  }
  stats_.bytes_sent += 8.0 * static_cast<double>(send_.size());
  stats_.comm_time += t.Stop();
}

void RankCoupling::Progress() {
  if (requests_.empty()) return;
  int done = 0;
  MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE);
}

bool RankCoupling::FinishImpulses() {
  Timer t;
  t.Start();
  if (!requests_.empty())
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  stats_.comm_time += t.Stop();
  stats_.exchanges += 1;
  if (!receiving_) return false;
  for (Shared& s : shared_) {
    s.ext.setZero(s.body->num_dofs());
    s.start.setZero(s.body->num_dofs());
  }
  for (int q = 0; q < comm_.size(); ++q) {
    const double* p = recv_.data() + rdisp_[q];
    const bool two = SendsStart(q, stage_);
    for (int k : to_rank_[q]) {
      Shared& s = shared_[k];
      const int nd = s.body->num_dofs();
      s.ext += Eigen::Map<const VecX>(p, nd);
      if (!two) s.start += Eigen::Map<const VecX>(p, nd);
      p += nd;
    }
    if (!two) continue;
    for (int k : to_rank_[q]) {
      Shared& s = shared_[k];
      const int nd = s.body->num_dofs();
      s.start += Eigen::Map<const VecX>(p, nd);
      p += nd;
    }
  }
  return true;
}

// H A^-1 v = (A^-1 H^T)^T v (A symmetric).
void RankCoupling::AddVelocities(std::vector<Vec3>& y, VecX Shared::*impulse) const {
  for (const Shared& s : shared_) {
    const VecX& v = s.*impulse;
    if (v.isZero(0.0)) continue;
    for (const Entry& e : s.entries) y[e.row] += e.sign * (e.AinvHt.transpose() * v);
  }
}

void RankCoupling::SetB(std::vector<Vec3>& B, VecX Shared::*impulse) const {
  for (const Shared& s : shared_)
    for (const Entry& e : s.entries) B[e.row] = B0_[e.row];
  AddVelocities(B, impulse);
}

void RankCoupling::StartExchange(const solvers::BlockProblem& P) { StartImpulses(P.R); }

std::vector<char> RankCoupling::BoundaryRows(int rows) const {
  std::vector<char> boundary(rows, 0);
  for (const Shared& s : shared_)
    for (const Entry& e : s.entries)
      if (e.row < rows) boundary[e.row] = 1;
  return boundary;
}

void RankCoupling::FinishExchange(solvers::BlockProblem& P) {
  FinishStageExchange(P, nullptr);
}

void RankCoupling::StartStageExchange(const solvers::BlockProblem& P, int stage, bool forward,
                                      const std::vector<Vec3>* start) {
  forward_ = forward;
  StartImpulses(P.R, stage, start);
}

// (what this rank receives was fixed by StartStageExchange)
bool RankCoupling::FinishStageExchange(solvers::BlockProblem& P, std::vector<Vec3>* B_previous) {
  if (!FinishImpulses()) return false;
  SetB(P.B, &Shared::ext);
  // B_previous from the sweep-start impulses (MIDDLE_JACOBI after stage 0: the middle rows
  // sent this sweep's values; its stage-0 exchange set B_previous).
  if (B_previous && (stage_ == 0 || stage_rule_ == 1)) SetB(*B_previous, &Shared::start);
  return true;
}

void RankCoupling::AddCrossProduct(const solvers::BlockProblem&, const std::vector<Vec3>& x,
                                   std::vector<Vec3>& y) {
  ExchangeImpulses(x);
  AddVelocities(y, &Shared::ext);
}

void RankCoupling::Sum(std::vector<double>& values) {
  Timer t;
  t.Start();
  comm_.ConsistentSum(values);
  stats_.comm_time += t.Stop();
}

// Each rank sends, per shared body, its entries as [row id, h sign, ndofs, dofs, H columns]
// to the other touching ranks; the receiver forms A^-1 (h sign_c H_c^T) and multiplies by
// sign_a H_a of each of its own entries on that body.
std::map<std::pair<Id, Id>, Mat3> RankCoupling::CrossBlocks(const std::vector<Id>& row_ids) const {
  const int n = comm_.size();
  std::vector<std::vector<double>> send(n);
  for (int q = 0; q < n; ++q) {
    for (int k : to_rank_[q]) {
      const Shared& s = shared_[k];
      std::vector<double>& out = send[q];
      out.push_back(static_cast<double>(s.body->id()));
      out.push_back(static_cast<double>(s.entries.size()));
      for (const Entry& e : s.entries) {
        out.push_back(static_cast<double>(row_ids[e.row]));
        out.push_back(h_ * e.sign);
        out.push_back(static_cast<double>(e.H.dofs.size()));
        for (size_t j = 0; j < e.H.dofs.size(); ++j) {
          out.push_back(static_cast<double>(e.H.dofs[j]));
          out.insert(out.end(), e.H.values.col(j).data(), e.H.values.col(j).data() + 3);
        }
      }
    }
  }
  const std::vector<std::vector<double>> recv = comm_.AllToAll(send);
  std::map<Id, const Shared*> by_id;
  for (const Shared& s : shared_) by_id[s.body->id()] = &s;
  std::map<std::pair<Id, Id>, Mat3> blocks;
  for (const std::vector<double>& buf : recv) {
    for (size_t i = 0; i < buf.size();) {
      const auto it = by_id.find(static_cast<Id>(buf[i]));
      if (it == by_id.end())
        throw SolverError("solfec-mpi: ranks disagree on the bodies they share");
      const Shared& s = *it->second;
      const int nd = s.body->num_dofs();
      const int entries = static_cast<int>(buf[i + 1]);
      i += 2;
      for (int c = 0; c < entries; ++c) {
        const Id id_c = static_cast<Id>(buf[i]);
        const double scale = buf[i + 1];
        const int m = static_cast<int>(buf[i + 2]);
        i += 3;
        MatX G = MatX::Zero(nd, 3);  // h sign_c H_c^T
        for (int j = 0; j < m; ++j, i += 4)
          G.row(static_cast<int>(buf[i])) +=
              scale * Eigen::Map<const Vec3>(&buf[i + 1]).transpose();
        s.body->ApplyInverseInertia(G);
        for (const Entry& e : s.entries) {
          Mat3 w = Mat3::Zero();
          for (size_t j = 0; j < e.H.dofs.size(); ++j)
            w += e.H.values.col(j) * G.row(e.H.dofs[j]);
          blocks.try_emplace({row_ids[e.row], id_c}, Mat3::Zero()).first->second += e.sign * w;
        }
      }
    }
  }
  return blocks;
}

}  // namespace solfec::parallel
