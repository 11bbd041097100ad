// BackgroundTask: the task runs on the worker while the caller goes on; its error comes back
// from Wait (or the next Run) once.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include "base/background_task.h"

namespace solfec {
namespace {

TEST(BackgroundTask, RunReturnsWhileTheTaskWaitsForTheCaller) {
  BackgroundTask task;
  std::promise<void> go;
  std::shared_future<void> started = go.get_future().share();
  std::thread::id worker;
  bool done = false;
  task.Run([&] {
    // blocks until the caller, back from Run, says go (a synchronous Run would time out here)
    if (started.wait_for(std::chrono::seconds(20)) != std::future_status::ready)
      throw std::runtime_error("Run did not return while the task ran");
    worker = std::this_thread::get_id();
    done = true;
  });
  EXPECT_TRUE(task.busy());
  go.set_value();
  task.Wait();
  EXPECT_TRUE(done);
  EXPECT_NE(worker, std::this_thread::get_id());
  EXPECT_FALSE(task.busy());
}

TEST(BackgroundTask, ErrorOfTheTaskIsRethrownOnceByWaitOrTheNextRun) {
  BackgroundTask task;
  task.Run([] { throw std::runtime_error("zlib error -2"); });
  EXPECT_THROW(task.Wait(), std::runtime_error);
  EXPECT_NO_THROW(task.Wait());
  task.Run([] { throw std::runtime_error("second"); });
  int ran = 0;
  EXPECT_THROW(task.Run([&] { ++ran; }), std::runtime_error);  // the pending error first
  task.Run([&] { ++ran; });
  task.Wait();
  EXPECT_EQ(ran, 1);
}

}  // namespace
}  // namespace solfec
