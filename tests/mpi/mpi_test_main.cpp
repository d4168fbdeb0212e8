// GoogleTest main for tests that need MPI: run under mpiexec at several rank counts (the MPI
// tests) or alone as a one-rank singleton (the io tests). Every rank runs every test; rank 0
// prints the usual report, the other ranks print only their own failures, tagged with their
// rank. After each test the ranks agree on whether it failed anywhere, so that rank 0's
// summary names a test that failed on another rank only; the exit code is non-zero on every
// rank when any test failed on any rank.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "wormnet/parallel/communicator.hpp"

namespace {

/// On ranks other than 0: each failed assertion, as "[rank r] file:line: message".
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_,
                 result.file_name() != nullptr ? result.file_name() : "?", result.line_number(),
                 result.summary());
    std::fflush(stderr);
  }

 private:
  int rank_;
};

/// On every rank: after each test, whether it failed on any rank (a collective call, in the
/// same order everywhere since every rank runs the same tests).
class CrossRankVerdict : public ::testing::EmptyTestEventListener {
 public:
  explicit CrossRankVerdict(wormnet::Communicator comm) : comm_(std::move(comm)) {}
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const bool failed_here = info.result()->Failed();
    if (comm_.any(failed_here)) {
      failed_anywhere_ = true;
      if (comm_.is_root() && !failed_here) {
        std::printf("[  FAILED  ] %s.%s failed on another rank (see its [rank r] lines)\n",
                    info.test_suite_name(), info.name());
        std::fflush(stdout);
      }
    }
  }
  [[nodiscard]] bool failed_anywhere() const { return failed_anywhere_; }

 private:
  wormnet::Communicator comm_;
  bool failed_anywhere_ = false;
};

/// Whether gtest is only asked to list the tests (as CMake's test discovery does at build
/// time): that needs no MPI, and starting MPI there would only cost time.
bool listing_only(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--gtest_list_tests") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (listing_only(argc, argv)) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
  }
  const wormnet::MpiSession session(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const wormnet::Communicator world = wormnet::Communicator::world();

  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (!world.is_root()) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(world.rank()));
  }
  auto* verdict = new CrossRankVerdict(world);  // owned by gtest once appended
  listeners.Append(verdict);

  const int rc = RUN_ALL_TESTS();
  const bool failed = world.any(rc != 0 || verdict->failed_anywhere());
  return failed ? 1 : 0;
}
