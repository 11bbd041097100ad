// Thin wrapper of an MPI communicator: rank, size, barrier, small collectives, abort.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace solfec::parallel {

// Owns nothing: wraps a communicator created elsewhere (MPI_COMM_WORLD by default). MPI must be
// initialised (MpiSession or the launcher) before any method is called. Every collective method
// must be called by all ranks of the communicator, in the same order.
class Communicator {
 public:
  explicit Communicator(MPI_Comm comm = MPI_COMM_WORLD);

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }

  void Barrier() const;

  // Sum / max / min over ranks, element by element (every rank passes the same length).
  std::vector<double> AllReduceSum(const std::vector<double>& local) const;
  std::vector<double> AllReduceMax(const std::vector<double>& local) const;
  double AllReduceSum(double local) const;
  double AllReduceMax(double local) const;
  double AllReduceMin(double local) const;
  std::int64_t AllReduceSum(std::int64_t local) const;
  std::int64_t AllReduceMax(std::int64_t local) const;

  // Concatenation of every rank's buffer in rank order (lengths may differ, may be zero);
  // `counts`, when given, receives each rank's length.
  std::vector<double> AllGather(const std::vector<double>& local,
                                std::vector<int>* counts = nullptr) const;
  std::vector<std::int64_t> AllGather(const std::vector<std::int64_t>& local,
                                      std::vector<int>* counts = nullptr) const;

  // Personalised exchange: send[r] goes to rank r; returns what every rank sent to this one
  // (index = source rank). send.size() must equal size().
  std::vector<std::vector<double>> AllToAll(const std::vector<std::vector<double>>& send) const;
  // Element-wise sums that are bit-identical on every rank (reduce to rank 0 in rank order,
  // then broadcast): the values solvers take decisions on.
  void ConsistentSum(std::vector<double>& values) const;
  // The counts every rank will send to this one, given what this one sends to each.
  std::vector<int> AllToAllCounts(const std::vector<int>& scount) const;
  // (No Abort: the library reports errors as exceptions; the launcher, which owns the job,
  // decides to end it: apps/solfec_mpi_main.cc.)

 private:
  template <typename T>
  std::vector<T> AllGatherT(const std::vector<T>& local, MPI_Datatype type,
                            std::vector<int>* counts) const;

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

// RAII MPI_Init / MPI_Finalize for programs (tests, launchers) that own the MPI lifetime.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owns_ = false;
};

}  // namespace solfec::parallel
