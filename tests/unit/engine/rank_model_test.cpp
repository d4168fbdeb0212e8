// Cycle-level checks of the router model against hand-worked timings and closed forms.
#include "wormnet/engine/rank_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>

#include "../../support/scripted_network.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

using test::Delivery;
using test::ScriptedNetwork;

using test::ideal_router;

// Hand-worked on a 2x2 mesh with XY routing, 1 VC, 4-flit buffers, every router stage 0
// cycles, links and credits 1 cycle. Nodes: 0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1).
//   B: node 1 -> node 3 (Y+), 4 flits, created at 0: flits leave node 1 at cycles 0..3 and
//      are ejected at node 3 at cycles 1..4: latency 4.
//   A: node 0 -> node 3 (X+ then Y+), 4 flits, created at 0: its head reaches node 1 at
//      cycle 1 and finds node 1's Y+ VC owned by B until B's tail leaves at cycle 3 (VC
//      allocation runs before switch allocation, so A is granted at cycle 4); by then the
//      credits for B's first three flits are back (ejected at 1, 2, 3, credits arrive at 2,
//      3, 4), so A's flits leave node 1 at 4..7 and are ejected at 5..8: latency 8.
TEST(RankModel, TwoPacketsContendOnA2x2MeshCycleByCycle) {
  ScriptedNetwork net("mesh:2x2", "xy", ideal_router(4));
  net.send(1, 3, 4);
  net.send(0, 3, 4);
  net.run_until(50);
  ASSERT_EQ(net.deliveries().size(), 2U);
  EXPECT_EQ(net.find(1).done, 4U);
  EXPECT_EQ(net.find(1).hops, 1);
  EXPECT_EQ(net.find(0).done, 8U);
  EXPECT_EQ(net.find(0).hops, 2);
  EXPECT_EQ(net.in_network(), 0U);
}

// With a 1-flit buffer the same B is throttled by the credit round trip: a flit leaves at t,
// frees the downstream slot when it is ejected at t+1, and the credit is back at t+2, so B's
// flits leave node 1 at 0, 2, 4, 6 and its tail is ejected at 7.
TEST(RankModel, OneFlitBufferThrottlesToTheCreditRoundTrip) {
  ScriptedNetwork net("mesh:2x2", "xy", ideal_router(1));
  net.send(1, 3, 4);
  net.run_until(50);
  ASSERT_EQ(net.deliveries().size(), 1U);
  EXPECT_EQ(net.find(1).done, 7U);
}

// Two packets share one link on different VCs: mesh:3 (nodes 0, 1, 2 in a row), XY with 2
// VCs, 4-flit buffers, ideal router. B: node 1 -> node 2 and A: node 0 -> node 2, 4 flits
// each, created at cycle 0.
//   Shared bandwidth: link 1->2 carries all 8 flits, one per cycle; it is busy from cycle 0
//   (B's head) on without a gap, since from cycle 1 one of the two always has a flit ready
//   (credits never run out: 4-flit buffers, 2-cycle round trip). The last flit crosses at 7
//   and is ejected at 8.
//   Per-VC bandwidth: each VC moves a flit per cycle, so each packet goes as if alone: B's
//   flits cross at 0..3 (tail ejected at 4, = 1 hop + 4 - 1); A's head reaches node 1 at 1,
//   takes the other VC, and its flits cross at 1..4 (ejected at 5, = 2 hops + 4 - 1).
TEST(RankModel, VcBandwidthSharedOrPerVcOnOneLink) {
  SimConfig c = ideal_router(4);
  c.network.vcs = 2;
  {
    ScriptedNetwork net("mesh:3", "xy", c);
    net.send(1, 2, 4);
    net.send(0, 2, 4);
    net.run_until(50);
    ASSERT_EQ(net.deliveries().size(), 2U);
    EXPECT_EQ(std::max(net.find(0).done, net.find(1).done), 8U);
  }
  c.network.vc_bandwidth = VcBandwidth::kPerVc;
  {
    ScriptedNetwork net("mesh:3", "xy", c);
    net.send(1, 2, 4);
    net.send(0, 2, 4);
    net.run_until(50);
    ASSERT_EQ(net.deliveries().size(), 2U);
    EXPECT_EQ(net.find(1).done, 4U);
    EXPECT_EQ(net.find(0).done, 5U);
    EXPECT_EQ(net.in_network(), 0U);
  }
}

