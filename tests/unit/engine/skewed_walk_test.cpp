// The skewed walk of large ranks (rank_model.hpp): blocks grouped into layers by their
// distance from the rank's boundary, the deeper layers lagging behind layer 0 and catching up
// in waves. Small blocks (64 routers) bring it to small networks. Checked against the level
// walk of one block: every delivery, the packet-cycles of Little's law and the flits left in
// the network, on random configurations, rank counts and restarts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "../../support/scripted_network.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/engine/rank_model.hpp"

namespace wormnet {
namespace {

using test::Delivery;
using test::ScriptedNetwork;

/// Blocks of 2^shift routers (64 by default) on any rank, lagging layers on any rank,
/// catch-ups every `skew`.
WalkLayout small_blocks(Cycle skew, int shift = 6) {
  WalkLayout w;
  w.blocked_min = 0;
  w.block_shift = shift;
  w.skewed_min = 0;
  w.skew = skew;
  return w;
}

/// test::small_router, measured over [40, 340).
SimConfig router(int buffer, int link, int credit, int vcs, VcBandwidth bandwidth) {
  SimConfig c = test::small_router(buffer, link, credit, vcs, bandwidth);
  c.measure.warmup = 40;
  c.measure.measure = 300;
  return c;
}

// Layers by hand on torus:8x8x16 with blocks of 64 routers (one 8x8 plane each): on one rank
// the planes form a ring of 16 and the layers are the distances from plane 0 along it (0 to
// 8); on two ranks of 8 planes each, plane 0 and plane 7 of a rank link to the other rank,
// so layer k is planes k and 7 - k (4 layers). Without lag (the default layout on a rank
// this small) there is one layer.
TEST(SkewedWalk, LayersAreTheDistancesFromTheRankBoundary) {
  const SimConfig c = router(2, 1, 1, 0, {});
  EXPECT_EQ(ScriptedNetwork("torus:8x8x16", "dor-dateline", c, 1, false, small_blocks(4))
                .model(0)
                .layers(),
            9U);
  ScriptedNetwork two("torus:8x8x16", "dor-dateline", c, 2, false, small_blocks(4));
  EXPECT_EQ(two.model(0).layers(), 4U);
  EXPECT_EQ(two.model(1).layers(), 4U);
  EXPECT_EQ(ScriptedNetwork("torus:8x8x16", "dor-dateline", c, 2).model(0).layers(), 1U);
}

// The layers do lag: with the state read only at cycle 1000, a rank of 9 layers is not level
// after some cycles, and a reader of the state refuses it then; at the level point it is
// level again and the readers answer. (Forcing a catch-up at every cycle passes every
// comparison below: this is what shows the lag is there at all.)
TEST(SkewedWalk, LayersLagBetweenTheLevelPoints) {
  ScriptedNetwork net("torus:8x8x16", "dor-dateline", router(2, 1, 1, 0, {}), 1, false,
                      small_blocks(4));
  for (std::uint32_t s = 0; s < 1024; s += 7) net.send(s, (s * 37 + 11) % 1024, 5);
  RankModel& m = net.model(0);
  m.set_level_at(1000);
  int lagging = 0;
  for (Cycle t = 0; t < 1000; ++t) {
    m.step(t);
    if (!m.level()) {
      ++lagging;
      EXPECT_THROW((void)m.take_window(), InvariantError);
      EXPECT_THROW((void)m.state().flits_in_network(), InvariantError);
    }
  }
  EXPECT_GT(lagging, 500);
  EXPECT_TRUE(m.level());
  EXPECT_NO_THROW((void)m.take_window());
}

struct Outcome {
  std::vector<Delivery> deliveries;
  std::vector<Cycle> undelivered;  // creation cycles of the packets and messages left at the end
  std::vector<std::uint64_t> packet_cycles;  // at each stop
  std::vector<std::uint64_t> in_network;     // at each stop
  /// At each stop, the flits each channel carried in the measurement window (by channel id,
  /// summed over the ranks).
  std::vector<std::vector<std::uint64_t>> channel_flits;
};

/// Random scripted messages (a 64-bit LCG's high bits) or the sources' own at `rate`,
/// stopped at `stops` (the layers must be level there), with the partition changed at the
/// second stop when `restart_parts` > 0.
Outcome run(const std::string& topo, const std::string& routing, const SimConfig& c, int parts,
            bool overlap, const WalkLayout& layout, std::uint64_t seed, int restart_parts,
            double rate) {
  ScriptedNetwork net(topo, routing, c, parts, overlap, layout, rate);
  const std::uint32_t n = net.topology().num_nodes();
  std::uint64_t x = seed;
  const auto next = [&x] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(x >> 33);
  };
  // Scripted messages only without the sources' own: both number a source's messages from
  // 0, and a packet's id is its source's and number's (a restart matches packets by id).
  for (std::uint32_t i = 0; rate == 0.0 && i < 3 * n; ++i) {
    const std::uint32_t s = next() % n;
    std::uint32_t d = next() % n;
    if (d == s) d = (s + 1) % n;
    net.send(s, d, 1 + static_cast<int>(next() % 7), static_cast<Cycle>(next() % 200));
  }
  Outcome out;
  int stop = 0;
  for (Cycle end : {Cycle{37}, Cycle{150}, Cycle{151}, Cycle{260}, Cycle{1500}}) {
    net.run_until(end);
    out.packet_cycles.push_back(net.packet_cycles());
    out.in_network.push_back(net.in_network());
    std::vector<std::uint64_t> flits(net.topology().num_channels(), 0);
    for (int p = 0; p < net.partition().parts(); ++p) {
      for (const auto& [channel, carried] : net.model(p).state().channel_flits())
        flits[channel] += carried;
    }
    out.channel_flits.push_back(std::move(flits));
    if (++stop == 2 && restart_parts > 0) {
      net.repartition(Partition::blocks(net.topology(), restart_parts));
    }
  }
  out.deliveries = net.deliveries();
  std::set<std::uint64_t> seen;  // a packet is listed by every router that holds its flits
  for (int p = 0; p < net.partition().parts(); ++p) {
    const ModelSnapshot snap = net.model(p).state().snapshot();
    for (const Packet& k : snap.packets) {
      if (seen.insert(k.id).second) out.undelivered.push_back(k.created);
    }
    for (const TrafficSources::Rows::QueuedMessage& m : snap.sources.messages)
      out.undelivered.push_back(m.created);
  }
  return out;
}

/// Packet-cycles of the measurement window [40, 340) by hand: a packet counts at every cycle
/// from its creation (a scripted one: from the start, when it was put in its queue) to the
/// cycle its tail is ejected, `eject_delay` cycles before its delivery, or to the window's
/// end if it is still on its way.
std::uint64_t packet_cycles_by_hand(const Outcome& run, bool scripted, Cycle eject_delay) {
  std::uint64_t sum = 0;
  const auto add = [&sum](Cycle from, Cycle to) {
    from = std::max<Cycle>(from, 40);
    to = std::min<Cycle>(to, 339);
    if (from <= to) sum += to - from + 1;
  };
  for (const Delivery& d : run.deliveries) add(scripted ? 0 : d.created, d.done - eject_delay);
  for (Cycle created : run.undelivered) add(scripted ? 0 : created, 339);
  return sum;
}

// Every delivery cycle, every packet-cycle count, every flit count and every channel's flits
// at the stops are the level walk's, whatever the catch-up period, the rank count (1-3, with and
// without the overlapped exchange), the latencies, the routing delay (0-3, a head's route
// wakes its router on a blocked rank), the bandwidth mode, the sources' own traffic
// (generated block by block as each layer reaches a cycle), the block size (64-256 routers), and
// across a restart onto another rank count: 24 random configurations.
TEST(SkewedWalk, DeliversExactlyAsTheLevelWalk) {
  struct Net {
    const char* topo;
    const char* routing;
  };
  const Net nets[] = {{"torus:8x8x16", "dor-dateline"},
                      {"torus:8x8x12", "duato"},
                      {"mesh:24x24", "xy"},
                      {"honeycomb:8", "double-xy"}};
  std::uint64_t x = 20261202;
  const auto pick = [&x](std::uint32_t k) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(x >> 33) % k;
  };
  for (int i = 0; i < 24; ++i) {
    const Net& net = nets[pick(4)];
    const int link = 1 + static_cast<int>(pick(2));
    SimConfig c = router(1 + static_cast<int>(pick(4)), link, link + static_cast<int>(pick(3)), 0,
                         pick(2) != 0 ? VcBandwidth::kPerVc : VcBandwidth::kShared);
    // Routing delays 0 to 3 in turn: a blocked rank wakes a router for a head's route when
    // the delay is over (none with 0), a rank of one block at the head's arrival.
    c.network.routing_delay = i % 4;
    const int parts = 1 + static_cast<int>(pick(3));
    const bool overlap = parts > 1 && pick(2) != 0;
    const Cycle skew = 1 + pick(8);
    const int restart = pick(3) == 0 ? 1 + static_cast<int>(pick(3)) : 0;
    const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(i);
    const double rate = pick(2) != 0 ? 0.02 * (1 + pick(3)) : 0.0;
    // Blocks of one to four words (the walk's hints look up to two words ahead in a block).
    const int shift = 6 + static_cast<int>(pick(3));
    SCOPED_TRACE(std::string(net.topo) + " " + net.routing + ", link " + std::to_string(link) +
                 ", credit " + std::to_string(c.network.credit_latency) + ", buffer " +
                 std::to_string(c.network.buffer_depth) + ", " + std::to_string(parts) + " parts" +
                 (overlap ? " overlapped" : "") + ", skew " + std::to_string(skew) +
                 ", restart on " + std::to_string(restart) + ", rate " + std::to_string(rate) +
                 ", routing delay " + std::to_string(c.network.routing_delay) + ", blocks of " +
                 std::to_string(1 << shift));
    const Outcome level = run(net.topo, net.routing, c, 1, false, WalkLayout{}, seed, 0, rate);
    const Outcome skewed = run(net.topo, net.routing, c, parts, overlap, small_blocks(skew, shift),
                               seed, restart, rate);
    ASSERT_FALSE(level.deliveries.empty());
    EXPECT_EQ(skewed.deliveries, level.deliveries);
    EXPECT_EQ(skewed.in_network, level.in_network);
    EXPECT_EQ(skewed.channel_flits, level.channel_flits);
    // Flits are counted: the window saw traffic.
    EXPECT_GT(std::accumulate(level.channel_flits.back().begin(), level.channel_flits.back().end(),
                              std::uint64_t{0}),
              0U);
    // The test's restart carries the router state, not the measured statistics (a run's
    // checkpoint keeps those apart): packet-cycles are compared up to the restart.
    const std::size_t kept = restart > 0 ? 2 : level.packet_cycles.size();
    for (std::size_t k = 0; k < kept; ++k) {
      EXPECT_EQ(skewed.packet_cycles[k], level.packet_cycles[k]) << "stop " << k;
    }
    // And against Little's law summed by hand.
    const Cycle eject_delay = static_cast<Cycle>(
        c.network.switch_alloc_delay + c.network.switch_delay + c.network.ejection_latency);
    EXPECT_EQ(level.packet_cycles.back(), packet_cycles_by_hand(level, rate == 0.0, eject_delay));
  }
}

}  // namespace
}  // namespace wormnet
