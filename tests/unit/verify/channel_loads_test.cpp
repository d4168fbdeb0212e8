// Channel loads (Angara paper: gamma_c, pi, sigma(4,R), perfect load) and the ideal uniform
// saturation rate (N-1)/pi against closed forms derived by hand in the comments, and against
// hand-worked small cases. Loads count one unit per ordered pair s != d; an adaptive routing
// splits a pair's unit evenly over its choices at each step.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "../../support/routing_case.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

LoadReport loads(const test::RoutingCase& c) {
  AnalysisOptions o;
  o.cdg = false;
  return analyze_routing(*c.topo, *c.routing, o).loads;
}

/// Checks the summary numbers against hand-derived values.
void expect_loads(const test::RoutingCase& c, double pi, double min_load, double perfect,
                  double sigma4) {
  SCOPED_TRACE(c.label());
  const LoadReport l = loads(c);
  EXPECT_NEAR(l.pi, pi, 1e-9);
  EXPECT_NEAR(l.min_load, min_load, 1e-9);
  EXPECT_NEAR(l.perfect_load, perfect, 1e-9);
  EXPECT_NEAR(l.sigma4, sigma4, 1e-9);
  // Ideal uniform saturation: every node sends lambda spread over the N-1 others, so channel
  // c carries lambda gamma_c / (N-1) <= 1 flit/cycle, i.e. lambda <= (N-1)/pi.
  EXPECT_NEAR(l.saturation_rate, (c.topo->num_nodes() - 1.0) / pi, 1e-12);
}

// --- sigma(k, R) by itself -------------------------------------------------------------------

TEST(ChannelLoads, DeviationOnATinyHandExample) {
  // Loads 0, 2, 4, 6 around a perfect load of 3: |d|^4 = 81, 1, 1, 81; mean 164/4 = 41.
  EXPECT_NEAR(load_deviation({0, 2, 4, 6}, 3.0, 4), std::pow(41.0, 0.25), 1e-12);
  // k = 2 is the RMS deviation: (9 + 1 + 1 + 9) / 4 = 5.
  EXPECT_NEAR(load_deviation({0, 2, 4, 6}, 3.0, 2), std::sqrt(5.0), 1e-12);
  // All equal to the perfect load: no deviation.
  EXPECT_NEAR(load_deviation({2.5, 2.5, 2.5}, 2.5, 4), 0.0, 1e-15);
}

// --- Rings and tori, dimension order ----------------------------------------------------------

// DOR on a k-ring, k = 2m even. By rotation every X+ channel carries the same load, and so
// does every X- channel. Offsets 1..m go + (ties at m go +), offsets 1..m-1 go -. A route of
// j hops loads j channels, so the + channels share sum_{j=1..m} j per source over k channels
// for k sources: gamma+ = m(m+1)/2, gamma- = m(m-1)/2. pi = gamma+, min = gamma-, perfect =
// (gamma+ + gamma-)/2 = m^2/2 (DOR is minimal), and every channel is m/2 from it: sigma4 = m/2.
// For k = 2m+1 both directions carry m(m+1)/2 = perfect, sigma4 = 0.
TEST(ChannelLoads, DorOnARing) {
  for (int m : {2, 3, 4}) {
    expect_loads(test::make_case("torus:" + std::to_string(2 * m), "dor"), m * (m + 1) / 2.0,
                 m * (m - 1) / 2.0, m * m / 2.0, m / 2.0);
  }
  for (int m : {1, 2, 3}) {
    const double g = m * (m + 1) / 2.0;
    expect_loads(test::make_case("torus:" + std::to_string(2 * m + 1), "dor"), g, g, g, 0.0);
  }
}

// The smallest case in full: torus:4, DOR. Pairs at offset 1 (4 of them each way) load one
// channel; offset 2 (4 pairs) goes + on the tie and loads two + channels; offset 3 = -1 goes -.
// + channels: 4 + 8 = 12 units on 4 channels = 3 each; - channels: 4 on 4 = 1 each.
// pi = 3, perfect = 16/8 = 2, sigma4 = 1, saturation = 3/3 = 1 flit/node/cycle.
TEST(ChannelLoads, DorOnAFourRingChannelByChannel) {
  const auto c = test::make_case("torus:4", "dor");
  const LoadReport l = loads(c);
  for (std::uint32_t ch = 0; ch < c.topo->num_channels(); ++ch) {
    const bool plus = Topology::port_sign(c.topo->channel_port(ChannelId(ch))) > 0;
    EXPECT_NEAR(l.gamma[ch], plus ? 3.0 : 1.0, 1e-12) << c.topo->channel_label(ChannelId(ch));
  }
  EXPECT_NEAR(l.saturation_rate, 1.0, 1e-12);
}