// With one VC per channel the switch never has a conflict to resolve (an output port has one
// VC, owned by one input VC), so per-VC bandwidth must change no delivery: contending packets
// on a 4x4 mesh with West-first and 1-flit buffers, compared packet by packet.
TEST(RankModel, PerVcBandwidthChangesNothingWithOneVc) {
  std::vector<Delivery> runs[2];
  for (int k = 0; k < 2; ++k) {
    SimConfig c = ideal_router(1);
    c.network.vc_bandwidth = k == 0 ? VcBandwidth::kShared : VcBandwidth::kPerVc;
    ScriptedNetwork net("mesh:4x4", "west-first", c);
    const std::uint32_t pairs[][2] = {{0, 15}, {3, 12}, {5, 15}, {12, 3}, {1, 14}, {15, 0},
                                      {4, 7},  {8, 11}, {2, 13}, {6, 9},  {10, 5}, {13, 2}};
    for (std::size_t i = 0; i < std::size(pairs); ++i) {
      net.send(pairs[i][0], pairs[i][1], 6 + 3 * static_cast<int>(i % 4), static_cast<Cycle>(i));
    }
    net.run_until(2000);
    runs[k] = net.deliveries();
    ASSERT_EQ(runs[k].size(), std::size(pairs));
  }
  EXPECT_EQ(runs[0], runs[1]);
}

// Zero-load latency of one packet of F flits over H hops, buffers deep enough not to
// throttle: every router on the path (H + 1 of them) costs routing + VC allocation + switch
// allocation + switch cycles, every link L, and the body follows the head one flit per
// cycle: T = (H + 1)(rc + va + sa + st) + H L + F - 1.
struct PipelineCase {
  const char* topology;
  const char* routing;
  int rc, va, sa, st, link;
  int length;
};

class ZeroLoad : public ::testing::TestWithParam<PipelineCase> {};

