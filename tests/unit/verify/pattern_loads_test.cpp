// The channel loads of a traffic pattern (pattern_loads.hpp): against loads worked by hand in
// the comments (tornado, neighbor and transpose on small tori and meshes), against a brute
// force that walks every route of every pair of the pattern (tests/support/route_enumeration
// .hpp, no code shared with the analysis) weighted by the pattern's traffic matrix, on every
// pattern and on deterministic, adaptive and tie-drawing routings, and split over shares.
// Uniform traffic through the pattern analysis gives the uniform analysis' gamma / (N-1).
#include "wormnet/verify/pattern_loads.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "../../support/bfs.hpp"
#include "../../support/route_enumeration.hpp"
#include "../../support/routing_case.hpp"
#include "../../support/thread_reduction.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/traffic/traffic_matrix.hpp"

namespace wormnet {
namespace {

/// A pattern on a case's network, with its matrix as the analysis' column.
struct PatternCase {
  PatternCase(const test::RoutingCase& c, TrafficPattern p, double fraction = 0.0,
              std::vector<int> hot = {})
      : config(make_config(p, fraction, std::move(hot))),
        pattern(*c.topo, config),
        matrix(*c.topo, pattern) {}
  static TrafficConfig make_config(TrafficPattern p, double fraction, std::vector<int> hot) {
    TrafficConfig t;
    t.pattern = p;
    t.hotspot_fraction = fraction;
    t.hotspot_nodes = std::move(hot);
    return t;
  }
  [[nodiscard]] PatternColumn column() const {
    return [this](NodeId d, std::vector<PairShare>& out) {
      std::vector<SourceShare> s;
      matrix.sources_of(d, s);
      for (const SourceShare& x : s) out.push_back(PairShare{x.source, x.share});
    };
  }
  TrafficConfig config;
  DestinationPattern pattern;
  TrafficMatrix matrix;
};

PatternLoadReport pattern_loads(const test::RoutingCase& c, const PatternCase& p) {
  return analyze_pattern_loads(*c.topo, *c.routing, p.column());
}

/// The channel of the 2-D torus or mesh `t` leaving the node at (x, y) through `port`.
std::uint32_t channel_at(const Torus& t, std::array<int, 2> xy, PortId port) {
  Coord c;
  c.n = 2;
  c[0] = xy[0];
  c[1] = xy[1];
  const NodeId n = t.node_at(c);
  EXPECT_TRUE(n.valid());
  return t.channel(n, port).value();
}

constexpr PortId kXPlus = 0;
constexpr PortId kXMinus = 1;
constexpr PortId kYPlus = 2;
constexpr PortId kYMinus = 3;

// Tornado on torus:8x8 under dor: every coordinate + ceil(8/2) - 1 = +3. A source at x crosses
// the X+ channels at x, x+1, x+2 of its row, then the Y+ channels at y, y+1, y+2 of column
// x+3. So the X+ channel at (a, r) carries the sources a, a-1, a-2 of row r: 3 routes, and
// every Y+ channel 3 routes likewise; no packet goes -. pi = 3: the ideal is 1/3 flit/node/
// cycle, offered and accepted (nobody is silent), against the uniform (N-1)/pi.
TEST(PatternLoads, TornadoOnAnEightByEightTorus) {
  const test::RoutingCase c = test::make_case("torus:8x8", "dor");
  const PatternCase p(c, TrafficPattern::kTornado);
  const PatternLoadReport r = pattern_loads(c, p);
  const auto& t = static_cast<const Torus&>(*c.topo);
  for (int x = 0; x < 8; ++x) {
    for (int y = 0; y < 8; ++y) {
      const std::array<int, 2> at{x, y};
      EXPECT_EQ(r.gamma[channel_at(t, at, kXPlus)], 3.0);
      EXPECT_EQ(r.gamma[channel_at(t, at, kYPlus)], 3.0);
      EXPECT_EQ(r.gamma[channel_at(t, at, kXMinus)], 0.0);
      EXPECT_EQ(r.gamma[channel_at(t, at, kYMinus)], 0.0);
    }
  }
  EXPECT_EQ(r.pi, 3.0);
  EXPECT_EQ(r.pairs, 64U);
  EXPECT_EQ(r.senders, 64U);
  EXPECT_DOUBLE_EQ(r.offered_at_ideal, 1.0 / 3);
  EXPECT_DOUBLE_EQ(r.saturation_rate, 1.0 / 3);
  EXPECT_DOUBLE_EQ(r.mean_load, 64.0 * 6 / 256);  // 6 hops per route over 256 channels
}

// Neighbor on torus:8x8: +1 in X, one hop on the X+ channel of the source: every X+ channel
// carries 1, the rest 0; pi = 1, ideal 1 flit/node/cycle.
TEST(PatternLoads, NeighborOnATorus) {
  const test::RoutingCase c = test::make_case("torus:8x8", "dor-dateline");
  const PatternCase p(c, TrafficPattern::kNeighbor);
  const PatternLoadReport r = pattern_loads(c, p);
  const auto& t = static_cast<const Torus&>(*c.topo);
  EXPECT_EQ(r.gamma[channel_at(t, {5, 2}, kXPlus)], 1.0);
  EXPECT_EQ(r.gamma[channel_at(t, {5, 2}, kYPlus)], 0.0);
  EXPECT_EQ(r.pi, 1.0);
  EXPECT_DOUBLE_EQ(r.saturation_rate, 1.0);
}

// Transpose on mesh:4x4 under xy: (x, y) -> (y, x); the diagonal is silent (12 pairs). A
// source moves along its row y from x to y, then along column y from row y to row x.
//   X+ at (a, r) (toward a+1): sources (x, r) with x <= a < r: a + 1 of them when a < r.
//   X- at (a, r) (toward a-1): sources (x, r) with r < a <= x: 4 - a when a > r.
//   Y+ at (c, b) (toward b+1): sources (x, c) with c <= b < x: 3 - b when b >= c.
//   Y- at (c, b) (toward b-1): sources (x, c) with x < b <= c: b when b <= c.
// The largest: X+ (2, 3), X- (1, 0), Y+ (0, 0), Y- (3, 3): 3 routes. pi = 3: each sending
// node may offer 1/3; over all 16 nodes (4 silent) that is 12 / (16 x 3) = 0.25 accepted.
// Hops: 2|x - y| per pair, 2 x 20 = 40 over 48 channels.
TEST(PatternLoads, TransposeOnAFourByFourMesh) {
  const test::RoutingCase c = test::make_case("mesh:4x4", "xy");
  const PatternCase p(c, TrafficPattern::kTranspose);
  const PatternLoadReport r = pattern_loads(c, p);
  const auto& t = static_cast<const Torus&>(*c.topo);
  for (int a = 0; a < 4; ++a) {
    for (int r2 = 0; r2 < 4; ++r2) {
      const std::array<int, 2> at{a, r2};
      if (a < 3) {
        EXPECT_EQ(r.gamma[channel_at(t, at, kXPlus)], a < r2 ? a + 1 : 0);
      }
      if (a > 0) {
        EXPECT_EQ(r.gamma[channel_at(t, at, kXMinus)], a > r2 ? 4 - a : 0);
      }
    }
  }
  for (int col = 0; col < 4; ++col) {
    for (int b = 0; b < 4; ++b) {
      const std::array<int, 2> at{col, b};
      if (b < 3) {
        EXPECT_EQ(r.gamma[channel_at(t, at, kYPlus)], b >= col ? 3 - b : 0);
      }
      if (b > 0) {
        EXPECT_EQ(r.gamma[channel_at(t, at, kYMinus)], b <= col ? b : 0);
      }
    }
  }
  EXPECT_EQ(r.pi, 3.0);
  EXPECT_EQ(r.pairs, 12U);
  EXPECT_EQ(r.senders, 12U);
  EXPECT_DOUBLE_EQ(r.offered_at_ideal, 1.0 / 3);
  EXPECT_DOUBLE_EQ(r.saturation_rate, 0.25);
  EXPECT_DOUBLE_EQ(r.mean_load, 40.0 / 48);
}

// Transpose on torus:4x4 under dor (a half-ring tie goes +): with D = y - x mod 4, a source
// (x, y) goes D along X in row y (+ for D = 1, 2; - for D = 3) then -D along Y in column y
// (Y- for D = 1; Y+ 2 hops for D = 2; Y+ 1 hop for D = 3). In row r: X+ (r-1, r) carries
// D = 1 and 2: 2 routes; X+ (r-2, r) 1; X- (r+1, r) 1. In column r: Y+ (r, r) carries D = 2
// and 3: 2; Y+ (r, r+1) 1; Y- (r, r) 1. pi = 2, 12 pairs: 12 / (16 x 2) = 0.375 accepted.
// The translations of the uniform analysis would have spread these over whole rings.
TEST(PatternLoads, TransposeOnAFourByFourTorus) {
  const test::RoutingCase c = test::make_case("torus:4x4", "dor");
  const PatternCase p(c, TrafficPattern::kTranspose);
  const PatternLoadReport r = pattern_loads(c, p);
  const auto& t = static_cast<const Torus&>(*c.topo);
  const auto m = [](int v) { return (v % 4 + 4) % 4; };
  double total = 0;
  for (double g : r.gamma) total += g;
  for (int row = 0; row < 4; ++row) {
    EXPECT_EQ(r.gamma[channel_at(t, {m(row - 1), row}, kXPlus)], 2.0);
    EXPECT_EQ(r.gamma[channel_at(t, {m(row - 2), row}, kXPlus)], 1.0);
    EXPECT_EQ(r.gamma[channel_at(t, {m(row + 1), row}, kXMinus)], 1.0);
    EXPECT_EQ(r.gamma[channel_at(t, {row, row}, kYPlus)], 2.0);
    EXPECT_EQ(r.gamma[channel_at(t, {row, m(row + 1)}, kYPlus)], 1.0);
    EXPECT_EQ(r.gamma[channel_at(t, {row, row}, kYMinus)], 1.0);
  }
  EXPECT_EQ(total, 4.0 * 8);  // the channels above, and no other
  EXPECT_EQ(r.pi, 2.0);
  EXPECT_DOUBLE_EQ(r.saturation_rate, 0.375);
  EXPECT_DOUBLE_EQ(r.offered_at_ideal, 0.5);
}

/// The brute force: every pair's routes walked (route_enumeration.hpp), weighted by T.
std::vector<double> walked_loads(const test::RoutingCase& c, const TrafficMatrix& m) {
  const std::uint32_t n = c.topo->num_nodes();
  std::vector<double> total(c.topo->num_channels(), 0.0);
  std::vector<SourceShare> column;
  for (std::uint32_t d = 0; d < n; ++d) {
    column.clear();
    m.sources_of(NodeId(d), column);
    for (const SourceShare& s : column) {
      test::EnumeratedRoutes one;
      one.gamma.assign(total.size(), 0.0);
      test::detail::PathWalker walker(*c.topo, *c.routing, c.vcs(), 100000, one);
      walker.pair(s.source, NodeId(d), test::bfs_distances(*c.topo, s.source)[d]);
      EXPECT_TRUE(one.defect.empty()) << one.defect;
      for (std::size_t k = 0; k < total.size(); ++k) total[k] += s.share * one.gamma[k];
    }
  }
  return total;
}

TEST(PatternLoads, EveryPatternAgainstWalkingItsRoutes) {
  struct Net {
    const char* spec;
    const char* routing;
    RingTie tie;
  };
  for (const Net& net :
       {Net{"torus:4x4", "dor", RingTie::kPlus}, Net{"torus:4x4", "dor-dateline", RingTie::kRandom},
        Net{"torus:4x3", "duato", RingTie::kPlus}, Net{"torus:6x4", "dor-booksim", RingTie::kPlus},
        Net{"torus:4x4x2", "angara", RingTie::kPlus}, Net{"mesh:5x4", "west-first", RingTie::kPlus},
        Net{"mesh:4x4", "duato", RingTie::kPlus}, Net{"honeycomb:2", "xy-first", RingTie::kPlus},
        Net{"honeycomb:2", "double-xy-turn", RingTie::kPlus},
        Net{"honeycomb:2", "minimal-adaptive", RingTie::kPlus},
        Net{"honeycomb-torus:2", "double-xy-dateline", RingTie::kPlus}}) {
    const test::RoutingCase c = test::make_case(
        net.spec, net.routing,
        std::string(net.routing) == "angara" ? FlowControl::kBubble : FlowControl::kCredit,
        net.tie);
    for (TrafficPattern pat :
         {TrafficPattern::kTranspose, TrafficPattern::kNeighbor, TrafficPattern::kTornado,
          TrafficPattern::kBitComplement, TrafficPattern::kHotspot, TrafficPattern::kUniform}) {
      std::unique_ptr<PatternCase> p;
      try {
        p = std::make_unique<PatternCase>(c, pat, 0.4, std::vector<int>{1, 3, 3});
      } catch (const InputError&) {
        continue;  // the pattern is not defined on this network (transpose on 4x3)
      }
      SCOPED_TRACE(c.label() + ", pattern " + std::to_string(static_cast<int>(pat)));
      const PatternLoadReport r = pattern_loads(c, *p);
      const std::vector<double> want = walked_loads(c, p->matrix);
      ASSERT_EQ(r.gamma.size(), want.size());
      double pi = 0;
      for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_NEAR(r.gamma[k], want[k], 1e-12 * std::max(1.0, want[k])) << "channel " << k;
        pi = std::max(pi, want[k]);
      }
      EXPECT_NEAR(r.pi, pi, 1e-12 * pi);
      EXPECT_EQ(r.pairs, p->matrix.pairs());
      EXPECT_TRUE(r.defect.empty()) << r.defect;
    }
  }
}

// Uniform traffic through the pattern analysis is the uniform analysis scaled: each pair's
// share is 1/(N-1), so gamma = gamma_uniform / (N-1) and 1/pi = (N-1)/pi_uniform.
TEST(PatternLoads, UniformIsTheUniformAnalysisScaled) {
  for (const auto& [spec, routing] :
       {std::pair{"torus:5x4", "dor-dateline"}, std::pair{"honeycomb:3", "double-xy"},
        std::pair{"mesh:4x4", "duato"}}) {
    const test::RoutingCase c = test::make_case(spec, routing);
    SCOPED_TRACE(c.label());
    const PatternCase p(c, TrafficPattern::kUniform);
    const PatternLoadReport r = pattern_loads(c, p);
    AnalysisOptions o;
    o.cdg = false;
    const LoadReport u = analyze_routing(*c.topo, *c.routing, o).loads;
    const double n1 = c.topo->num_nodes() - 1.0;
    for (std::size_t k = 0; k < u.gamma.size(); ++k) {
      EXPECT_NEAR(r.gamma[k] * n1, u.gamma[k], 1e-9 * std::max(1.0, u.gamma[k]));
    }
    EXPECT_NEAR(r.saturation_rate, u.saturation_rate, 1e-9 * u.saturation_rate);
  }
}

// Split over shares (threads standing for ranks): the same bits on every share, equal to one
// share's.
TEST(PatternLoads, SharesGiveTheSameBits) {
  const test::RoutingCase c = test::make_case("torus:6x4", "duato");
  const PatternCase p(c, TrafficPattern::kHotspot, 0.3, {2});
  const PatternLoadReport one = pattern_loads(c, p);
  for (int parts : {2, 3}) {
    test::ThreadReduction::Shared shared(parts);
    std::vector<PatternLoadReport> results(static_cast<std::size_t>(parts));
    std::vector<std::thread> threads;
    for (int k = 0; k < parts; ++k) {
      threads.emplace_back([&, k] {
        results[static_cast<std::size_t>(k)] =
            analyze_pattern_loads(*c.topo, *c.routing, p.column(), 0, AnalysisShare{k, parts},
                                  test::ThreadReduction(shared, k));
      });
    }
    for (auto& t : threads) t.join();
    for (const PatternLoadReport& r : results) {
      EXPECT_EQ(r.gamma, one.gamma);
      EXPECT_EQ(r.pairs, one.pairs);
      EXPECT_EQ(r.senders, one.senders);
      EXPECT_EQ(r.states, one.states);
    }
  }
}

}  // namespace
}  // namespace wormnet
