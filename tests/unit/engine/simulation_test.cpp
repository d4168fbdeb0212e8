// Whole-run checks of the simulator against invariants and closed forms: flit conservation
// in every window, Little's law, zero-load latency, determinism.
#include "wormnet/engine/simulation.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/topology_metrics.hpp"

namespace wormnet {
namespace {

class RecordingSink : public ResultSink {
 public:
  void window(const WindowRow& row) override { rows.push_back(row); }
  void end_point(const RunSummary& s, const MeasuredStats& m,
                 const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channels) override {
    summary = s;
    measured = m;
    channel_flits = channels;
  }
  std::vector<WindowRow> rows;
  RunSummary summary;
  MeasuredStats measured;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> channel_flits;
};

struct Net {
  std::unique_ptr<Topology> topo;
  std::unique_ptr<RoutingFunction> routing;
  Partition partition;
};

Net make_net(const std::string& topo, const std::string& routing) {
  Net n;
  n.topo = make_topology(topo);
  n.routing = make_routing(routing, *n.topo);
  n.partition = Partition::blocks(*n.topo, 1);
  return n;
}

RecordingSink simulate(const Net& net, const SimConfig& c, double rate) {
  const RunPlan plan = make_run_plan(c, *net.topo, *net.routing);
  const DestinationPattern pattern(*net.topo, c.traffic);
  Simulation sim(c, plan, *net.topo, *net.routing, pattern, net.partition, Communicator::self(),
                 {});
  RecordingSink sink;
  sim.run(rate, sink);
  return sink;
}

SimConfig base_config() {
  SimConfig c;
  c.network.buffer_depth = 8;
  c.traffic.length_min = 4;
  c.traffic.length_max = 12;
  c.measure.warmup = 1000;
  c.measure.measure = 10000;
  c.measure.stats_window = 500;
  return c;
}

TEST(Simulation, FlitsAreConservedInEveryWindow) {
  // created = delivered + in the network + waiting at sources, counted independently.
  for (const auto& [topo, routing, rate] : {std::tuple{"honeycomb:4", "double-xy", 0.15},
                                            std::tuple{"torus:4x4x4", "dor-dateline", 0.3},
                                            std::tuple{"mesh:8x8", "west-first", 0.5}}) {
    const Net net = make_net(topo, routing);
    const RecordingSink sink = simulate(net, base_config(), rate);
    ASSERT_FALSE(sink.rows.empty());
    std::uint64_t created = 0;
    std::uint64_t ejected = 0;
    std::uint64_t injected = 0;
    for (const WindowRow& r : sink.rows) {
      created += r.counters.created_flits;
      ejected += r.counters.ejected_flits;
      injected += r.counters.injected_flits;
      EXPECT_EQ(created, ejected + r.flits_in_network + r.flits_at_sources)
          << topo << " @" << r.cycle_end;
      EXPECT_EQ(injected, ejected + r.flits_in_network) << topo << " @" << r.cycle_end;
    }
  }
}

TEST(Simulation, LittlesLawHoldsOnTheMeasurementWindow) {
  // Mean packets in the system (time average over the window) = generation rate x mean
  // latency, within 5%, below saturation.
  for (const auto& [topo, routing, rate] : {std::tuple{"honeycomb:4", "double-xy", 0.06},
                                            std::tuple{"torus:4x4x4", "dor-dateline", 0.2}}) {
    const Net net = make_net(topo, routing);
    SimConfig c = base_config();
    c.measure.measure = 40000;
    const RecordingSink sink = simulate(net, c, rate);
    const double window = static_cast<double>(c.measure.measure);
    const double in_system = static_cast<double>(sink.measured.packet_cycles) / window;
    const double arrival_rate = static_cast<double>(sink.summary.measured_packets) / window;
    const double predicted = arrival_rate * sink.summary.latency.mean;
    EXPECT_NEAR(in_system / predicted, 1.0, 0.05) << topo;
    EXPECT_FALSE(sink.summary.saturated);
  }
}

TEST(Simulation, LowLoadLatencyMatchesTheAnalyticZeroLoadValue) {
  // At 0.2% load contention is negligible. For a minimal routing the mean hop count is the
  // topology's mean distance (computed independently from coordinates), so the expected
  // latency is (E[H] + 1)(rc + va + sa + st) + E[H] L + E[F] - 1, within 2%.
  for (const auto& [topo, routing] :
       {std::pair{"mesh:8x8", "xy"}, std::pair{"torus:6x6x6", "dor-dateline"},
        std::pair{"honeycomb:5", "double-xy"}}) {
    const Net net = make_net(topo, routing);
    SimConfig c = base_config();
    c.network.buffer_depth = 32;
    c.traffic.length_min = 8;
    c.traffic.length_max = 8;
    c.measure.measure = 60000;
    const RecordingSink sink = simulate(net, c, 0.002);
    const double h = compute_metrics(*net.topo).average_distance;
    const NetworkConfig& n = c.network;
    const double router =
        n.routing_delay + n.vc_alloc_delay + n.switch_alloc_delay + n.switch_delay;
    const double expected = (h + 1) * router + h * n.link_latency + 8 - 1;
    EXPECT_NEAR(sink.summary.network.mean / expected, 1.0, 0.02) << topo;
    EXPECT_NEAR(sink.summary.average_hops / h, 1.0, 0.02) << topo;
    EXPECT_GT(sink.summary.delivered_packets, 300U);
  }
}

TEST(Simulation, SameSeedIsBitIdenticalAndAnotherSeedDiffers) {
  const Net net = make_net("honeycomb:4", "double-xy");
  SimConfig c = base_config();
  const RecordingSink a = simulate(net, c, 0.12);
  const RecordingSink b = simulate(net, c, 0.12);
  c.measure.seed = 2;
  const RecordingSink d = simulate(net, c, 0.12);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].counters.to_array(), b.rows[i].counters.to_array());
    EXPECT_EQ(a.rows[i].flits_in_network, b.rows[i].flits_in_network);
  }
  EXPECT_EQ(a.measured.total.counts(), b.measured.total.counts());
  EXPECT_EQ(a.channel_flits, b.channel_flits);
  EXPECT_EQ(a.summary.latency.mean, b.summary.latency.mean);
  EXPECT_NE(a.measured.total.counts(), d.measured.total.counts());
  EXPECT_NE(a.summary.latency.mean, d.summary.latency.mean);
}