TEST_P(ZeroLoad, SinglePacketLatencyMatchesTheFormula) {
  const PipelineCase& k = GetParam();
  SimConfig c = ideal_router(64);
  c.network.routing_delay = k.rc;
  c.network.vc_alloc_delay = k.va;
  c.network.switch_alloc_delay = k.sa;
  c.network.switch_delay = k.st;
  c.network.link_latency = k.link;
  ScriptedNetwork probe(k.topology, k.routing, c);
  const std::uint32_t n = probe.topology().num_nodes();
  // A few source/destination pairs at different distances, one packet at a time.
  for (std::uint32_t s : {0U, n / 3, n - 1}) {
    for (std::uint32_t d : {n - 1, n / 2, 1U}) {
      if (s == d) continue;
      ScriptedNetwork net(k.topology, k.routing, c);
      net.send(s, d, k.length);
      net.run_until(5000);
      ASSERT_EQ(net.deliveries().size(), 1U);
      const Delivery got = net.deliveries()[0];  // a copy: deliveries() returns by value
      const int h = got.hops;
      EXPECT_EQ(h, net.topology().distance(NodeId(s), NodeId(d)));
      const Cycle expect =
          static_cast<Cycle>((h + 1) * (k.rc + k.va + k.sa + k.st) + h * k.link + k.length - 1);
      EXPECT_EQ(got.done - got.created, expect) << s << " -> " << d;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Pipelines, ZeroLoad,
    ::testing::Values(PipelineCase{"mesh:4x4", "xy", 0, 0, 0, 0, 1, 1},
                      PipelineCase{"mesh:4x4", "west-first", 1, 1, 1, 1, 1, 8},
                      PipelineCase{"torus:5x4", "dor-dateline", 1, 0, 1, 0, 3, 5},
                      PipelineCase{"torus:4x4x2", "dor-dateline", 0, 2, 0, 1, 2, 20},
                      PipelineCase{"honeycomb:3", "double-xy", 1, 1, 1, 1, 1, 10},
                      PipelineCase{"honeycomb:3", "stojmenovic", 0, 0, 0, 0, 1, 3},
                      PipelineCase{"honeycomb-torus:3", "double-xy-dateline", 1, 1, 0, 1, 2, 7},
                      PipelineCase{"honeycomb-rhombic:4x6", "stojmenovic", 0, 1, 0, 0, 1, 4},
                      PipelineCase{"torus:5x4", "duato", 1, 1, 1, 0, 1, 6},
                      PipelineCase{"honeycomb-torus:3", "duato", 0, 0, 1, 1, 1, 9}));

// The walk has a copy for each layout of the routers' stage masks (MaskWidth): 16 bits where
// (ports + 1) x VCs <= 16, else 64. On a 3-D torus 2 VCs give 7 x 2 = 14 input VCs a router
// (narrow), 3 give 21 and 4 give 28 (wide): the zero-load formula above holds for each, with
// the VC allocation and routing delays that set and read every mask, and a burst of
// contending packets is delivered in full.
TEST(RankModel, EveryLayoutOfTheStageMasksDeliversAsTheFormula) {
  for (const int vcs : {2, 3, 4}) {
    SimConfig c = ideal_router(8);
    c.network.vcs = vcs;
    c.network.routing_delay = 1;
    c.network.vc_alloc_delay = 2;
    c.network.link_latency = 2;
    const std::uint32_t n = 32;  // torus:4x4x2
    for (const auto& [s, d] : {std::pair{0U, 31U}, std::pair{5U, 22U}, std::pair{31U, 1U}}) {
      ScriptedNetwork net("torus:4x4x2", "dor-dateline", c);
      net.send(s, d, 7);
      net.run_until(500);
      ASSERT_EQ(net.deliveries().size(), 1U) << vcs;
      const Delivery got = net.deliveries()[0];
      EXPECT_EQ(got.hops, net.topology().distance(NodeId(s), NodeId(d)));
      EXPECT_EQ(got.done - got.created, static_cast<Cycle>((got.hops + 1) * 3 + got.hops * 2 + 6))
          << vcs << ": " << s << " -> " << d;
    }
    ScriptedNetwork net("torus:4x4x2", "dor-dateline", c);
    for (std::uint32_t k = 0; k < 4 * n; ++k) {
      net.send(k % n, (k * 7 + 3) % n == k % n ? (k + 1) % n : (k * 7 + 3) % n,
               1 + static_cast<int>(k % 9), static_cast<Cycle>(k / n));
    }
    net.run_until(3000);
    EXPECT_EQ(net.deliveries().size(), 4U * n) << vcs;
  }
}

// Splitting the routers over several models (ranks) must not change a single delivery.
// Link latency 1: flits and credits that cross reach the peer in the next window's first
// cycle (lookahead 1); latency 2: only credits do.
class PartitionedModels : public ::testing::TestWithParam<int> {};

TEST_P(PartitionedModels, DeliverExactlyAsOne) {
  SimConfig c = ideal_router(2);
  c.network.link_latency = GetParam();
  for (auto [spec, routing] :
       {std::pair{"honeycomb:3", "double-xy"}, std::pair{"torus:4x4", "dor-dateline"},
        std::pair{"honeycomb-torus:2", "double-xy-dateline"}, std::pair{"torus:4x4", "duato"}}) {
    std::vector<std::vector<Delivery>> results;
    // {parts, overlap}: the overlapped exchange hands over what arrives in the very cycle it
    // arrives, the other way one cycle ahead.
    for (auto [parts, overlap] : {std::pair{1, false}, std::pair{2, false}, std::pair{3, false},
                                  std::pair{5, false}, std::pair{2, true}, std::pair{5, true}}) {
      ScriptedNetwork net(spec, routing, c, parts, overlap);
      const std::uint32_t n = net.topology().num_nodes();
      // Three packets per node to scattered destinations, staggered: plenty of contention.
      for (std::uint32_t k = 0; k < 3; ++k) {
        for (std::uint32_t s = 0; s < n; ++s) {
          std::uint32_t d = (s * (7 + 2 * k) + 3 + k) % n;
          if (d == s) d = (s + 1) % n;
          net.send(s, d, 3 + static_cast<int>((s + k) % 5), k * 5 + s % 4);
        }
      }
      net.run_until(3000);
      results.push_back(net.deliveries());
      EXPECT_EQ(results.back().size(), 3 * n) << spec << " parts " << parts << " " << overlap;
    }
    for (std::size_t i = 1; i < results.size(); ++i) EXPECT_EQ(results[i], results[0]) << spec;
  }
}

INSTANTIATE_TEST_SUITE_P(RankModel, PartitionedModels, ::testing::Values(1, 2));

// A rank of 16,384 routers or more keeps its arrivals in buckets by block of 1,024 routers
// and applies each block's flits and credits in the walk, just before it steps the block's
// routers. On torus:128x256 (32 blocks; 16 on each of two ranks)
// with 1-flit buffers and every stage 0 cycles, a packet's head needs H cycles (one per link)
// and each further flit 2 (the credit round trip: the flit's link, then the credit's):
// T = H + 2 (F - 1) for packets whose hops run from high router indices to low ones and back,
// on one rank and on two (interior and boundary passes). A deposit or credit applied a cycle
// late adds cycles.
TEST(RankModel, ArrivalsInTheWalkKeepTheCreditRoundTrip) {
  for (auto [parts, overlap] : {std::pair{1, false}, std::pair{2, true}}) {
    for (auto [s, d] : {std::pair{32767U, 0U}, std::pair{0U, 32767U}, std::pair{16500U, 33U},
                        std::pair{70U, 20000U}}) {
      ScriptedNetwork net("torus:128x256", "dor-dateline", ideal_router(1), parts, overlap);
      const int length = 6;
      net.send(s, d, length);
      net.run_until(2000);
      ASSERT_EQ(net.deliveries().size(), 1U);
      const Delivery got = net.deliveries()[0];
      const int h = got.hops;
      EXPECT_EQ(h, net.topology().distance(NodeId(s), NodeId(d)));
      EXPECT_EQ(got.done - got.created, static_cast<Cycle>(h + 2 * (length - 1)))
          << s << " -> " << d << ", " << parts << " ranks";
    }
  }
}

// The arrival wheel keeps one bucket per block of routers on ranks of 16,384 routers or more
// (applied as the walk reaches each block) and one bucket on smaller ranks (applied before the
// walk). Both give the same deliveries, cycle for cycle, under congestion: torus:128x256
// (32,768 routers) on 1 rank and on 2 (blocks), with and without the overlapped exchange, and
// on 3 ranks (about 10,900 routers each: one bucket); 2-flit buffers, link latency 2, credit
// latency 3, 4,000 messages of 1-8 flits, a quarter of them to 64 hot nodes.
TEST(RankModel, ArrivalsByBlockAndAllAtOnceDeliverTheSame) {
  std::vector<std::vector<Delivery>> runs;
  for (auto [parts, overlap] :
       {std::pair{1, false}, std::pair{2, false}, std::pair{2, true}, std::pair{3, true}}) {
    SimConfig c = ideal_router(2);
    c.network.link_latency = 2;
    c.network.credit_latency = 3;
    ScriptedNetwork net("torus:128x256", "dor-dateline", c, parts, overlap);
    const std::uint32_t n = net.topology().num_nodes();
    std::uint64_t x = 12345;
    const auto next = [&x] {  // a 64-bit LCG, high bits
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<std::uint32_t>(x >> 33);
    };
    for (int i = 0; i < 4000; ++i) {
      const std::uint32_t s = next() % n;
      const std::uint32_t d = i % 4 == 0 ? 16000 + next() % 64 : next() % n;
      net.send(s, d, 1 + static_cast<int>(next() % 8), static_cast<Cycle>(i / 40));
    }
    net.run_until(4000);
    std::vector<Delivery> got = net.deliveries();
    std::sort(got.begin(), got.end());
    runs.push_back(std::move(got));
  }
  ASSERT_EQ(runs[0].size(), 4000U);
  for (std::size_t k = 1; k < runs.size(); ++k) EXPECT_TRUE(runs[k] == runs[0]) << "run " << k;
}

// Terminal channels are pure delays: the closed form above plus the injection and ejection
// latencies, for packets over the network and for a packet to its own source (0 hops: one
// pass through its router, injection port to ejection port).
TEST(RankModel, TerminalLatenciesAddToTheZeroLoadFormula) {
  for (auto [inj, ej] : {std::pair{2, 1}, std::pair{0, 3}, std::pair{5, 0}}) {
    SimConfig c = ideal_router(64);
    c.network.routing_delay = 1;
    c.network.vc_alloc_delay = 1;
    c.network.switch_alloc_delay = 1;
    c.network.switch_delay = 1;
    c.network.injection_latency = inj;
    c.network.ejection_latency = ej;
    for (auto [s, d] : {std::pair{0U, 15U}, std::pair{5U, 6U}, std::pair{9U, 9U}}) {
      ScriptedNetwork net("mesh:4x4", "xy", c);
      net.send(s, d, 7, 3);
      net.run_until(500);
      ASSERT_EQ(net.deliveries().size(), 1U);
      const Delivery got = net.deliveries()[0];
      const int h = net.topology().distance(NodeId(s), NodeId(d));
      EXPECT_EQ(got.hops, h);
      EXPECT_EQ(got.done - got.created, static_cast<Cycle>((h + 1) * 4 + h + 7 - 1 + inj + ej))
          << s << " -> " << d << " injection " << inj << " ejection " << ej;
    }
  }
}

// Half-ring ties drawn per packet: alternating takes + and - in turn by sequence number;
// random draws both from the packet's identity, so any split over models delivers the same.
TEST(RankModel, DrawnTiesAlternateOrFollowThePacketIdentity) {
  SimConfig c = ideal_router(4);
  c.network.ring_tie = RingTie::kAlternating;
  {
    ScriptedNetwork net("torus:4x4", "dor-booksim", c);
    for (int k = 0; k < 6; ++k) net.send(0, 2, 3, static_cast<Cycle>(20 * k));  // (0,0)->(2,0)
    net.run_until(400);
    const auto got = net.deliveries();
    ASSERT_EQ(got.size(), 6U);
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].state, k % 2) << k;  // sequence k: state k mod 2 (1 = the - way)
      EXPECT_EQ(got[k].hops, 2);
    }
  }
  c.network.ring_tie = RingTie::kRandom;
  std::vector<std::vector<Delivery>> results;
  for (int parts : {1, 2, 3}) {
    ScriptedNetwork net("torus:4x4", "dor-booksim", c, parts);
    for (std::uint32_t k = 0; k < 4; ++k) {
      for (std::uint32_t s = 0; s < 16; ++s) net.send(s, s ^ 10U, 3, k * 7 + s % 3);  // (2,2) away
    }
    net.run_until(2000);
    results.push_back(net.deliveries());
    ASSERT_EQ(results.back().size(), 64U);
  }
  int minus = 0;
  for (const Delivery& d : results[0]) {
    minus += static_cast<int>(d.state);
    EXPECT_EQ(d.hops, 4);
  }
  EXPECT_GT(minus, 16);  // 64 fair draws: 32 expected, below 17 with probability < 1e-4
  EXPECT_LT(minus, 48);
  EXPECT_EQ(results[1], results[0]);
  EXPECT_EQ(results[2], results[0]);
}

