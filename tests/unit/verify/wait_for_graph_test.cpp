// The deadlock detector's graph search on hand-drawn wait-for graphs: a set of VCs that wait
// only for each other is a deadlock, a VC with any way out is none, and the cycle reported
// is a shortest one and does not depend on the order of the edges.
#include "wormnet/verify/wait_for_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace wormnet {
namespace {

/// VC number n of router n (port 0, VC 0): enough to draw graphs with.
WaitEdge edge(std::uint32_t from, std::uint32_t to) {
  return WaitEdge{from, 0, 0, to, 0, 0};
}
VcKey vc(std::uint32_t n) {
  return vc_key(n, 0, 0);
}

TEST(WaitForGraph, ARingOfVcsIsADeadlockReportedFromItsSmallestVc) {
  const std::vector<VcKey> expected{vc(2), vc(5), vc(9)};
  EXPECT_EQ(find_deadlock_cycle({edge(5, 9), edge(9, 2), edge(2, 5)}), expected);
}

TEST(WaitForGraph, NoWaitingVcsNoDeadlock) {
  EXPECT_TRUE(find_deadlock_cycle({}).empty());
  EXPECT_TRUE(find_deadlock_cycle({edge(1, 2), edge(2, 3)}).empty());  // 3 is not stuck
}

TEST(WaitForGraph, AVcWithAnotherWayOutFreesTheRing) {
  // 2 waits for 3 or for 7 (two output VCs it may take); 7 is not stuck, so 2 moves once 7
  // does, and then 1 and 3 do.
  EXPECT_TRUE(find_deadlock_cycle({edge(1, 2), edge(2, 3), edge(3, 1), edge(2, 7)}).empty());
  // Freed in a chain: 4 waits only for the ring, whose way out is 8 -> 9 (not stuck).
  EXPECT_TRUE(
      find_deadlock_cycle({edge(4, 1), edge(1, 2), edge(2, 1), edge(2, 8), edge(8, 9)}).empty());
}

TEST(WaitForGraph, VcsWaitingOnADeadlockAreInItButTheCycleIsTheRing) {
  // 1 waits only for the ring 5 -> 6 -> 7 -> 5: it is deadlocked too, but on no cycle.
  const std::vector<VcKey> expected{vc(5), vc(6), vc(7)};
  EXPECT_EQ(find_deadlock_cycle({edge(1, 5), edge(5, 6), edge(6, 7), edge(7, 5)}), expected);
}

TEST(WaitForGraph, TheShortestCycleIsReported) {
  // 1 -> 2 -> 3 -> 4 -> 1 and the chord 2 -> 4 (an OR: 2 waits for 3 or 4): both ways are
  // stuck; the shortest cycle through the ring found is 1 -> 2 -> 4 -> 1.
  const std::vector<VcKey> expected{vc(1), vc(2), vc(4)};
  EXPECT_EQ(find_deadlock_cycle({edge(1, 2), edge(2, 3), edge(3, 4), edge(4, 1), edge(2, 4)}),
            expected);
}

TEST(WaitForGraph, TheCycleDoesNotDependOnTheEdgesOrder) {
  // Two rings joined by a VC that waits for both: gathered from the ranks in any order.
  std::vector<WaitEdge> edges{edge(10, 11), edge(11, 12), edge(12, 10), edge(20, 21),
                              edge(21, 20), edge(30, 10), edge(30, 20), edge(10, 10 + 1)};
  const std::vector<VcKey> first = find_deadlock_cycle(edges);
  const std::vector<VcKey> expected{vc(10), vc(11), vc(12)};
  EXPECT_EQ(first, expected);
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) {
    std::shuffle(edges.begin(), edges.end(), rng);
    EXPECT_EQ(find_deadlock_cycle(edges), first);
  }
}

TEST(WaitForGraph, KeysNameRouterPortAndVc) {
  EXPECT_EQ(vc_key(3, 2, 1), (std::uint64_t{3} << 16) | (2U << 8) | 1U);
  const std::vector<VcKey> expected{vc_key(1, 4, 1), vc_key(1, 6, 0)};
  EXPECT_EQ(find_deadlock_cycle({WaitEdge{1, 4, 1, 1, 6, 0}, WaitEdge{1, 6, 0, 1, 4, 1}}),
            expected);
}

}  // namespace
}  // namespace wormnet
