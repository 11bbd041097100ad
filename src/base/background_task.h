// BackgroundTask: one worker thread running one task at a time while the caller goes on (the
// results writer compresses a frame's chunks there while the next step computes).
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace solfec {

class BackgroundTask {
 public:
  BackgroundTask() = default;
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;
  ~BackgroundTask();  // waits for the task in flight (its error is dropped), joins

  // Starts `task` on the worker (started at the first call); waits first for the task in
  // flight, rethrowing its error.
  void Run(std::function<void()> task);
  // Waits for the task in flight; rethrows the exception it ended with, once.
  void Wait();
  bool busy() const;

 private:
  void Loop();

  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::function<void()> task_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
};

}  // namespace solfec
