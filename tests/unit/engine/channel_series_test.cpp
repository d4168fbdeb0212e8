// The channel view over time (`--congestion series`): RankModel::take_channel_window() gives
// the flits each channel carried since the last call. Hand-worked on a line of routers, and
// carried across a checkpoint and restart onto another partition mid-window.
#include <gtest/gtest.h>

#include <map>

#include "../../support/scripted_network.hpp"

namespace wormnet {
namespace {

using test::ScriptedNetwork;

// Ports of a 2-D mesh: 0 = X+.
constexpr PortId kXPlus = 0;

/// Every router stage 0 cycles, links and credits 1 cycle, 4-flit buffers, counting.
SimConfig series_router() {
  SimConfig c = test::ideal_router(4);
  c.measure.congestion = CongestionMode::kSeries;
  return c;
}

/// The flits per channel id the window gave, summed over the parts (absent: 0).
std::map<std::uint32_t, std::uint64_t> take(ScriptedNetwork& net, int parts) {
  std::map<std::uint32_t, std::uint64_t> out;
  for (int p = 0; p < parts; ++p) {
    for (const auto& [c, f] : net.model(p).take_channel_window()) {
      EXPECT_FALSE(out.contains(c)) << "channel " << c << " listed by two parts";
      out[c] += f;
    }
  }
  return out;
}

// mesh:4x2, xy routing along its first row (the line 0-1-2-3), one packet of 3 flits from node 0 to
// node 3. With every stage 0 cycles and 1-cycle links a flit that leaves a router at t leaves the
// next at t + 1 (the 2x2 cycle-by-cycle case of rank_model_test.cpp): channel 0->1 carries the
// flits at cycles 0, 1, 2; 1->2 at 1, 2, 3; 2->3 at 2, 3, 4. Windows of 2 cycles, [0,2) [2,4)
// [4,6): 0->1 carries 2, 1, 0 flits; 1->2 1, 2, 0; 2->3 0, 2, 1; every other channel none.
struct LineCase {
  int parts_before;
  int parts_after;  ///< the state moves onto this many parts at cycle 3, mid-window
};

class ChannelSeries : public ::testing::TestWithParam<LineCase> {};

TEST_P(ChannelSeries, OnePacketOnALineOfRouters) {
  const LineCase k = GetParam();
  ScriptedNetwork net("mesh:4x2", "xy", series_router(), k.parts_before);
  const Topology& topo = net.topology();
  const std::uint32_t c01 = topo.channel(NodeId(0), kXPlus).value();
  const std::uint32_t c12 = topo.channel(NodeId(1), kXPlus).value();
  const std::uint32_t c23 = topo.channel(NodeId(2), kXPlus).value();
  const std::map<std::uint32_t, std::uint64_t> expect[3] = {{{c01, 2}, {c12, 1}, {c23, 0}},
                                                            {{c01, 1}, {c12, 2}, {c23, 2}},
                                                            {{c01, 0}, {c12, 0}, {c23, 1}}};
  net.send(0, 3, 3);
  int parts = k.parts_before;
  for (int w = 0; w < 3; ++w) {
    if (w == 1) {  // a checkpoint at cycle 3 restored onto another partition
      net.run_until(3);
      net.repartition(Partition::blocks(topo, k.parts_after));
      parts = k.parts_after;
    }
    net.run_until(2 * (w + 1));
    const std::map<std::uint32_t, std::uint64_t> got = take(net, parts);
    EXPECT_EQ(got.size(), topo.num_channels());
    for (const auto& [c, f] : got) {
      const auto e = expect[w].find(c);
      EXPECT_EQ(f, e == expect[w].end() ? 0U : e->second) << "window " << w << " channel " << c;
    }
  }
  ASSERT_EQ(net.deliveries().size(), 1U);
  EXPECT_EQ(net.deliveries()[0].done, 5U);  // the tail crosses 2->3 at 4, is ejected at 5
}

INSTANTIATE_TEST_SUITE_P(Restarts, ChannelSeries,
                         ::testing::Values(LineCase{1, 1}, LineCase{1, 2}, LineCase{2, 1},
                                           LineCase{2, 4}));

}  // namespace
}  // namespace wormnet
