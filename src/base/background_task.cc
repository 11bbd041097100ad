// One-slot worker thread with exception hand-back.
#include "base/background_task.h"

#include <utility>

namespace solfec {

BackgroundTask::~BackgroundTask() {
  if (!thread_.joinable()) return;
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !busy_; });
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void BackgroundTask::Run(std::function<void()> task) {
  Wait();
  if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
  {
    std::lock_guard lock(mutex_);
    task_ = std::move(task);
    busy_ = true;
  }
  cv_.notify_all();
}

void BackgroundTask::Wait() {
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !busy_; });
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

bool BackgroundTask::busy() const {
  std::lock_guard lock(mutex_);
  return busy_;
}

void BackgroundTask::Loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return busy_ || stop_; });
    if (stop_) return;
    std::function<void()> task = std::move(task_);
    lock.unlock();
    std::exception_ptr error;
    try {
      task();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    error_ = error;
    busy_ = false;
    cv_.notify_all();
  }
}

}  // namespace solfec
