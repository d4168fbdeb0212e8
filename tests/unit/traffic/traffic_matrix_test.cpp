// The traffic matrix T(s, d) of every destination pattern against the patterns themselves:
// a fixed pattern's column is the sources mapped onto d; the random patterns' shares are
// the long-run frequencies of destination() (chi-square over many draws), and each sending
// source's shares sum to 1. The hotspot formula is also worked by hand.
#include "wormnet/traffic/traffic_matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {
namespace {

/// T as a dense matrix [s][d] from the columns.
std::vector<std::vector<double>> dense(const Topology& topo, const TrafficMatrix& m) {
  const std::uint32_t n = topo.num_nodes();
  std::vector<std::vector<double>> t(n, std::vector<double>(n, 0.0));
  std::vector<SourceShare> column;
  for (std::uint32_t d = 0; d < n; ++d) {
    column.clear();
    m.sources_of(NodeId(d), column);
    NodeId last = NodeId::invalid();
    for (const SourceShare& s : column) {
      EXPECT_NE(s.source.value(), d);
      EXPECT_GT(s.share, 0.0);
      if (last.valid()) {
        EXPECT_LT(last.value(), s.source.value()) << "node order";
      }
      last = s.source;
      t[s.source.value()][d] = s.share;
    }
  }
  return t;
}

TEST(TrafficMatrix, PermutationsSendEverythingAlongTheirPairs) {
  const Torus t({4, 4}, true);
  for (TrafficPattern p : {TrafficPattern::kTranspose, TrafficPattern::kNeighbor,
                           TrafficPattern::kTornado, TrafficPattern::kBitComplement}) {
    TrafficConfig c;
    c.pattern = p;
    const DestinationPattern pattern(t, c);
    const TrafficMatrix m(t, pattern);
    ASSERT_TRUE(m.fixed());
    const auto matrix = dense(t, m);
    std::uint32_t silent = 0;
    RandomStream rng(1, 1);
    for (std::uint32_t s = 0; s < 16; ++s) {
      const NodeId d = pattern.destination(NodeId(s), rng, 0);
      double row = 0;
      for (std::uint32_t x = 0; x < 16; ++x) row += matrix[s][x];
      if (!d.valid()) {
        ++silent;
        EXPECT_EQ(row, 0.0);
      } else {
        EXPECT_EQ(matrix[s][d.value()], 1.0);
        EXPECT_EQ(row, 1.0);
      }
    }
    EXPECT_EQ(m.silent(), silent);
    EXPECT_EQ(m.pairs(), 16U - silent);
  }
  // Transpose on the 4x4 grid: the diagonal (x = y) is silent.
  TrafficConfig c;
  c.pattern = TrafficPattern::kTranspose;
  const DestinationPattern transpose(t, c);
  EXPECT_EQ(TrafficMatrix(t, transpose).silent(), 4U);
}

/// Chi-square of `draws` destinations of `src` against the matrix row.
double chi2(const DestinationPattern& p, const std::vector<double>& row, NodeId src, int draws,
            int& cells) {
  RandomStream rng(7, src.value());
  std::map<std::uint32_t, int> hits;
  for (int i = 0; i < draws; ++i) {
    const NodeId d = p.destination(src, rng, static_cast<std::uint64_t>(i));
    if (d != src) ++hits[d.value()];
  }
  double x2 = 0;
  cells = 0;
  for (std::uint32_t d = 0; d < row.size(); ++d) {
    const double expected = row[d] * draws;
    if (expected == 0) {
      EXPECT_EQ(hits[d], 0) << "a destination of share 0 drawn";
      continue;
    }
    x2 += (hits[d] - expected) * (hits[d] - expected) / expected;
    ++cells;
  }
  return x2;
}

TEST(TrafficMatrix, RandomPatternsAreTheFrequenciesOfTheirDraws) {
  const Torus t({3, 4}, true);  // 12 nodes
  struct Case {
    TrafficPattern p;
    double fraction;
    std::vector<int> hot;
    bool self;
  };
  for (const Case& k :
       {Case{TrafficPattern::kUniform, 0, {}, false}, Case{TrafficPattern::kUniform, 0, {}, true},
        Case{TrafficPattern::kHotspot, 0.3, {5}, false},
        Case{TrafficPattern::kHotspot, 0.6, {2, 5, 5}, false},
        Case{TrafficPattern::kHotspot, 0.5, {0, 7}, true}}) {
    TrafficConfig c;
    c.pattern = k.p;
    c.hotspot_fraction = k.fraction;
    c.hotspot_nodes = k.hot;
    c.self_traffic = k.self;
    const DestinationPattern pattern(t, c);
    const TrafficMatrix m(t, pattern);
    const auto matrix = dense(t, m);
    for (std::uint32_t s : {0U, 2U, 5U, 11U}) {
      SCOPED_TRACE("source " + std::to_string(s) + ", hotspots " + std::to_string(k.hot.size()));
      double row = 0;
      for (double x : matrix[s]) row += x;
      // Without self-traffic every message leaves its source: the shares sum to 1; with it a
      // uniform draw of itself (1/N) stays home.
      if (!k.self) {
        EXPECT_NEAR(row, 1.0, 1e-12);
      }
      int cells = 0;
      const double x2 = chi2(pattern, matrix[s], NodeId(s), 120000, cells);
      // At most 11 cells (10 degrees of freedom): the 99.99% quantile is 35.6.
      EXPECT_LT(x2, 35.6) << "cells " << cells;
    }
  }
}

// Hotspot by hand: 12 nodes, fraction 0.6, list {2, 5, 5} (node 5 twice). From source 0:
// T(0, 5) = 0.6 x 2/3 + 0.4 / 11 = 0.43636..., T(0, 2) = 0.6 / 3 + 0.4 / 11, any other d:
// 0.4 / 11. From source 5 (two entries naming itself: drawn uniformly instead):
// T(5, 2) = 0.6 / 3 + (0.4 + 0.6 x 2/3) / 11, T(5, d) = (0.4 + 0.4) / 11 otherwise.
TEST(TrafficMatrix, HotspotByHand) {
  const Torus t({3, 4}, true);
  TrafficConfig c;
  c.pattern = TrafficPattern::kHotspot;
  c.hotspot_fraction = 0.6;
  c.hotspot_nodes = {2, 5, 5};
  const DestinationPattern pattern(t, c);
  const auto m = dense(t, TrafficMatrix(t, pattern));
  EXPECT_NEAR(m[0][5], 0.4 + 0.4 / 11, 1e-15);
  EXPECT_NEAR(m[0][2], 0.2 + 0.4 / 11, 1e-15);
  EXPECT_NEAR(m[0][7], 0.4 / 11, 1e-15);
  EXPECT_NEAR(m[5][2], 0.2 + 0.8 / 11, 1e-15);
  EXPECT_NEAR(m[5][7], 0.8 / 11, 1e-15);
  EXPECT_EQ(m[5][5], 0.0);
  EXPECT_EQ(TrafficMatrix(t, pattern).pairs(), 12U * 11U);
  // Fraction 1: only the pairs into a hotspot and out of one (a hotspot's draw of itself is
  // sent uniformly): 12 x 11 - 10 x 9 of the 2 distinct hotspots' rows and columns.
  c.hotspot_fraction = 1.0;
  const DestinationPattern all_hot(t, c);
  const TrafficMatrix hot(t, all_hot);
  const auto h = dense(t, hot);
  std::uint64_t positive = 0;
  for (const auto& row : h) {
    for (double x : row) positive += x > 0 ? 1 : 0;
  }
  EXPECT_EQ(positive, 12U * 11U - 10U * 9U);
  EXPECT_EQ(hot.pairs(), positive);
  EXPECT_NEAR(h[0][5], 2.0 / 3, 1e-15);
  EXPECT_NEAR(h[5][2], 1.0 / 3 + (2.0 / 3) / 11, 1e-15);
}

// neighbor on H_2 maps some nodes onto one (the first existing port in X, Y, Z order): a
// column holds every source mapped there.
TEST(TrafficMatrix, FixedPatternsThatAreNoPermutation) {
  const HoneycombMesh h(2);
  TrafficConfig c;
  c.pattern = TrafficPattern::kNeighbor;
  const DestinationPattern pattern(h, c);
  const TrafficMatrix m(h, pattern);
  const auto matrix = dense(h, m);
  std::vector<int> into(24, 0);
  for (std::uint32_t s = 0; s < 24; ++s) {
    const std::uint32_t d = pattern.fixed_destination(NodeId(s)).value();
    EXPECT_EQ(matrix[s][d], 1.0);
    ++into[d];
  }
  EXPECT_GT(*std::max_element(into.begin(), into.end()), 1) << "not a permutation on H_2";
  EXPECT_EQ(m.pairs(), 24U);
}

TEST(TrafficMatrix, UniformAndAllToAllAreUniform) {
  const HoneycombMesh h(2);
  for (TrafficPattern p : {TrafficPattern::kUniform, TrafficPattern::kAllToAll}) {
    TrafficConfig c;
    c.pattern = p;
    const DestinationPattern pattern(h, c);
    const TrafficMatrix m(h, pattern);
    EXPECT_TRUE(m.uniform());
    EXPECT_EQ(m.pairs(), 24U * 23U);
    const auto matrix = dense(h, m);
    EXPECT_NEAR(matrix[3][17], 1.0 / 23, 1e-15);
  }
}

// --drop-unroutable: messages to the pairs a filter refuses are drawn, then dropped, so those
// pairs carry nothing. By hand on the 12-node torus: a permutation whose source 0's one pair
// is dropped has source 0 silent; uniform traffic with every pair into node 5 dropped and
// the pair 3 -> 7 dropped keeps 12 x 11 - 11 - 1 = 120 pairs of share 1/11 each (the dropped
// messages are not drawn again), and is no longer the uniform analysis.
TEST(TrafficMatrix, DroppedPairsCarryNothing) {
  const Torus t({3, 4}, true);
  const auto filter = [](NodeId s, NodeId d) {
    return s.value() != 0 && d.value() != 5 && !(s.value() == 3 && d.value() == 7);
  };
  TrafficConfig c;
  c.pattern = TrafficPattern::kTornado;
  DestinationPattern tornado(t, c);
  const TrafficMatrix before(t, tornado);
  tornado.drop_unless(filter);
  const TrafficMatrix after(t, tornado);
  std::uint32_t into_five = 0;  // tornado sources mapped onto node 5 (their pairs dropped)
  for (std::uint32_t s = 1; s < 12; ++s) {
    const NodeId d = tornado.fixed_destination(NodeId(s));
    into_five += d.value() == 5 && !tornado.silent(NodeId(s)) ? 1 : 0;
  }
  const std::uint32_t three = tornado.fixed_destination(NodeId(3)).value() == 7 ? 1 : 0;
  const std::uint32_t zero = tornado.silent(NodeId(0)) ? 0 : 1;
  EXPECT_EQ(after.silent(), before.silent() + zero + into_five + three);
  EXPECT_EQ(after.pairs(), before.pairs() - zero - into_five - three);
  const auto m = dense(t, after);
  for (std::uint32_t d = 0; d < 12; ++d) EXPECT_EQ(m[0][d], 0.0);

  c.pattern = TrafficPattern::kUniform;
  DestinationPattern uniform(t, c);
  uniform.drop_unless(filter);
  const TrafficMatrix u(t, uniform);
  EXPECT_FALSE(u.uniform());
  EXPECT_EQ(u.pairs(), 12U * 11U - 11U - 11U + 1U - 1U);  // source 0, into 5 (0->5 once), 3->7
  const auto mu = dense(t, u);
  for (std::uint32_t s = 0; s < 12; ++s) EXPECT_EQ(mu[s][5], 0.0);
  EXPECT_EQ(mu[3][7], 0.0);
  EXPECT_NEAR(mu[3][8], 1.0 / 11, 1e-15);
  double row = 0;
  for (double x : mu[3]) row += x;
  EXPECT_NEAR(row, 9.0 / 11, 1e-12);  // 3 -> 5 and 3 -> 7 dropped
}

}  // namespace
}  // namespace wormnet
