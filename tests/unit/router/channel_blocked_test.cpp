// The channels' blocked time over time (`--congestion series`): RouterBank::take_channel_blocked()
// gives, per channel arriving at the bank's routers, the cycles its input VCs waited (for a VC,
// a credit or the switch) since the last call, inside the measurement window. Hand-worked on one
// router of mesh:2x2 (node 0: its channels in are 1 -> 0 at input X+ and 2 -> 0 at input Y+).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "../../support/one_router.hpp"
#include "wormnet/router/router_bank.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

using test::kXMinus;
using test::kXPlus;
using test::kYPlus;
using test::OneRouter;

RouterParams counting(int vcs, int depth, Cycle begin, Cycle end) {
  return test::counting(vcs, depth, begin, end, /*series=*/true);
}

/// take_channel_blocked() of r's bank at T, by channel id; each channel in listed once.
std::map<std::uint32_t, std::uint64_t> take(OneRouter& r, Cycle T) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  r.bank.take_channel_blocked(*r.topo, T, out);
  std::map<std::uint32_t, std::uint64_t> by_id;
  for (const auto& [c, n] : out) {
    EXPECT_FALSE(by_id.contains(c)) << "channel " << c << " listed twice";
    by_id[c] = n;
  }
  return by_id;
}

// Congestion.WaitsForAVcAndForCreditsByHand with P1 at input Y+ (router VC 2, channel 2 -> 0)
// instead of the terminal: two 2-flit packets for X+ (node 1), one VC, 2-flit buffers. P2 at
// input X- (VC 1) wins X+'s VC at cycle 0, its head moves at 0 and its tail at 1, taking both
// credits; P1 is refused at 0 and 1 (vc_wait), granted at 2 without a credit and waits for one
// at 2, 3, 4 (credit_wait); the credit of 5 moves its head, it waits again at 6, the credit of
// 7 moves its tail. So channel 2 -> 0 is blocked at cycles 0, 1, 2, 3, 4 and 6, channel 1 -> 0
// (input X+, empty) never. Windows [0, 3), [3, 6), [6, 10): 3, 2, 1 over the whole run
// ([0, 1000)); with the measurement window [1, 6): 2 (cycles 1, 2), 2 (3, 4), 0 (6 is after
// it), the window's vc_wait 1 + credit_wait 3.
TEST(ChannelBlocked, WaitsForAVcAndForCreditsPerWindowByHand) {
  struct Expect {
    Cycle begin, end;
    std::uint64_t blocked[3];
  };
  for (const Expect& e : {Expect{0, 1000, {3, 2, 1}}, Expect{1, 6, {2, 2, 0}}}) {
    SCOPED_TRACE(testing::Message() << "window [" << e.begin << ", " << e.end << ")");
    OneRouter r(counting(1, 2, e.begin, e.end));
    const std::uint32_t c10 = r.topo->channel(NodeId(1), static_cast<PortId>(kXMinus)).value();
    const std::uint32_t c20 = r.topo->channel(NodeId(2), PortId(3)).value();  // Y- of node 2
    r.packet(kYPlus, 1, 2, 1, 0);
    r.packet(kXMinus, 2, 2, 1, 0);
    const std::uint32_t o = r.bank.output_vc(0, kXPlus);
    const std::vector<int> moves = {1, 1, 0, 0, 0, 1, 0, 1, 0, 0};
    const Cycle ends[3] = {3, 6, 10};
    Cycle t = 0;
    for (int w = 0; w < 3; ++w) {
      for (; t < ends[w]; ++t) {
        if (t == 5 || t == 7) r.bank.return_credit(o, t);
        EXPECT_EQ(r.step(t), moves[t]) << "cycle " << t;
      }
      const std::map<std::uint32_t, std::uint64_t> got = take(r, t);
      ASSERT_EQ(got.size(), 2U);  // node 0's two channels in; X- and Y- face no neighbour
      EXPECT_EQ(got.at(c20), e.blocked[w]) << "window " << w;
      EXPECT_EQ(got.at(c10), 0U) << "window " << w;
    }
    // Over the windows, the totals of the measurement window.
    const VcCongestion p1 = r.bank.congestion(0, kYPlus, t);
    EXPECT_EQ(e.blocked[0] + e.blocked[1] + e.blocked[2],
              p1.vc_wait + p1.credit_wait + p1.switch_wait);
  }
}

// Congestion.WaitsForTheSwitchByHandAndNoneWithPerVcBandwidth with both packets on channels
// in and for the terminal: 2 VCs, 4-flit buffers, P1 at input X+ VC 0 (router VC 0, channel
// 1 -> 0), P2 at input Y+ VC 0 (router VC 4, channel 2 -> 0), both 2 flits for node 0. Both
// pick the ejection's VC 0 at cycle 0: P1 wins it, P2 is refused (vc_wait at 0) and takes VC
// 1 at 1. The ejection takes one input port a cycle, round robin after the last winner:
// 0: P1 head; 1: P2 head (P1 loses the switch); 2: P1 tail (P2 loses); 3: P2 tail. Windows
// of one cycle: 1 -> 0 blocked 0, 1, 0, 0; 2 -> 0 blocked 1, 0, 1, 0.
TEST(ChannelBlocked, WaitsForTheSwitchPerWindowByHand) {
  OneRouter r(counting(2, 4, 0, 1000));
  const std::uint32_t c10 = r.topo->channel(NodeId(1), static_cast<PortId>(kXMinus)).value();
  const std::uint32_t c20 = r.topo->channel(NodeId(2), PortId(3)).value();
  r.packet(kXPlus * 2, 1, 2, 0, 0);
  r.packet(kYPlus * 2, 2, 2, 0, 0);
  const std::uint64_t expect10[4] = {0, 1, 0, 0};
  const std::uint64_t expect20[4] = {1, 0, 1, 0};
  for (Cycle t = 0; t < 4; ++t) {
    EXPECT_EQ(r.step(t), 1) << "cycle " << t;
    const std::map<std::uint32_t, std::uint64_t> got = take(r, t + 1);
    EXPECT_EQ(got.at(c10), expect10[t]) << "cycle " << t;
    EXPECT_EQ(got.at(c20), expect20[t]) << "cycle " << t;
  }
  EXPECT_EQ(take(r, 6).at(c20), 0U);  // nothing left
}

}  // namespace
}  // namespace wormnet
