// Wall-clock stopwatch used for the per-stage timings (TIMINT, CONUPD, ...).
#pragma once

#include <chrono>

namespace solfec {

class Timer {
 public:
  void Start() { start_ = Clock::now(); }
  // Seconds since Start(); adds them to the running total.
  double Stop() {
    const double s = std::chrono::duration<double>(Clock::now() - start_).count();
    total_ += s;
    return s;
  }
  double total() const { return total_; }
  void Reset() { total_ = 0.0; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
  double total_ = 0.0;
};

}  // namespace solfec