// Angara on a 4-ring: the offset-2 tie may go either way, so its unit splits 1/2 + 1/2:
// each direction gets 4 (offset 1) + 4 * 2 * 1/2 (offset 2) = 8 units on 4 channels = 2.
// Perfectly balanced: pi = min = perfect = 2, sigma4 = 0, saturation 3/2.
TEST(ChannelLoads, AngaraSplitsTheTieOnAFourRing) {
  expect_loads(test::make_case("torus:4", "angara"), 2.0, 2.0, 2.0, 0.0);
}

// DOR with ties drawn per packet: the offset-2 unit splits over the two initial choices
// exactly as Angara's does over its two steps, so the same balanced loads (against 3 and 1
// with ties always +). On a 6-ring the offset-3 tie of each of the 6 sources loads 3
// channels each way with 1/2: each direction gets 6 (offset 1) + 6 * 2 (offset 2) + 6 * 3 / 2
// = 27 units on 6 channels = 4.5 (dor: 6 on the + side, 3 on the - side).
TEST(ChannelLoads, DrawnTiesSplitTheTieUnitEvenly) {
  for (const char* r : {"dor", "dor-dateline", "dor-booksim", "dor-balanced"}) {
    for (const auto& [spec, load] : {std::pair{"torus:4", 2.0}, std::pair{"torus:6", 4.5}}) {
      test::RoutingCase c;
      c.topo = make_topology(spec);
      c.routing = make_routing(r, *c.topo, FlowControl::kCredit, nullptr, RingTie::kRandom);
      expect_loads(c, load, load, load, 0.0);
    }
  }
}

// DOR on a k x k torus (X first, then Y). An X channel of row y is used only by sources in
// row y (X is corrected in the source row), for any of the k destination rows: k times the
// ring load. A Y channel of column x is used only by packets whose destination is in column
// x (Y is corrected in the destination column), from any of the k source columns: again k
// times the ring load. So with k = 2m: pi = k m(m+1)/2, min = k m(m-1)/2, perfect = k m^2/2,
// sigma4 = k m/2; with k = 2m+1 all loads are k m(m+1)/2 and sigma4 = 0.
TEST(ChannelLoads, DorOnASquareTorus) {
  for (int m : {2, 3, 4}) {
    const int k = 2 * m;
    const std::string spec = "torus:" + std::to_string(k) + "x" + std::to_string(k);
    expect_loads(test::make_case(spec, "dor"), k * m * (m + 1) / 2.0, k * m * (m - 1) / 2.0,
                 k * m * m / 2.0, k * m / 2.0);
  }
  for (int m : {1, 2}) {
    const int k = 2 * m + 1;
    const double g = k * m * (m + 1) / 2.0;
    const std::string spec = "torus:" + std::to_string(k) + "x" + std::to_string(k);
    expect_loads(test::make_case(spec, "dor"), g, g, g, 0.0);
  }
  // The dateline VCs share the physical channel: the same loads as DOR.
  expect_loads(test::make_case("torus:6x6", "dor-dateline"), 6 * 3 * 4 / 2.0, 6 * 3 * 2 / 2.0,
               6 * 9 / 2.0, 6 * 3 / 2.0);
}

// --- Mesh, XY -------------------------------------------------------------------------------

