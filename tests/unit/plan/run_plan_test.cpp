// The run plan: each derived setting checked against the rule it states, on hand-picked
// configurations (the numbers below are worked out by hand from the option values).
#include "wormnet/plan/run_plan.hpp"

#include <gtest/gtest.h>

#include "wormnet/core/error.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

TEST(RunPlan, TheWindowIsMeasureCyclesAfterTheWarmupOrCyclesMinusWarmup) {
  auto topo = make_topology("mesh:4x4");
  auto routing = make_routing("xy", *topo);
  SimConfig c;
  c.measure.warmup = 300;
  c.measure.measure = 1000;
  c.measure.drain_limit = 50;
  RunPlan p = make_run_plan(c, *topo, *routing);
  EXPECT_EQ(p.window.begin, 300U);
  EXPECT_EQ(p.window.length, 1000U);
  EXPECT_EQ(p.window.end(), 1300U);
  EXPECT_EQ(p.window.drain_end(), 1350U);
  c.measure.cycles = 700;  // --cycles wins over --measure: the window is 700 - 300
  p = make_run_plan(c, *topo, *routing);
  EXPECT_EQ(p.window.length, 400U);
  EXPECT_EQ(p.window.end(), 700U);
  EXPECT_EQ(p.window.drain_end(), 750U);
}

TEST(RunPlan, AClosedLoopRunLabelsFromCycleZeroUntilTheDrainLimitWithNoDrainAfter) {
  auto topo = make_topology("torus:4x4");
  auto routing = make_routing("dor-dateline", *topo);
  SimConfig c;
  c.measure.warmup = 300;
  c.measure.measure = 1000;
  c.measure.drain_limit = 5000;
  c.network.credit_latency = 3;  // lookahead min(1 + 1 + 1, 3) = 3
  c.network.vcs = 4;
  const RunPlan open = make_run_plan(c, *topo, *routing);
  const RunPlan closed = open.closed_loop();
  EXPECT_EQ(closed.window.begin, 0U);
  EXPECT_EQ(closed.window.length, 5000U);
  EXPECT_EQ(closed.window.end(), 5000U);
  EXPECT_EQ(closed.window.drain_end(), 5000U);  // the drain limit is the whole run
  // Everything but the window stays the open-loop plan's.
  EXPECT_EQ(closed.vcs, 4);
  EXPECT_EQ(closed.lookahead, 3U);
  EXPECT_EQ(closed.bubble, open.bubble);
  EXPECT_EQ(closed.routing.name, "dor-dateline");
  EXPECT_EQ(open.window.end(), 1300U);  // the plan it came from is unchanged
}

TEST(RunPlan, LookaheadIsTheShorterOfAFlitsAndACreditsDelay) {
  auto topo = make_topology("torus:4x4");
  auto routing = make_routing("dor-dateline", *topo);
  SimConfig c;
  c.network.switch_alloc_delay = 1;
  c.network.switch_delay = 2;
  c.network.link_latency = 3;  // a flit: 1 + 2 + 3 = 6 cycles
  c.network.credit_latency = 9;
  EXPECT_EQ(make_run_plan(c, *topo, *routing).lookahead, 6U);
  c.network.credit_latency = 4;
  EXPECT_EQ(make_run_plan(c, *topo, *routing).lookahead, 4U);
  c.network.switch_alloc_delay = 0;
  c.network.switch_delay = 0;
  c.network.link_latency = 1;
  EXPECT_EQ(make_run_plan(c, *topo, *routing).lookahead, 1U);
}

TEST(RunPlan, VcsAreTheOptionsOrWhatTheRoutingNeeds) {
  auto topo = make_topology("torus:4x4");
  auto routing = make_routing("dor-dateline", *topo);  // needs 2
  SimConfig c;
  EXPECT_EQ(make_run_plan(c, *topo, *routing).vcs, 2);
  c.network.vcs = 4;
  const RunPlan p = make_run_plan(c, *topo, *routing);
  EXPECT_EQ(p.vcs, 4);
  EXPECT_EQ(p.routing.vc_classes, 2);
  c.network.vcs = 1;
  EXPECT_THROW(make_run_plan(c, *topo, *routing), InputError);
}