// Duato's routing on mesh:3 (nodes 0, 1, 2 in a row), ideal router, 4-flit buffers: VC 0 is
// the XY escape channel, VC 1 adaptive. B: node 1 -> node 2 and A: node 0 -> node 2, 4 flits
// each, created at 0. B takes the adaptive VC of link 1 -> 2 (preferred). A's head reaches
// node 1 at cycle 1, finds the adaptive VC owned and takes the escape VC at once: the two
// share link 1 -> 2 and the ejection port at node 2, which carry all 8 flits back to back
// (cycles 0..7), so the last is ejected at 8. Without the escape VC, A would wait for the
// adaptive VC to be free and empty: B's tail is ejected at 4, its credit back at 5, so A
// would cross at 5..8 and finish at 9.
TEST(RankModel, DuatoFallsBackOnTheEscapeVcWhenTheAdaptiveOneIsTaken) {
  ScriptedNetwork net("mesh:3", "duato", ideal_router(4));
  net.send(1, 2, 4);
  net.send(0, 2, 4);
  net.run_until(50);
  ASSERT_EQ(net.deliveries().size(), 2U);
  EXPECT_EQ(std::max(net.find(0).done, net.find(1).done), 8U);
  EXPECT_EQ(net.in_network(), 0U);
}

// Under heavy contention Duato's routing delivers everything (no deadlock, which the
// verifier's proof says), and the engine never lets a head flit join another packet in an
// adaptive VC (the assumption of that proof; RankModel::deposit checks it on every head).
TEST(RankModel, DuatoDeliversEverythingUnderContentionWithEitherSelection) {
  for (const auto policy : {SelectionPolicy::kPriority, SelectionPolicy::kLeastOccupied}) {
    for (const char* spec : {"mesh:4x4", "torus:4x4", "honeycomb:2", "honeycomb-torus:2"}) {
      SimConfig c = ideal_router(2);
      c.network.selection = policy;
      ScriptedNetwork net(spec, "duato", c);
      const std::uint32_t n = net.topology().num_nodes();
      for (std::uint32_t k = 0; k < 6; ++k) {
        for (std::uint32_t s = 0; s < n; ++s) {
          std::uint32_t d = (s * (5 + 2 * k) + 1 + k) % n;
          if (d == s) d = (s + 1) % n;
          net.send(s, d, 2 + static_cast<int>((s + k) % 7), k);
        }
      }
      net.run_until(20000);
      EXPECT_EQ(net.deliveries().size(), 6 * n) << spec;
      EXPECT_EQ(net.in_network(), 0U) << spec;
    }
  }
}

