// The completion report's critical path on hand-worked message times (no network: the times
// are set by hand). The split completion = wait + queueing + network holds whichever
// dependency the walk takes back from each message, so it proves nothing about the path:
// these cases check every message on the path and each part of the split, in graphs where
// the predecessor's choice changes both.
#include "wormnet/workload/completion_report.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace wormnet {
namespace {

/// One message's hand-set times (cycles, as the closed loop records them without the + 1).
struct Times {
  Cycle issued;
  Cycle injected;
  Cycle delivered;
};

WorkloadTimes times_of(const std::vector<Times>& t) {
  WorkloadTimes w;
  for (const Times& m : t) {
    w.issued.push_back(m.issued + 1);
    w.injected.push_back(m.injected + 1);
    w.delivered.push_back(m.delivered + 1);
  }
  return w;
}

// Four nodes, seven messages (source -> destination, dependencies, issued / injected /
// delivered), each issued when its last dependency was satisfied, as the closed loop does:
//   m0 0->2  -            0 /  1 / 10   iteration 0
//   m1 1->2  - (after 5)  5 /  6 / 30   iteration 0
//   m2 2->3  m0, m1      30 / 31 / 40   iteration 0   (received both: m1 at 30 is the later)
//   m3 2->0  m2          30 / 40 / 52   iteration 1   (m2 is 2's earlier send, issued at 30)
//   m4 3->1  m2          40 / 40 / 55   iteration 1   (received m2 at 40)
//   m5 0->1  m3          52 / 53 / 60   iteration 1   (received m3 at 52)
//   m6 1->0  m4, m5      60 / 62 / 70   iteration 1   (received both: m5 at 60 is the later)
// Completion 70 (m6). Back from m6: m5 (60 > 55), then m3, then m2 through a send
// dependency (m2 adds nothing: issued when m3 was), then m1 (30 > 10), which waited for
// nothing but its `after`. Path m1 m2 m3 m5 m6; wait = 5 (m1's issue) + 0 at every step;
// queueing = m1 1 + m3 10 + m5 1 + m6 2 = 14; network = m1 24 + m3 12 + m5 7 + m6 8 = 51.
// Taking the earlier dependency at m6 (m4) would give the path m1 m2 m4 m6 with wait 10 and
// network 56; at m2 (m0) the path m0 m2 m3 m5 m6 with wait 20: the same sum of 70.
TEST(CriticalPath, GoesThroughTheDependencySatisfiedLast) {
  const std::vector<Times> t{{0, 1, 10},   {5, 6, 30},   {30, 31, 40}, {30, 40, 52},
                             {40, 40, 55}, {52, 53, 60}, {60, 62, 70}};
  // Both orders of each pair of dependencies: the later one is chosen, not a listed one.
  for (const bool later_first : {false, true}) {
    MessageGraph g;
    const std::array<std::uint32_t, 2> m2_deps =
        later_first ? std::array<std::uint32_t, 2>{1, 0} : std::array<std::uint32_t, 2>{0, 1};
    const std::array<std::uint32_t, 2> m6_deps =
        later_first ? std::array<std::uint32_t, 2>{5, 4} : std::array<std::uint32_t, 2>{4, 5};
    const std::uint32_t m2 = 2;
    const std::uint32_t m3 = 3;
    g.add(0, 2, 4, 0, 0, {});
    g.add(1, 2, 4, 0, 5, {});
    g.add(2, 3, 4, 0, 0, m2_deps);
    g.add(2, 0, 4, 1, 0, std::span<const std::uint32_t>(&m2, 1));
    g.add(3, 1, 4, 1, 0, std::span<const std::uint32_t>(&m2, 1));
    g.add(0, 1, 4, 1, 0, std::span<const std::uint32_t>(&m3, 1));
    g.add(1, 0, 4, 1, 0, m6_deps);
    for (std::uint32_t id = 0; id < g.size(); ++id) ASSERT_EQ(g.check_message(id, 4), "");

    const CompletionReport r = report_completion(g, times_of(t));
    ASSERT_TRUE(r.complete);
    EXPECT_EQ(r.completion, 70U);
    EXPECT_EQ(r.critical_path, (std::vector<std::uint32_t>{1, 2, 3, 5, 6}))
        << "later dependency listed " << (later_first ? "first" : "second");
    EXPECT_EQ(r.path_wait, 5U);
    EXPECT_EQ(r.path_queueing, 14U);
    EXPECT_EQ(r.path_network, 51U);

    // Per iteration, from the table above.
    ASSERT_EQ(r.iterations.size(), 2U);
    EXPECT_EQ(r.iterations[0].start, 0U);
    EXPECT_EQ(r.iterations[0].end, 40U);
    EXPECT_EQ(r.iterations[0].messages, 3U);
    EXPECT_EQ(r.iterations[0].flits, 12U);
    EXPECT_DOUBLE_EQ(r.iterations[0].mean_queueing, 1.0);  // (1 + 1 + 1) / 3
    EXPECT_DOUBLE_EQ(r.iterations[0].mean_network, 14.0);  // (9 + 24 + 9) / 3
    EXPECT_EQ(r.iterations[0].max_network, 24U);
    EXPECT_EQ(r.iterations[1].start, 30U);
    EXPECT_EQ(r.iterations[1].end, 70U);
    EXPECT_EQ(r.iterations[1].messages, 4U);
    EXPECT_DOUBLE_EQ(r.iterations[1].mean_queueing, 13.0 / 4);  // (10 + 0 + 1 + 2) / 4
    EXPECT_DOUBLE_EQ(r.iterations[1].mean_network, 42.0 / 4);   // (12 + 15 + 7 + 8) / 4
    EXPECT_EQ(r.iterations[1].max_network, 15U);
  }
}

// Two dependencies satisfied at the same cycle: the first listed is the predecessor (the
// report's rule, so that the path does not depend on anything but the graph). m2 0->2
// depends on m1 1->0 (received at 20) and m0 0->1 (0's earlier send, issued at 20): the
// walk takes m1 and adds its queueing and network; with m0 first it takes m0, which adds
// nothing (issued with m2), and goes on to m0's own start.
TEST(CriticalPath, TheFirstOfEqualDependenciesIsTaken) {
  const std::vector<Times> t{{20, 21, 30}, {0, 3, 20}, {20, 31, 40}};
  for (const bool receive_first : {true, false}) {
    MessageGraph g;
    g.add(0, 1, 4, 0, 20, {});
    g.add(1, 0, 4, 0, 0, {});
    const std::array<std::uint32_t, 2> deps =
        receive_first ? std::array<std::uint32_t, 2>{1, 0} : std::array<std::uint32_t, 2>{0, 1};
    g.add(0, 2, 4, 0, 0, deps);
    for (std::uint32_t id = 0; id < g.size(); ++id) ASSERT_EQ(g.check_message(id, 3), "");
    const CompletionReport r = report_completion(g, times_of(t));
    EXPECT_EQ(r.completion, 40U);
    if (receive_first) {
      // m1 (issued 0, queued 3, network 17), then m2 (queued 11, network 9).
      EXPECT_EQ(r.critical_path, (std::vector<std::uint32_t>{1, 2}));
      EXPECT_EQ(r.path_wait, 0U);
      EXPECT_EQ(r.path_queueing, 14U);
      EXPECT_EQ(r.path_network, 26U);
    } else {
      // m0 (its `after`: waited 20), then m2 (queued 11, network 9); m0's own times are
      // not on the path (m2 did not wait for its delivery).
      EXPECT_EQ(r.critical_path, (std::vector<std::uint32_t>{0, 2}));
      EXPECT_EQ(r.path_wait, 20U);
      EXPECT_EQ(r.path_queueing, 11U);
      EXPECT_EQ(r.path_network, 9U);
    }
  }
}

}  // namespace
}  // namespace wormnet