TEST(RunPlan, BubbleIsOnWhenTheRoutingReliesOnItOrTheOptionAsksForIt) {
  auto topo = make_topology("torus:4x4");
  SimConfig c;
  c.network.buffer_depth = 2 * c.traffic.length_max;
  auto dateline = make_routing("dor-dateline", *topo);
  EXPECT_FALSE(make_run_plan(c, *topo, *dateline).bubble);
  auto angara = make_routing("angara", *topo);  // relies on it by itself
  EXPECT_TRUE(make_run_plan(c, *topo, *angara).bubble);
  EXPECT_TRUE(make_run_plan(c, *topo, *angara).routing.needs_bubble);
  c.network.flow_control = FlowControl::kBubble;  // asked for, on a routing without the need
  const RunPlan p = make_run_plan(c, *topo, *dateline);
  EXPECT_TRUE(p.bubble);
  EXPECT_FALSE(p.routing.needs_bubble);
  c.network.buffer_depth = 2 * c.traffic.length_max - 1;  // two whole packets do not fit
  EXPECT_THROW(make_run_plan(c, *topo, *dateline), InputError);
}

TEST(RunPlan, BubbleBuffersHoldTwoOfTheLongestPacketsGiven) {
  // A workload's messages (not --length-max, which it refuses) are the packets: with a
  // longest of 32 flits, bubble flow control needs buffers of 2 x 32 = 64, whatever the
  // traffic options say; the reserve the routers keep is those 32 flits.
  auto topo = make_topology("torus:4x4");
  auto angara = make_routing("angara", *topo);
  SimConfig c;  // --length-max 20: its rule would ask for 40
  const MessageLengths workload{4, 32, "--message-size"};
  c.network.buffer_depth = 64;
  const RunPlan p = make_run_plan(c, *topo, *angara, workload);
  EXPECT_TRUE(p.bubble);
  EXPECT_EQ(p.lengths.shortest, 4);
  EXPECT_EQ(p.lengths.longest, 32);
  EXPECT_EQ(p.closed_loop().lengths.longest, 32);
  c.network.buffer_depth = 63;
  try {
    static_cast<void>(make_run_plan(c, *topo, *angara, workload));
    ADD_FAILURE() << "a buffer of 63 flits was accepted for 32-flit packets";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--buffer");
    EXPECT_EQ(e.value(), "63");
    EXPECT_NE(e.allowed().find(">= 64 flits"), std::string::npos) << e.allowed();
    EXPECT_NE(e.allowed().find("--message-size: 32 flits"), std::string::npos) << e.allowed();
  }
  // Short messages need short buffers: 2 x 4 = 8, below the 40 of --length-max.
  c.network.buffer_depth = 8;
  EXPECT_EQ(
      make_run_plan(c, *topo, *angara, MessageLengths{4, 4, "--message-size"}).lengths.longest, 4);
  EXPECT_THROW(make_run_plan(c, *topo, *angara), InputError);  // the traffic's: 2 x 20
  // Without bubble flow control the lengths set no rule.
  auto dateline = make_routing("dor-dateline", *topo);
  c.network.buffer_depth = 1;
  EXPECT_EQ(make_run_plan(c, *topo, *dateline, workload).lengths.longest, 32);
}

TEST(RunPlan, TheOpenLoopPacketsAreTheTrafficsLengths) {
  auto topo = make_topology("mesh:4x4");
  auto routing = make_routing("xy", *topo);
  SimConfig c;
  c.traffic.length_min = 3;
  c.traffic.length_max = 11;
  const RunPlan p = make_run_plan(c, *topo, *routing);
  EXPECT_EQ(p.lengths.shortest, 3);
  EXPECT_EQ(p.lengths.longest, 11);
  EXPECT_EQ(p.lengths.longest_from, "--length-max");
}

TEST(RunPlan, CarriesThePartitionMethodAndTheRoutingsTraits) {
  auto topo = make_topology("honeycomb:3");
  auto routing = make_routing("duato", *topo);  // Double XY's 2 escape classes + 1 adaptive
  SimConfig c;
  c.network.partition = PartitionMethod::kBlocks;
  const RunPlan p = make_run_plan(c, *topo, *routing);
  EXPECT_EQ(p.partition, PartitionMethod::kBlocks);
  EXPECT_EQ(p.routing.name, "duato");
  EXPECT_EQ(p.routing.vc_classes, 3);
  EXPECT_EQ(p.routing.escape_classes, 0b011);
  EXPECT_TRUE(p.routing.minimal);
}

}  // namespace
}  // namespace wormnet
