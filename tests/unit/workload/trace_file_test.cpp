// The trace reader's bounds (trace_file.hpp, docs/workloads.md), with small limits so that
// each is crossed by a few hand-written lines: the message count, the dependencies in all,
// the iteration labels (below the message count, the line of the largest named), and the
// stop check reaching the reader. The completion report refuses a graph whose labels were
// never bounded instead of sizing its rows by them.
#include "wormnet/workload/trace_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "wormnet/core/error.hpp"
#include "wormnet/workload/completion_report.hpp"

namespace wormnet {
namespace {

namespace fs = std::filesystem;

const std::string kHeader = std::string(kTraceHeader) + "\n";

class TraceFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "wormnet-trace-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  /// The reason read_trace gives for `text` on 4 nodes ("" when it reads it).
  std::string refusal(const std::string& text, const TraceLimits& limits = {}) const {
    const std::string p = (fs::path(dir_) / "t.csv").string();
    std::ofstream(p, std::ios::binary) << text;
    try {
      read_trace(p, 4, "--trace", {}, limits);
    } catch (const InputError& e) {
      EXPECT_EQ(e.option(), "--trace");
      EXPECT_EQ(e.value(), p);
      return e.allowed();
    }
    return "";
  }
  std::string dir_;
};

TEST_F(TraceFileTest, MessageCountBounded) {
  TraceLimits limits;
  limits.max_messages = 3;
  const std::string three = kHeader + "0,0,1,1,0,0,\n1,1,2,1,0,0,\n2,2,3,1,0,0,\n";
  EXPECT_EQ(refusal(three, limits), "");
  EXPECT_EQ(refusal(three + "3,3,0,1,0,0,\n", limits),
            "line 5: id '3' is not a whole number in 0..2 (docs/workloads.md)");
}

TEST_F(TraceFileTest, DependenciesInAllBounded) {
  TraceLimits limits;
  limits.max_dependencies = 3;
  // 0 -> 1 (received), 1 -> 0 twice: 3 dependencies; a fourth crosses the bound.
  const std::string ok = kHeader + "0,0,1,1,0,0,\n1,1,0,1,0,0,0\n2,0,1,1,0,0,1 1\n";
  EXPECT_EQ(refusal(ok, limits), "");
  EXPECT_EQ(refusal(ok + "3,1,0,1,0,0,2\n", limits),
            "line 5: more than 3 dependencies in all: at most that many in a trace "
            "(docs/workloads.md)");
}

TEST_F(TraceFileTest, IterationLabelsBelowTheMessageCount) {
  // Three messages: labels 0..2 (gaps allowed), the largest named at its first line.
  EXPECT_EQ(refusal(kHeader + "0,0,1,1,0,2,\n1,1,0,1,0,0,\n2,0,1,1,0,2,\n"), "");
  EXPECT_EQ(refusal(kHeader + "0,0,1,1,0,0,\n1,1,0,1,0,5,\n2,0,1,1,0,3,\n3,0,1,1,0,5,\n"),
            "line 3: iteration 5 is not below the number of messages (4): labels are 0..3 "
            "(docs/workloads.md)");
  // Beyond what any trace may hold: refused at its own line, before the rest is read.
  TraceLimits limits;
  limits.max_messages = 10;
  EXPECT_EQ(refusal(kHeader + "0,0,1,1,0,10,\n", limits),
            "line 2: iteration '10' is not a label below the number of messages (whole numbers "
            "0..9 in a trace of at most 10 messages) (docs/workloads.md)");
  EXPECT_NE(refusal(kHeader + "0,0,1,1,0,18446744073709551616,\n").find("iteration"),
            std::string::npos);
}

TEST_F(TraceFileTest, LongLineRefusedWithItsNumber) {
  TraceLimits limits;
  limits.max_line = 20;
  EXPECT_EQ(refusal("# short\n" + std::string(21, '#') + "\n", limits),
            "line 2: longer than 20 characters");
}

TEST_F(TraceFileTest, StopReachesTheReader) {
  const std::string p = (fs::path(dir_) / "s.csv").string();
  std::ofstream(p, std::ios::binary) << kHeader << "0,0,1,1,0,0,\n";
  EXPECT_THROW(read_trace(p, 4, "--trace", [] { return true; }), Interrupted);
  EXPECT_EQ(read_trace(p, 4, "--trace", [] { return false; }).size(), 1U);
}

TEST_F(TraceFileTest, ComputeColumnBoundedAndLocalMessagesOnlyWithIt) {
  const std::string h8 = std::string(kTraceHeaderCompute) + "\n";
  // The eight-column form: a computation per message (0..1e9 cycles), messages within a node
  // of 1 flit or more, step markers of 0 flits within a node.
  EXPECT_EQ(refusal(h8 + "0,0,1,4,0,0,,1000000000\n1,1,1,3,0,0,0,0\n2,1,1,0,0,0,1,7\n"), "");
  EXPECT_EQ(refusal(h8 + "0,0,1,4,0,0,,1000000001\n"),
            "line 2: compute '1000000001' is not a whole number of cycles in 0..1000000000 "
            "(docs/workloads.md)");
  EXPECT_EQ(refusal(h8 + "0,0,1,4,0,0,,-1\n"),
            "line 2: compute '-1' is not a whole number of cycles in 0..1000000000 "
            "(docs/workloads.md)");
  EXPECT_EQ(refusal(h8 + "0,0,1,4,0,0,\n"),
            "line 2: 8 comma-separated fields expected, found 7 in '0,0,1,4,0,0,' "
            "(docs/workloads.md)");
  EXPECT_EQ(refusal(h8 + "0,0,1,0,0,0,,5\n"),
            "line 2: message 0: size 0 flits is outside 1..65535 (0 only within a node) "
            "(docs/workloads.md)");
  // The seven-column form keeps its rules: no message to its own node, no empty message.
  EXPECT_EQ(refusal(kHeader + "0,1,1,4,0,0,\n"),
            "line 2: message 0: source and destination are the same node (docs/workloads.md)");
  EXPECT_EQ(refusal(kHeader + "0,1,1,0,0,0,\n"),
            "line 2: flits must be at least 1 "
            "(docs/workloads.md)");
  EXPECT_EQ(refusal(kHeader + "0,0,1,4,0,0,,5\n"),
            "line 2: 7 comma-separated fields expected, found 8 in '0,0,1,4,0,0,,5' "
            "(docs/workloads.md)");
}

TEST_F(TraceFileTest, WrittenWithEightColumnsOnlyWhenNeeded) {
  const std::string p = (fs::path(dir_) / "w.csv").string();
  const auto text = [&] {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  MessageGraph plain;
  plain.add(0, 1, 4, 0, 0, {});
  write_trace(plain, p);
  EXPECT_EQ(text(), "# wormnet workload trace (docs/workloads.md)\n" + kHeader + "0,0,1,4,0,0,\n");
  MessageGraph g;
  const std::uint32_t d0[] = {0};
  g.add(0, 0, 4, 0, 0, {}, 3);
  g.add(0, 1, 2, 1, 0, d0);
  write_trace(g, p);
  EXPECT_EQ(text(), "# wormnet workload trace (docs/workloads.md)\n" +
                        std::string(kTraceHeaderCompute) + "\n0,0,0,4,0,0,,3\n1,0,1,2,0,1,0,0\n");
  const MessageGraph back = read_trace(p, 2, "--trace");
  ASSERT_EQ(back.size(), 2U);
  EXPECT_EQ(back.messages()[0].compute, 3U);
  EXPECT_TRUE(back.messages()[0].local());
  EXPECT_EQ(back.deps_of(1).size(), 1U);
}

TEST(CompletionReport, LabelsBeyondTheMessagesAreABugNotAnAllocation) {
  // A graph no reader would give (1 message, label 2^32 - 2): refused before any row is
  // sized (it asked for 2^32 rows once, after the whole run).
  MessageGraph g;
  g.add(0, 1, 1, 0xFFFFFFFEU, 0, {});
  WorkloadTimes t{{1}, {1}, {2}};
  EXPECT_THROW(report_completion(g, t), InvariantError);
  MessageGraph ok;
  ok.add(0, 1, 1, 0, 0, {});
  const CompletionReport r = report_completion(ok, t);
  EXPECT_EQ(r.iterations.size(), 1U);
  EXPECT_TRUE(r.complete);
  // Labels 0 and 2 of three messages: a row per label up to the largest, label 1 empty.
  MessageGraph gaps;
  gaps.add(0, 1, 1, 2, 0, {});
  gaps.add(1, 0, 1, 0, 0, {});
  gaps.add(0, 1, 1, 2, 0, {});
  const WorkloadTimes three{{1, 1, 1}, {1, 1, 1}, {3, 3, 5}};
  const CompletionReport rows = report_completion(gaps, three);
  ASSERT_EQ(rows.iterations.size(), 3U);
  EXPECT_EQ(rows.iterations[0].messages, 1U);
  EXPECT_EQ(rows.iterations[1].messages, 0U);
  EXPECT_EQ(rows.iterations[2].messages, 2U);
  EXPECT_EQ(rows.iterations[2].end, 4U);
}

}  // namespace
}  // namespace wormnet
