// The gauges a statistics window records (flits in the network, flits and messages at the
// sources) come in O(1) from the counts of what entered and left a rank (RankStateView::gauges()).
// They must equal the router-by-router count (counted_gauges()) on every rank at every cycle
// the engine reads them: whatever the topology, routing, rank count, overlapped exchange,
// walk (level or skewed), sources' own traffic and scripted messages, across statistics
// windows taken and across restarts onto another partition.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include "../../support/scripted_network.hpp"
#include "wormnet/engine/rank_model.hpp"

namespace wormnet {

// How a failed comparison prints the gauges (found by argument-dependent lookup).
void PrintTo(const FlitGauges& g, std::ostream* os) {
  *os << "{network " << g.flits_in_network << ", at sources " << g.flits_at_sources << " flits "
      << g.messages_at_sources << " messages}";
}

namespace {

using test::ScriptedNetwork;

Partition scattered(const Topology& topo, int parts, std::mt19937& rng) {
  std::vector<std::uint16_t> owner(topo.num_nodes());
  for (std::uint32_t n = 0; n < owner.size(); ++n) {
    owner[n] = static_cast<std::uint16_t>(
        n < static_cast<std::uint32_t>(parts) ? n : rng() % static_cast<std::uint32_t>(parts));
  }
  return Partition(std::move(owner), parts, "scattered");
}

/// Checks every part's gauges; returns the flits in the network summed over the parts.
std::uint64_t check(ScriptedNetwork& net, const std::string& where) {
  std::uint64_t in_network = 0;
  for (int p = 0; p < net.partition().parts(); ++p) {
    const RankStateView state = net.model(p).state();
    const FlitGauges counted = state.counted_gauges();
    EXPECT_EQ(state.gauges(), counted) << where << ", part " << p;
    in_network += counted.flits_in_network;
  }
  return in_network;
}

TEST(RankGauges, EqualTheRouterByRouterCountOnEveryRankAtEveryRead) {
  struct Net {
    const char* topo;
    const char* routing;
  };
  const Net nets[] = {{"mesh:6x5", "xy"},       {"torus:5x4", "dor-dateline"},
                      {"torus:4x4x3", "duato"}, {"honeycomb:3", "double-xy"},
                      {"mesh:20x20", "xy"},     {"honeycomb-torus:3", "double-xy-dateline"}};
  std::uint64_t busy_reads = 0;  // reads that found flits in the network (the test is not idle)
  // WORMNET_GAUGE_CASES=N: a longer soak (500 cases take a few seconds).
  const int cases =
      std::getenv("WORMNET_GAUGE_CASES") ? std::atoi(std::getenv("WORMNET_GAUGE_CASES")) : 30;
  for (int i = 0; i < cases; ++i) {
    std::mt19937 rng(20261206 + static_cast<std::uint32_t>(i));  // one stream per case
    const auto pick = [&rng](std::uint32_t k) { return static_cast<std::uint32_t>(rng() % k); };
    const Net& net_kind = nets[pick(std::size(nets))];
    const int link = 1 + static_cast<int>(pick(3));
    SimConfig c =
        test::small_router(1 + static_cast<int>(pick(4)), link, link + static_cast<int>(pick(2)), 0,
                           pick(2) != 0 ? VcBandwidth::kPerVc : VcBandwidth::kShared);
    c.traffic.length_min = 1;
    c.traffic.length_max = 1 + static_cast<int>(pick(12));
    const int parts = 1 + static_cast<int>(pick(4));
    const bool overlap = parts > 1 && pick(2) != 0;
    WalkLayout layout;
    if (pick(2) != 0) {  // small blocks, lagging layers
      layout.blocked_min = 0;
      layout.block_shift = 6;
      layout.skewed_min = 0;
      layout.skew = 1 + pick(6);
    }
    const double rate = pick(3) != 0 ? 0.01 * (1 + pick(8)) : 0.0;
    SCOPED_TRACE(std::string(net_kind.topo) + " " + net_kind.routing + ", " +
                 std::to_string(parts) + " parts" + (overlap ? " overlapped" : "") + ", rate " +
                 std::to_string(rate) + ", link " + std::to_string(link));
    ScriptedNetwork net(net_kind.topo, net_kind.routing, c, parts, overlap, layout, rate);
    const std::uint32_t n = net.topology().num_nodes();
    Cycle t = 0;
    for (int round = 0; round < 12; ++round) {
      for (std::uint32_t k = pick(3 * n); k > 0; --k) {
        const std::uint32_t s = pick(n);
        std::uint32_t d = pick(n);
        if (d == s) d = (s + 1) % n;
        net.send(s, d, 1 + static_cast<int>(pick(10)), t);
      }
      t += 1 + pick(40);
      net.run_until(t);
      const std::string where = "cycle " + std::to_string(t);
      if (check(net, where) > 0) ++busy_reads;
      // A statistics window moves the window's counts into the totals: nothing changes.
      if (pick(2) != 0) {
        for (int p = 0; p < net.partition().parts(); ++p) (void)net.model(p).take_window();
        check(net, where + " after a window");
      }
      if (pick(5) == 0) {
        const int next = 1 + static_cast<int>(pick(4));
        net.repartition(scattered(net.topology(), next, rng));
        check(net, where + " after a restart on " + std::to_string(next) + " parts");
      }
    }
  }
  EXPECT_GT(busy_reads, 100U);
}

}  // namespace
}  // namespace wormnet