// What can cross a cut link in one window bounds the messages between ranks. Node 2 of
// mesh:3 on its own rank, every packet bound for it: link 1 -> 2 carries the packets of node 0
// and of node 1. Shared bandwidth moves one flit per cycle over it; per-VC bandwidth one per VC,
// here two (two input ports feed it), more than a flit per cycle. Over a window longer than
// the credit loop, credits limit each VC to its buffer depth.
TEST(RankModel, CrossingsStayWithinTheWindowLimit) {
  struct Case {
    VcBandwidth bandwidth;
    int vcs, buffer, latency;
  };
  for (const Case& k : {Case{VcBandwidth::kShared, 2, 2, 1}, Case{VcBandwidth::kPerVc, 4, 2, 1},
                        Case{VcBandwidth::kPerVc, 4, 2, 3}, Case{VcBandwidth::kPerVc, 2, 3, 8},
                        Case{VcBandwidth::kShared, 2, 2, 8}}) {
    SimConfig c = ideal_router(k.buffer);
    c.network.vcs = k.vcs;
    c.network.vc_bandwidth = k.bandwidth;
    c.network.link_latency = k.latency;
    c.network.credit_latency = k.latency;
    ScriptedNetwork net("mesh:3", "xy", c);
    net.repartition(Partition({0, 0, 1}, 2, "test"));
    for (int i = 0; i < 60; ++i) {
      net.send(0, 2, 1 + i % 3);
      net.send(1, 2, 1 + i % 2);
    }
    net.run_until(2000);
    ASSERT_EQ(net.deliveries().size(), 120U);
    const Cycle w = net.longest_window();
    const double limit = static_cast<double>(net.model(0).crossing_limit(w));
    EXPECT_EQ(w, static_cast<Cycle>(k.latency));
    EXPECT_LE(net.most_flits_per_link(), limit) << k.vcs << " VCs, latency " << k.latency;
    EXPECT_LE(net.most_credits_per_link(), limit) << k.vcs << " VCs, latency " << k.latency;
    if (k.bandwidth == VcBandwidth::kPerVc && k.latency <= 3) {
      // More than the flit per cycle and link that the exchange once allowed for.
      EXPECT_GT(net.most_flits_per_link(), static_cast<double>(w));
    }
  }
}

