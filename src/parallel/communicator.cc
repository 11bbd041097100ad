// Thin wrapper of an MPI communicator: rank, size, barrier, small collectives, abort.
#include "parallel/communicator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace solfec::parallel {

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void Communicator::Barrier() const { MPI_Barrier(comm_); }

std::vector<double> Communicator::AllReduceSum(const std::vector<double>& local) const {
  std::vector<double> out(local.size());
  MPI_Allreduce(local.data(), out.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_SUM,
                comm_);
  return out;
}

std::vector<double> Communicator::AllReduceMax(const std::vector<double>& local) const {
  std::vector<double> out(local.size());
  MPI_Allreduce(local.data(), out.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_MAX,
                comm_);
  return out;
}

double Communicator::AllReduceSum(double local) const {
  double out = 0.0;
  MPI_Allreduce(&local, &out, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return out;
}

double Communicator::AllReduceMax(double local) const {
  double out = 0.0;
  MPI_Allreduce(&local, &out, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return out;
}

double Communicator::AllReduceMin(double local) const {
  double out = 0.0;
  MPI_Allreduce(&local, &out, 1, MPI_DOUBLE, MPI_MIN, comm_);
  return out;
}

std::int64_t Communicator::AllReduceSum(std::int64_t local) const {
  std::int64_t out = 0;
  MPI_Allreduce(&local, &out, 1, MPI_INT64_T, MPI_SUM, comm_);
  return out;
}

std::int64_t Communicator::AllReduceMax(std::int64_t local) const {
  std::int64_t out = 0;
  MPI_Allreduce(&local, &out, 1, MPI_INT64_T, MPI_MAX, comm_);
  return out;
}

template <typename T>
std::vector<T> Communicator::AllGatherT(const std::vector<T>& local, MPI_Datatype type,
                                        std::vector<int>* counts) const {
  int n = static_cast<int>(local.size());
  std::vector<int> sizes(size_), displs(size_, 0);
  MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm_);
  for (int r = 1; r < size_; ++r) displs[r] = displs[r - 1] + sizes[r - 1];
  std::vector<T> out(static_cast<size_t>(displs[size_ - 1] + sizes[size_ - 1]));
  MPI_Allgatherv(local.data(), n, type, out.data(), sizes.data(), displs.data(), type, comm_);
  if (counts) *counts = sizes;
  return out;
}

std::vector<double> Communicator::AllGather(const std::vector<double>& local,
                                            std::vector<int>* counts) const {
  return AllGatherT(local, MPI_DOUBLE, counts);
}

std::vector<std::int64_t> Communicator::AllGather(const std::vector<std::int64_t>& local,
                                                  std::vector<int>* counts) const {
  return AllGatherT(local, MPI_INT64_T, counts);
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    // FUNNELED: the results writer's worker thread (io/results_writer.h) never calls MPI
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    owns_ = true;
  }
}

MpiSession::~MpiSession() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (owns_ && !finalised) MPI_Finalize();
}

std::vector<std::vector<double>> Communicator::AllToAll(
    const std::vector<std::vector<double>>& send) const {
  std::vector<int> scount(size_), rcount(size_), sdisp(size_ + 1, 0), rdisp(size_ + 1, 0);
  for (int r = 0; r < size_; ++r) scount[r] = static_cast<int>(send[r].size());
  MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm_);
  for (int r = 0; r < size_; ++r) {
    sdisp[r + 1] = sdisp[r] + scount[r];
    rdisp[r + 1] = rdisp[r] + rcount[r];
  }
  std::vector<double> sbuf(sdisp[size_]), rbuf(rdisp[size_]);
  for (int r = 0; r < size_; ++r) std::copy(send[r].begin(), send[r].end(), sbuf.begin() + sdisp[r]);
  MPI_Alltoallv(sbuf.data(), scount.data(), sdisp.data(), MPI_DOUBLE, rbuf.data(), rcount.data(),
                rdisp.data(), MPI_DOUBLE, comm_);
  std::vector<std::vector<double>> recv(size_);
  for (int r = 0; r < size_; ++r)
    recv[r].assign(rbuf.begin() + rdisp[r], rbuf.begin() + rdisp[r + 1]);
  return recv;
}

void Communicator::ConsistentSum(std::vector<double>& values) const {
  // One all-gather, then every rank adds the contributions in rank order: the same bits
  // everywhere (an MPI_Allreduce need not give them) at the latency of one collective.
  if (size_ == 1 || values.empty()) return;
  const size_t n = values.size();
  std::vector<double> all(n * static_cast<size_t>(size_));
  MPI_Allgather(values.data(), static_cast<int>(n), MPI_DOUBLE, all.data(), static_cast<int>(n),
                MPI_DOUBLE, comm_);
  for (size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (int r = 0; r < size_; ++r) s += all[r * n + i];
    values[i] = s;
  }
}

std::vector<int> Communicator::AllToAllCounts(const std::vector<int>& scount) const {
  std::vector<int> rcount(size_);
  MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm_);
  return rcount;
}

}  // namespace solfec::parallel
