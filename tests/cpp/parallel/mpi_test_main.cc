// GoogleTest main for MPI tests: every rank runs every test, rank 0 prints, and the exit code
// is nonzero when a test failed on any rank.
#include <gtest/gtest.h>

#include <cstdio>

#include "parallel/communicator.h"

namespace {

// On ranks > 0: prints failed assertions only, prefixed with the rank.
class FailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  solfec::parallel::MpiSession session(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  solfec::parallel::Communicator world;
  if (world.rank() != 0) {
    // Other ranks report failures only (with their rank), not the full progress listing.
    testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(world.rank()));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  if (failed) std::fprintf(stderr, "rank %d: some tests failed\n", world.rank());
  std::int64_t any = world.AllReduceMax(static_cast<std::int64_t>(failed));
  return any != 0 ? 1 : 0;
}