// A deadlock confined to one ring while the rest of the network keeps moving. torus:5x4
// with dimension-order routing on one VC (no bubble, no dateline), 2-flit buffers: each node
// of row 0 sends a 12-flit worm two hops along X+ at cycle 0. Each worm holds the X+ channel
// out of its source and waits at the next node for the X+ channel held by the next worm
// (worked by hand): the injection VC of node x waits for its downstream input VC at x + 1
// (no credit), whose head waits for the owner of x + 1's X+ output, the injection VC of x + 1:
// a cycle of 10 VCs, 2 per node of row 0. Rows 1..3 meanwhile send 1-hop packets along X+
// all the time: they cannot deadlock, and keep being delivered.
TEST(RankModel, ALocalDeadlockIsFoundWhileTheRestMoves) {
  SimConfig c = ideal_router(2);
  std::vector<VcKey> reference;
  for (auto [parts, overlap] :
       {std::pair{1, false}, std::pair{2, false}, std::pair{3, true}, std::pair{4, false}}) {
    ScriptedNetwork net("torus:5x4", "dor", c, parts, overlap);
    for (std::uint32_t x = 0; x < 5; ++x) net.send(x, (x + 2) % 5, 12);
    for (Cycle t = 0; t < 3000; t += 50) {
      for (std::uint32_t n = 5; n < 20; ++n) {
        net.send(n, n - n % 5 + (n + 1) % 5, 4, t);
      }
      net.run_until(t + 50);
    }
    const auto& d = net.deliveries();
    ASSERT_FALSE(d.empty());
    EXPECT_GE(std::count_if(d.begin(), d.end(), [](const auto& x) { return x.done >= 2950; }), 10)
        << "the rest of the network stopped";
    EXPECT_EQ(std::count_if(d.begin(), d.end(), [](const auto& x) { return x.source < 5; }), 0);
    EXPECT_EQ(net.stuck_vcs(100), 10U);
    const std::vector<VcKey> cycle = net.deadlock_cycle(100);
    ASSERT_EQ(cycle.size(), 10U) << parts << " parts";
    std::map<std::uint32_t, int> per_node;
    for (VcKey k : cycle) ++per_node[static_cast<std::uint32_t>(k >> 16)];
    EXPECT_EQ(per_node, (std::map<std::uint32_t, int>{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}}));
    if (reference.empty()) reference = cycle;
    EXPECT_EQ(cycle, reference) << parts << " parts";
  }
}