// XY on a k x k mesh. The X+ channel from column i to i+1 in row y carries the packets whose
// source is in row y at a column <= i and whose destination column is >= i+1, for any of the
// k destination rows: gamma = k (i+1)(k-1-i). A Y+ channel from row j to j+1 in column x
// carries the packets whose destination is in column x (Y goes last), from any of the k
// source columns, with source row <= j and destination row >= j+1: k (j+1)(k-1-j). X- and
// Y- mirror these. So with a = i+1 in 1..k-1, every load is k a (k-a), each value on 4k
// channels:
//   pi = k floor(k/2) ceil(k/2)  (= k^3/4 for even k),  min = k (k-1)  (a = 1),
//   perfect = sum of distances / |C| with sum = 2 k^2 * k(k^2-1)/3 (each coordinate gives
//   k(k^2-1)/3 over ordered value pairs, for k^2 choices of the other one) and
//   |C| = 4 k (k-1): perfect = k^2 (k+1) / 6,
//   sigma4 = ( (1/(k-1)) sum_{a=1..k-1} (perfect - k a (k-a))^4 )^(1/4).
TEST(ChannelLoads, XyOnASquareMesh) {
  for (int k : {2, 3, 4, 5, 8, 16}) {
    const double perfect = k * k * (k + 1) / 6.0;
    double s4 = 0;
    for (int a = 1; a <= k - 1; ++a) s4 += std::pow(perfect - k * a * (k - a), 4);
    const double sigma4 = std::pow(s4 / (k - 1), 0.25);
    const double pi = static_cast<double>(k) * (k / 2) * ((k + 1) / 2);
    expect_loads(test::make_case("mesh:" + std::to_string(k) + "x" + std::to_string(k), "xy"), pi,
                 k * (k - 1.0), perfect, sigma4);
    if (k % 2 == 0) {
      EXPECT_NEAR(pi, k * k * k / 4.0, 1e-12);
    }
  }
  // k = 4 worked through: loads 12, 16, 12 (a = 1, 2, 3), perfect 40/3, deviations 4/3, 8/3,
  // 4/3: sigma4^4 = (2 (4/3)^4 + (8/3)^4) / 3 = 1536/81.
  const LoadReport l = loads(test::make_case("mesh:4x4", "xy"));
  EXPECT_NEAR(l.pi, 16.0, 1e-12);
  EXPECT_NEAR(l.perfect_load, 40.0 / 3.0, 1e-12);
  EXPECT_NEAR(l.sigma4, std::pow(1536.0 / 81.0, 0.25), 1e-12);
  EXPECT_NEAR(l.saturation_rate, 15.0 / 16.0, 1e-12);
}

// West-first on a 2 x 2 mesh, A = (0,0), B = (1,0), C = (0,1), D = (1,1). The 8 one-hop pairs
// put 1 on their own channel. The 4 diagonal pairs take 2 hops:
//   D -> A and B -> C must go west: X- first, one route each (D X- C Y- A; B X- A Y+ C);
//   A -> D and C -> B go east: adaptive, 1/2 X first and 1/2 Y first
//     (A X+ B Y+ D | A Y+ C X+ D;  C X+ D Y- B | C Y- A X+ B).
// Summing per channel:
//   A X+ = 1 + 1/2 + 1/2 = 2     B X- = 1 + 1 = 2     C X+ = 1 + 1/2 + 1/2 = 2   D X- = 1 + 1 = 2
//   A Y+ = 1 + 1/2 + 1 = 2.5     C Y- = 1 + 1 + 1/2 = 2.5   B Y+ = 1 + 1/2 = 1.5  D Y- = 1.5
// Total 16 = sum of distances (8 + 4 * 2) on 8 channels: perfect = 2, pi = 2.5, and the
// deviations are four 0, two +1/2, two -1/2: sigma4^4 = 4 (1/2)^4 / 8 = 1/32.
TEST(ChannelLoads, WestFirstOnATwoByTwoMeshChannelByChannel) {
  const auto c = test::make_case("mesh:2x2", "west-first");
  const LoadReport l = loads(c);
  const Topology& t = *c.topo;
  const std::map<std::string, double> expected{
      {"(1,0) X-", 2.0}, {"(1,1) X-", 2.0}, {"(0,0) X+", 2.0}, {"(0,1) X+", 2.0},
      {"(0,0) Y+", 2.5}, {"(1,0) Y+", 1.5}, {"(0,1) Y-", 2.5}, {"(1,1) Y-", 1.5}};
  ASSERT_EQ(t.num_channels(), expected.size());
  for (std::uint32_t ch = 0; ch < t.num_channels(); ++ch) {
    const std::string label = t.channel_label(ChannelId(ch));
    ASSERT_TRUE(expected.contains(label)) << label;
    EXPECT_NEAR(l.gamma[ch], expected.at(label), 1e-12) << label;
  }
  EXPECT_NEAR(l.perfect_load, 2.0, 1e-12);
  EXPECT_NEAR(l.sigma4, std::pow(1.0 / 32.0, 0.25), 1e-12);
  EXPECT_NEAR(l.pi, 2.5, 1e-12);
  EXPECT_NEAR(l.saturation_rate, 3.0 / 2.5, 1e-12);
}

// --- Honeycomb H_1, worked by hand ---------------------------------------------------------

