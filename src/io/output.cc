// Frame scheduling by the OUTPUT interval and the STATE file.
#include "io/output.h"

#include <cstdio>
#include <fstream>

namespace solfec::io {

Output::Output(std::string results_path, std::string state_path, bool append,
               const std::map<std::string, std::string>& attributes)
    : writer_(std::move(results_path),
              append ? ResultsWriter::Mode::kAppend : ResultsWriter::Mode::kCreate, attributes),
      state_path_(std::move(state_path)) {}

void Output::Attach(const std::shared_ptr<Output>& self, domain::Domain& d) {
  if (self->attached_) return;
  self->attached_ = true;
  // (solfec-mpi synchronizes the ranks before a step whose frame is written)
  d.AddStepObserver([self](const domain::Domain& dom) { self->AfterStep(dom); },
                    [self](const domain::Domain& dom) { return self->FrameDue(dom); });
}

void Output::WriteFrame(const domain::Domain& d) {
  writer_.WriteFrame(d, newbods_, delbods_);
  newbods_ = delbods_ = 0;
  if (frames_.interval > 0.0) frames_.MovePast(d.time(), d.step(), frames_.interval);
}

void Output::BeginRun(const domain::Domain& d) {
  run_start_ = Clock::now();
  run_start_time_ = d.time();
  if (writer_.frames() == 0) {
    frames_.next = d.time();
    WriteFrame(d);
    WriteState(d);
  } else if (frames_.interval > 0.0) {
    frames_.next = 0.0;
    frames_.MovePast(writer_.last_frame_time(), d.step(), frames_.interval);
  }
  MaybeWriteState(d);
}

void Output::EndRun(const domain::Domain& d) {
  writer_.Drain();  // every frame of the RUN in the file when RUN returns
  MaybeWriteState(d);
}

void Output::Finish(const domain::Domain& d) {
  writer_.Drain();  // STATE then counts every frame
  WriteState(d);
  writer_.Close();
}

void Output::MaybeWriteState(const domain::Domain& d) const {
  if (std::chrono::duration<double>(Clock::now() - last_state_).count() >= 1.0) WriteState(d);
}

bool Output::FrameDue(const domain::Domain& d) const {
  return frames_.interval <= 0.0 || frames_.Due(d.time(), d.step());
}

void Output::AfterStep(const domain::Domain& d) {
  newbods_ += d.num_new_bodies_last_step();
  delbods_ += d.num_deleted_bodies_last_step();
  if (FrameDue(d)) WriteFrame(d);
  MaybeWriteState(d);
}

void Output::WriteState(const domain::Domain& d) const {
  if (state_path_.empty()) return;
  const auto now = Clock::now();
  last_state_ = now;
  const double elapsed = std::chrono::duration<double>(now - run_start_).count();
  const double done = d.time() - run_start_time_;
  const double left = std::max(0.0, d.run_end_time() - d.time());
  const double eta = done > 0.0 ? elapsed * left / done : 0.0;
  const std::string tmp = state_path_ + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) return;  // STATE is informative; the results file reports real I/O errors
    f << "time " << d.time() << "\n"
      << "step " << d.step_count() << "\n"
      << "frames " << writer_.frames() << "\n"
      << "bodies " << d.bodies().size() << "\n"
      << "constraints " << d.constraints().size() << "\n"
      << "run_end_time " << d.run_end_time() << "\n"
      << "elapsed_seconds " << elapsed << "\n"
      << "estimated_seconds_to_end " << eta << "\n"
      << "output_seconds " << writer_.seconds() << "\n";
  }
  std::rename(tmp.c_str(), state_path_.c_str());
}

}  // namespace solfec::io