// No false deadlock: a dateline torus heavily loaded with long worms and 1-flit buffers has
// VCs that wait for long, but never a set that waits only for itself.
TEST(RankModel, NoDeadlockInASaturatedDeadlockFreeNetwork) {
  ScriptedNetwork net("torus:5x4", "dor-dateline", ideal_router(1), 2);
  const std::uint32_t n = net.topology().num_nodes();
  for (std::uint32_t k = 0; k < 6; ++k) {
    for (std::uint32_t s = 0; s < n; ++s)
      net.send(s, (s * 7 + 3 + k) % n == s ? (s + 1) % n : (s * 7 + 3 + k) % n, 40);
  }
  std::uint64_t stuck = 0;
  for (Cycle t = 40; t < 1500; t += 40) {
    net.run_until(t);
    stuck += net.stuck_vcs(7);
    EXPECT_TRUE(net.deadlock_cycle(7).empty()) << "at cycle " << t;
  }
  EXPECT_GT(stuck, 0U) << "no VC ever waited: the test shows nothing";
  net.run_until(20000);
  EXPECT_EQ(net.deliveries().size(), 6 * n);
}

// Bubble flow control with packets longer than the bubble it reserves (issue 36, case 3:
// workload messages above --length-max). torus:5 (one ring of 5, ports 0 = X+, 1 = X-), dor
// with bubble flow control on its one VC, 8-flit buffers, --length-max 2; each node x sends
// one packet to x + 2 at cycle 0 (two hops X+). Worked by hand, with L flits a packet:
//  - entering the ring needs L + 2 free slots downstream, 8 of 8 are: all five heads enter
//    at once and each packet moves whole into the X- input buffer of x + 1;
//  - there its head goes on along the ring, which needs L free slots at x + 2; x + 2's
//    buffer holds x + 1's packet (L flits, its head waiting the same way): 8 - L are free.
// L = 5: 3 < 5, so every head waits only for room behind the packet ahead of it, a VC that
// waits in turn: a ring of five waits (X- input VC 0 of x + 1 on that of x + 2), all through
// the bubble rule (the output VCs are free, none owned). The wait-for graph must hold
// exactly these five edges to the downstream VC and the detector the cycle of five; if the
// bubble refusal counted as a way out (the free VC), the knot would go unreported.
// L = 3: 5 >= 3, each packet goes on and all are delivered, nothing waits.
TEST(RankModel, ABubbleKnotWaitsOnTheDownstreamVcs) {
  SimConfig c = ideal_router(8);
  c.network.flow_control = FlowControl::kBubble;
  c.traffic.length_max = 2;
  constexpr std::uint32_t kNodes = 5;
  for (int parts : {1, 2}) {
    ScriptedNetwork net("torus:5", "dor", c, parts);
    for (std::uint32_t x = 0; x < kNodes; ++x) net.send(x, (x + 2) % kNodes, 5);
    net.run_until(300);
    EXPECT_TRUE(net.deliveries().empty()) << parts << " parts";
    std::vector<WaitEdge> edges;
    for (int p = 0; p < parts; ++p) {
      const std::vector<WaitEdge> mine = net.model(p).state().wait_for_edges(net.now(), 100);
      edges.insert(edges.end(), mine.begin(), mine.end());
    }
    std::vector<std::array<int, 6>> got;
    for (const WaitEdge& e : edges) {
      got.push_back({static_cast<int>(e.node), e.port, e.vc, static_cast<int>(e.on_node), e.on_port,
                     e.on_vc});
    }
    std::sort(got.begin(), got.end());
    std::vector<std::array<int, 6>> expected;
    for (int x = 0; x < static_cast<int>(kNodes); ++x) {
      expected.push_back({x, 1, 0, (x + 1) % static_cast<int>(kNodes), 1, 0});
    }
    EXPECT_EQ(got, expected) << parts << " parts";
    const std::vector<VcKey> cycle = net.deadlock_cycle(100);
    const std::vector<VcKey> ring{vc_key(0, 1, 0), vc_key(1, 1, 0), vc_key(2, 1, 0),
                                  vc_key(3, 1, 0), vc_key(4, 1, 0)};
    EXPECT_EQ(cycle, ring) << parts << " parts";
  }
  ScriptedNetwork fits("torus:5", "dor", c);
  for (std::uint32_t x = 0; x < kNodes; ++x) fits.send(x, (x + 2) % kNodes, 3);
  fits.run_until(300);
  EXPECT_EQ(fits.deliveries().size(), kNodes);
  EXPECT_EQ(fits.stuck_vcs(100), 0U);
  EXPECT_TRUE(fits.deadlock_cycle(100).empty());
}