TEST(Simulation, StojmenovicDeadlocksAndDoubleXyDoesNotAtTheSameLoad) {
  SimConfig c = base_config();
  c.network.buffer_depth = 1;
  c.traffic.length_min = 10;
  c.traffic.length_max = 200;
  c.measure.drain_limit = 20000;
  c.measure.deadlock_threshold = 1000;
  const Net bad = make_net("honeycomb:4", "stojmenovic");
  const RecordingSink s = simulate(bad, c, 0.3);
  EXPECT_TRUE(s.summary.deadlock);
  ASSERT_GE(s.summary.deadlock_cycle_hops.size(), 2U);
  const Net good = make_net("honeycomb:4", "double-xy");
  const RecordingSink g = simulate(good, c, 0.3);
  EXPECT_FALSE(g.summary.deadlock);
  EXPECT_TRUE(g.summary.saturated);  // far past saturation, but still moving
}

// The honeycomb-torus routing that deadlocks (one VC, cyclic CDG) does deadlock at a load the
// Double XY dateline routing and Duato's routing carry (no deadlock, only saturation).
TEST(Simulation, HoneycombTorusStojmenovicDeadlocksAndTheProvenRoutingsDoNot) {
  SimConfig c = base_config();
  c.network.buffer_depth = 1;
  c.traffic.length_min = 10;
  c.traffic.length_max = 100;
  c.measure.warmup = 500;
  c.measure.measure = 3000;
  c.measure.drain_limit = 3000;
  c.measure.deadlock_threshold = 1000;
  EXPECT_TRUE(simulate(make_net("honeycomb-torus:3", "stojmenovic"), c, 0.5).summary.deadlock);
  for (const char* routing : {"double-xy-dateline", "duato"}) {
    const RecordingSink g = simulate(make_net("honeycomb-torus:3", routing), c, 0.5);
    EXPECT_FALSE(g.summary.deadlock) << routing;
    EXPECT_GT(g.summary.delivered_packets, 0U) << routing;
  }
}

// Least-occupied selection is a different choice from the routing's order (other results on
// the same traffic), and as deterministic (the same seed gives the same run).
TEST(Simulation, LeastOccupiedSelectionIsDeterministicAndChangesTheRun) {
  const Net net = make_net("torus:6x6", "duato");
  SimConfig c = base_config();
  const RecordingSink prio = simulate(net, c, 0.3);
  c.network.selection = SelectionPolicy::kLeastOccupied;
  const RecordingSink a = simulate(net, c, 0.3);
  const RecordingSink b = simulate(net, c, 0.3);
  EXPECT_EQ(a.measured.total.counts(), b.measured.total.counts());
  EXPECT_EQ(a.channel_flits, b.channel_flits);
  EXPECT_NE(a.channel_flits, prio.channel_flits);
  EXPECT_FALSE(a.summary.deadlock);
}

