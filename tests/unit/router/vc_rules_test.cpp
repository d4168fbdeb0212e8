// The VC rules by themselves: ring entry, the bubble condition and Duato's adaptive VCs.
#include "wormnet/router/vc_rules.hpp"

#include <gtest/gtest.h>

namespace wormnet {
namespace {

// Ports of a 2-D torus: 0 = X+, 1 = X-, 2 = Y+, 3 = Y-; 4 is the terminal. A packet that
// travels X+ arrives on port 1 (it came from the X- neighbour) and goes on by port 0.
TEST(VcRules, APacketEntersARingUnlessItGoesStraightOnAlongIt) {
  EXPECT_FALSE(enters_ring(1, 0, 4, true));   // straight on, X+
  EXPECT_FALSE(enters_ring(0, 1, 4, true));   // straight on, X-
  EXPECT_TRUE(enters_ring(4, 0, 4, true));    // from the terminal
  EXPECT_TRUE(enters_ring(1, 2, 4, true));    // a turn onto Y
  EXPECT_TRUE(enters_ring(0, 0, 4, true));    // back the way it came
  EXPECT_FALSE(enters_ring(4, 0, 4, false));  // a mesh dimension is no ring
}

TEST(VcRules, TheBubbleNeedsTheWholePacketAndOneMoreOnEntry) {
  // 4-flit packets, 6-flit longest.
  EXPECT_TRUE(bubble_allows(4, 4, 6, false));
  EXPECT_FALSE(bubble_allows(3, 4, 6, false));  // cut-through: the whole packet must fit
  EXPECT_FALSE(bubble_allows(9, 4, 6, true));
  EXPECT_TRUE(bubble_allows(10, 4, 6, true));
}

TEST(VcRules, AnAdaptiveVcTakesANewPacketOnlyWhenItsBufferIsEmpty) {
  EXPECT_TRUE(adaptive_vc_takes_new_packet(8, 8));
  EXPECT_FALSE(adaptive_vc_takes_new_packet(7, 8));
}

TEST(VcRules, EscapeVcsOnlyWhenNoAdaptiveVcIsFree) {
  // 2 VCs per port, VC 0 the escape class; candidates are port * 2 + vc.
  const std::uint8_t vc_of[8] = {0, 1, 0, 1, 0, 1, 0, 1};
  const VcMask escape = 0b01;
  int cand[] = {0, 1, 2, 5};  // escape, adaptive, escape, adaptive
  int opt[] = {0, 0, 1, 2};
  EXPECT_EQ(prefer_adaptive(cand, opt, 4, 2, escape, vc_of), 2);
  EXPECT_EQ(cand[0], 1);
  EXPECT_EQ(cand[1], 5);
  EXPECT_EQ(opt[1], 2);
  int only_escape[] = {0, 2};
  int opt2[] = {0, 1};
  EXPECT_EQ(prefer_adaptive(only_escape, opt2, 2, 0, escape, vc_of), 2);
  EXPECT_EQ(only_escape[1], 2);
  // Ejection candidates are not adaptive hops: nothing is dropped.
  int eject[] = {8, 9};
  int opt3[] = {0, 0};
  EXPECT_EQ(prefer_adaptive(eject, opt3, 2, 0, escape, vc_of), 2);
}

}  // namespace
}  // namespace wormnet