// What a peer sends may arrive in the current cycle only between step_interior() and
// step_boundary() of that cycle; anything older is a broken lookahead and is refused.
TEST(RankModel, RemoteArrivalsInThePastAreRefused) {
  const SimConfig c = ideal_router();
  auto topo = make_topology("torus:4x4");
  auto routing = make_routing("dor-dateline", *topo, c.network.flow_control);
  const DestinationPattern pattern(*topo, c.traffic);
  const Partition two = Partition::blocks(*topo, 2);
  const RunPlan plan = make_run_plan(c, *topo, *routing);
  RankModel model(c, plan, *topo, *routing, pattern, two, 0, 0.0);
  const std::uint32_t node = two.nodes_of(0).front();  // every node of a half borders the other
  Outbox credit_at_1;
  credit_at_1.credits.push_back(RemoteCredit{1, node, 0, 0});

  model.step(0);
  model.step_interior(1);
  EXPECT_NO_THROW(model.receive(credit_at_1));  // cycle 1 is open: applied at once
  model.step_boundary(1);
  EXPECT_THROW(model.receive(credit_at_1), InvariantError);  // cycle 1 is over
  EXPECT_THROW(model.step_boundary(2), InvariantError);      // cycle 2 was never opened
}

}  // namespace
}  // namespace wormnet
