// Output: decides when a Domain writes a frame (OUTPUT interval, a frame at the start of the
// first RUN), counts inserted/deleted bodies between frames and keeps the STATE text file
// of the output directory up to date (time, step, estimated time to the end of the RUN).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "base/interval_event.h"
#include "domain/domain.h"
#include "io/results_writer.h"

namespace solfec::io {

class Output {
 public:
  // Writes to `results_path`; STATE goes to `state_path` (empty: none). Append mode
  // continues the file after its last complete frame.
  Output(std::string results_path, std::string state_path, bool append,
         const std::map<std::string, std::string>& attributes = {});

  // Registers the per-step observer on `d` (once); `self` keeps the Output alive there.
  static void Attach(const std::shared_ptr<Output>& self, domain::Domain& d);

  void set_interval(double seconds) { frames_.interval = seconds; }  // 0: every step
  double interval() const { return frames_.interval; }
  void set_compression(bool on) { writer_.set_compression(on); }
  void set_bases_in_file(bool on) { writer_.set_bases_in_file(on); }
  ResultsWriter& writer() { return writer_; }

  // RUN start: writes the first frame if none exists yet; RUN end: STATE (at most once a
  // second, like during the run). The file stays open between RUNs (SWMR readers may read
  // it); Finish() writes STATE and closes the file (plain HDF5 readers may read it).
  void BeginRun(const domain::Domain& d);
  void EndRun(const domain::Domain& d);
  void Finish(const domain::Domain& d);
  // Called after every step.
  void AfterStep(const domain::Domain& d);
  // Whether AfterStep writes a frame after the last step of `d`.
  bool FrameDue(const domain::Domain& d) const;
  void WriteFrame(const domain::Domain& d);
  void WriteState(const domain::Domain& d) const;
  void MaybeWriteState(const domain::Domain& d) const;

 private:
  using Clock = std::chrono::steady_clock;
  ResultsWriter writer_;
  std::string state_path_;
  IntervalEvent frames_;  // interval (0: every step) and time of the next frame
  int newbods_ = 0, delbods_ = 0;
  bool attached_ = false;
  Clock::time_point run_start_ = Clock::now();
  mutable Clock::time_point last_state_ = Clock::now();
  double run_start_time_ = 0.0;
};

}  // namespace solfec::io