// H_1 is one hexagon. Going round it: P0 = (1,0,0), P1 = (1,1,0), P2 = (0,1,0), P3 = (0,1,1),
// P4 = (0,0,1), P5 = (1,0,1) (neighbours differ in one coordinate). Call Pi -> Pi+1 clockwise.
// 12 ordered pairs at distance 1 and 12 at distance 2 have one minimal route each; by
// symmetry they put 1 + 2 = 3 units on every one of the 12 channels. The 6 antipodal pairs
// (distance 3) have two minimal routes. Total hops 12 + 24 + 18 = 54: perfect = 54/12 = 4.5.
//
// stojmenovic (largest offset first, X before Y before Z on ties, black = sum 1 uses + links):
//   P0 -> P3: d = (-1,+1,+1), black: Y or Z reduce, tie -> Y+ to P1: clockwise.
//   P1 -> P4: d = (-1,-1,+1), white: X or Y reduce -> X- to P2: clockwise.
//   P2 -> P5: d = (+1,-1,+1), black: X or Z reduce -> X+ to P1: counter-clockwise.
//   P3 -> P0: d = (+1,-1,-1), white: Y or Z reduce -> Y- to P4: clockwise.
//   P4 -> P1: d = (+1,+1,-1), black: X or Y reduce -> X+ to P5: clockwise.
//   P5 -> P2: d = (-1,+1,-1), white: X or Z reduce -> X- to P4: counter-clockwise.
// (After the first hop the rest of each route is forced.) Clockwise routes start at P0, P1,
// P3, P4 and each covers 3 consecutive clockwise channels: every clockwise channel is covered
// exactly twice (check: channel Pi->Pi+1 by starts i, i-1, i-2, two of which are in the set).
// The two counter-clockwise routes from P2 and P5 cover the 6 counter-clockwise channels once.
// So gamma = 5 clockwise, 4 counter-clockwise: pi = 5, min = 4, sigma4 = 1/2, saturation
// (6-1)/5 = 1.
//
// minimal-adaptive splits each antipodal pair 1/2 each way: every channel gets 3 + 3 * 1/2 =
// 4.5 = perfect: pi = min = 4.5, sigma4 = 0.
TEST(ChannelLoads, HoneycombH1WorkedByHand) {
  const auto c = test::make_case("honeycomb:1", "stojmenovic");
  const auto& h = static_cast<const HoneycombMesh&>(*c.topo);
  const std::vector<NodeId> ring{h.node_at(1, 0, 0), h.node_at(1, 1, 0), h.node_at(0, 1, 0),
                                 h.node_at(0, 1, 1), h.node_at(0, 0, 1), h.node_at(1, 0, 1)};
  const LoadReport l = loads(c);
  for (int i = 0; i < 6; ++i) {
    const NodeId a = ring[static_cast<std::size_t>(i)];
    const NodeId b = ring[static_cast<std::size_t>((i + 1) % 6)];
    ChannelId clockwise = ChannelId::invalid();
    ChannelId counter = ChannelId::invalid();
    for (int p = 0; p < 6; ++p) {
      if (h.neighbor(a, static_cast<PortId>(p)) == b)
        clockwise = h.channel(a, static_cast<PortId>(p));
      if (h.neighbor(b, static_cast<PortId>(p)) == a)
        counter = h.channel(b, static_cast<PortId>(p));
    }
    ASSERT_TRUE(clockwise.valid() && counter.valid()) << "P" << i << " and P" << i + 1;
    EXPECT_NEAR(l.gamma[clockwise.value()], 5.0, 1e-12) << h.channel_label(clockwise);
    EXPECT_NEAR(l.gamma[counter.value()], 4.0, 1e-12) << h.channel_label(counter);
  }
  expect_loads(c, 5.0, 4.0, 4.5, 0.5);
  expect_loads(test::make_case("honeycomb:1", "minimal-adaptive"), 4.5, 4.5, 4.5, 0.0);
}

// Perfect load counts minimal distances over ALL directed channels, whatever the routing: on
// H_t the sum of distances over ordered pairs divided by 2(9t^2 - 3t). The non-minimal
// xy-first routes are longer, so its mean load exceeds the perfect load; for a minimal
// routing the two are equal.
TEST(ChannelLoads, PerfectLoadIsTheMinimalDistanceSumOverAllChannels) {
  for (int t : {1, 2, 3}) {
    const auto c = test::make_case("honeycomb:" + std::to_string(t), "xy-first");
    const auto& h = static_cast<const HoneycombMesh&>(*c.topo);
    double sum = 0;
    for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
      for (std::uint32_t b = 0; b < h.num_nodes(); ++b) sum += h.distance(NodeId(a), NodeId(b));
    }
    const LoadReport l = loads(c);
    EXPECT_NEAR(l.perfect_load, sum / (2.0 * (9 * t * t - 3 * t)), 1e-9) << t;
    EXPECT_GT(l.mean_load, l.perfect_load + 1e-6) << t;
    const LoadReport m = loads(test::make_case("honeycomb:" + std::to_string(t), "stojmenovic"));
    EXPECT_NEAR(m.mean_load, m.perfect_load, 1e-9) << t;
  }
}

}  // namespace
}  // namespace wormnet