// A ring of torus:8x8 under dimension-order routing on one VC (no bubble, no dateline)
// deadlocks while the other rings still carry traffic: the run reports it within the
// threshold, with a cycle of waiting channels that lies in one column or one row (DOR's
// dependency cycles never leave a ring), although packets were delivered in the very window
// before (a watchdog waiting for the whole network to stop would have seen nothing).
TEST(Simulation, ALocalDeadlockIsReportedWhileOtherTrafficFlows) {
  SimConfig c = base_config();
  c.network.buffer_depth = 2;
  c.traffic.length_min = 16;
  c.traffic.length_max = 16;
  c.measure.warmup = 0;
  c.measure.measure = 20000;
  c.measure.deadlock_threshold = 200;
  c.measure.stats_window = 100;
  const Net net = make_net("torus:8x8", "dor");
  const RecordingSink s = simulate(net, c, 0.05);
  ASSERT_TRUE(s.summary.deadlock);
  EXPECT_LT(s.summary.deadlock_cycle, 20000U);
  ASSERT_FALSE(s.rows.empty());
  EXPECT_EQ(s.rows.back().cycle_end, s.summary.deadlock_cycle);
  EXPECT_GT(s.rows.back().counters.ejected_packets, 0U);
  EXPECT_GT(s.rows.back().counters.flit_hops, 0U);
  // Every waiting VC of the cycle is an input of a router of one row or one column:
  // "(x,y) DIR -> (x',y')" or "injection at (x,y)".
  std::set<std::string> xs;
  std::set<std::string> ys;
  for (const DeadlockHop& h : s.summary.deadlock_cycle_hops) {
    const std::string at = h.channel.substr(h.channel.rfind('('));
    xs.insert(at.substr(1, at.find(',') - 1));
    ys.insert(at.substr(at.find(',') + 1));
  }
  ASSERT_GE(s.summary.deadlock_cycle_hops.size(), 2U);
  EXPECT_TRUE(xs.size() == 1 || ys.size() == 1) << s.summary.deadlock_cycle_hops[0].channel;
}

// Found by the differential harness (tests/differential): at a low load the network may hold
// nothing but a freshly injected head after a quiet spell longer than the threshold; the old
// watchdog (flits in the network, none moved for the threshold) called that a deadlock, of no
// channel, on X-Y routing of a mesh, which cannot deadlock.
TEST(Simulation, NoDeadlockWhenAQuietNetworkGetsANewPacket) {
  SimConfig c = base_config();
  c.network.buffer_depth = 4;
  c.network.link_latency = 2;
  c.network.switch_alloc_delay = 0;
  c.traffic.length_min = 30;
  c.traffic.length_max = 30;
  c.measure.warmup = 374;
  c.measure.measure = 2397;
  c.measure.drain_limit = 189;
  c.measure.stats_window = 289;
  c.measure.deadlock_threshold = 136;
  c.measure.seed = 1550043769;
  const Net net = make_net("mesh:12", "xy");
  const RecordingSink s = simulate(net, c, 0.02245);
  EXPECT_FALSE(s.summary.deadlock) << "at cycle " << s.summary.deadlock_cycle;
  EXPECT_EQ(s.summary.delivered_packets, s.summary.measured_packets);
}

// A point far past saturation stops at the drain limit itself, not at the next periodic
// control check after it (a drain limit of 1,000 is not a multiple of the check period of 128
// cycles: with checks only every 128 cycles the point would run to cycle 12,032).
TEST(Simulation, SaturatedPointStopsExactlyAtTheDrainLimit) {
  SimConfig c = base_config();
  c.measure.drain_limit = 1000;
  const Net net = make_net("torus:4x4", "dor-dateline");
  const RecordingSink s = simulate(net, c, 0.9);
  EXPECT_TRUE(s.summary.saturated);
  EXPECT_FALSE(s.summary.deadlock);
  EXPECT_EQ(s.summary.cycles, c.measure.warmup + c.measure.measure + c.measure.drain_limit);
  ASSERT_FALSE(s.rows.empty());
  EXPECT_EQ(s.rows.back().cycle_end, s.summary.cycles);
}

}  // namespace
}  // namespace wormnet
