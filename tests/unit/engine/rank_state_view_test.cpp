// RankStateView (engine/rank_state_view.hpp): the questions about a rank's state, checked on
// small networks driven by scripted messages whose flits can be counted by hand, on one rank
// and split over several (the answers of the parts add up to the whole's).
#include "wormnet/engine/rank_state_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "../../support/scripted_network.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

using test::ScriptedNetwork;

using test::ideal_router;

// Sums of a question over the parts of a network.
template <class F>
std::uint64_t sum(ScriptedNetwork& net, F&& f) {
  std::uint64_t n = 0;
  for (int p = 0; p < net.partition().parts(); ++p) n += f(net.model(p).state());
  return n;
}

// Before the first step every scripted message waits at its source: 4 messages of 4 + 2 + 7
// + 3 = 16 flits, none in the network, no VC holds a flit (none is stuck, none waits), and
// the channel list names each of the 4x4 mesh's 48 channels (2 directions x 2 axes x 4 rows
// x 3 links) once, with no flit carried yet.
TEST(RankStateView, MessagesWaitAtTheirSourcesBeforeTheFirstStep) {
  for (int parts : {1, 3}) {
    ScriptedNetwork net("mesh:4x4", "xy", ideal_router(4), parts);
    net.send(0, 3, 4);
    net.send(0, 12, 2);
    net.send(0, 15, 7);
    net.send(5, 6, 3);
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.flits_at_sources(); }), 16U);
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.messages_at_sources(); }), 4U);
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.flits_in_network(); }), 0U);
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.stuck_vcs(0, 0); }), 0U);
    std::set<std::uint32_t> channels;
    for (int p = 0; p < parts; ++p) {
      EXPECT_TRUE(net.model(p).state().wait_for_edges(0, 0).empty());
      for (const auto& [channel, flits] : net.model(p).state().channel_flits()) {
        EXPECT_TRUE(channels.insert(channel).second) << "channel " << channel << " twice";
        EXPECT_EQ(flits, 0U);
      }
    }
    EXPECT_EQ(channels.size(), 48U) << parts << " parts";
    EXPECT_EQ(*channels.rbegin(), 47U);
  }
}

// The bubble knot of rank_model_test.cpp, worked by hand there: on torus:5 (ports 0 = X+,
// 1 = X-) with bubble flow control, 8-flit buffers and --length-max 2, each node x sends 5
// flits to x + 2; each packet moves whole over the channel x -> x + 1 into the X- input VC 0
// of x + 1 and waits there for ever (the bubble rule wants 5 free slots at x + 2, which has 3).
// So after 300 cycles: 25 flits in the network, all in buffers (none on a link), 5 in each of
// the five X- input VCs 0, which are the stuck VCs (for 100 cycles, not for 1000: the run is
// shorter); nothing at the sources; each X+ channel carried 5 flits and no other channel any.
TEST(RankStateView, ABubbleKnotHoldsEveryFlitInTheRing) {
  SimConfig c = ideal_router(8);
  c.network.flow_control = FlowControl::kBubble;
  c.traffic.length_max = 2;
  for (int parts : {1, 2}) {
    ScriptedNetwork net("torus:5", "dor", c, parts);
    for (std::uint32_t x = 0; x < 5; ++x) net.send(x, (x + 2) % 5, 5);
    net.run_until(300);
    ASSERT_TRUE(net.deliveries().empty());
    const Cycle t = net.now();
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.flits_in_network(); }), 25U);
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.flits_at_sources(); }), 0U);
    EXPECT_EQ(sum(net, [](const RankStateView& s) { return s.messages_at_sources(); }), 0U);
    EXPECT_EQ(sum(net, [&](const RankStateView& s) { return s.stuck_vcs(t, 100); }), 5U);
    EXPECT_EQ(sum(net, [&](const RankStateView& s) { return s.stuck_vcs(t, 1000); }), 0U);
    EXPECT_EQ(sum(net, [&](const RankStateView& s) { return s.wait_for_edges(t, 100).size(); }),
              5U);

    const Topology& topo = net.topology();
    std::map<std::uint32_t, std::uint64_t> carried;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> buffered;  // (node, lv)
    std::size_t on_links = 0;
    for (int p = 0; p < parts; ++p) {
      for (const auto& [channel, flits] : net.model(p).state().channel_flits()) {
        carried[channel] = flits;
      }
      const ModelSnapshot s = net.model(p).state().snapshot();
      on_links += s.arrivals.flits.size();
      for (std::size_t k = 0; k < s.routers.size(); ++k) {
        for (std::uint32_t lv = 0; lv < s.port_vcs(); ++lv) {
          const std::uint32_t n = s.router.buffered(k * s.port_vcs() + lv);
          if (n != 0) buffered[{s.routers[k], lv}] = n;
        }
      }
    }
    EXPECT_EQ(on_links, 0U);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> knot;
    for (std::uint32_t x = 0; x < 5; ++x) knot[{x, 1}] = 5;  // X- input (port 1, 1 VC), VC 0
    EXPECT_EQ(buffered, knot) << parts << " parts";
    ASSERT_EQ(carried.size(), 10U);
    for (std::uint32_t x = 0; x < 5; ++x) {
      EXPECT_EQ(carried.at(topo.channel(NodeId(x), PortId(0)).value()), 5U) << "X+ of " << x;
      EXPECT_EQ(carried.at(topo.channel(NodeId(x), PortId(1)).value()), 0U) << "X- of " << x;
    }
  }
}

// Flits on a link are in the network: with links of 20 cycles, a 4-flit packet's flits spend
// 20 cycles each on its one link, so at some cycle all four are on it at once (buffers
// empty). At every cycle its 4 flits are at the source, in the network or ejected (the
// window counters' count), also when the link crosses to another part.
TEST(RankStateView, FlitsOnLinksAreCountedInTheNetwork) {
  for (int parts : {1, 2}) {
    ScriptedNetwork net("torus:5", "dor", ideal_router(4, 20), parts);
    std::uint32_t from = 0;
    while (parts > 1 &&
           net.partition().owner(NodeId(from)) == net.partition().owner(NodeId((from + 1) % 5))) {
      ++from;
    }
    net.send(from, (from + 1) % 5, 4);
    bool all_on_the_link = false;
    std::uint64_t ejected = 0;
    for (Cycle t = 1; t <= 60; ++t) {
      net.run_until(t);
      for (int p = 0; p < parts; ++p) ejected += net.model(p).take_window().ejected_flits;
      const std::uint64_t in_network =
          sum(net, [](const RankStateView& s) { return s.flits_in_network(); });
      EXPECT_EQ(in_network + sum(net, [](const RankStateView& s) { return s.flits_at_sources(); }) +
                    ejected,
                4U)
          << "cycle " << t << ", " << parts << " parts";
      std::size_t on_links = 0;
      for (int p = 0; p < parts; ++p)
        on_links += net.model(p).state().snapshot().arrivals.flits.size();
      if (on_links == 4) {
        all_on_the_link = true;
        EXPECT_EQ(in_network, 4U);
      }
    }
    EXPECT_TRUE(all_on_the_link) << parts << " parts";
    EXPECT_EQ(ejected, 4U);
    EXPECT_EQ(net.deliveries().size(), 1U);
  }
}

}  // namespace
}  // namespace wormnet
