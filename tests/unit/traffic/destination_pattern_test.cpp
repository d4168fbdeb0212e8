#include "wormnet/traffic/destination_pattern.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {
namespace {

TrafficConfig pattern(TrafficPattern p) {
  TrafficConfig t;
  t.pattern = p;
  return t;
}

TEST(DestinationPattern, UniformNeverPicksTheSourceAndIsFlat) {
  const Torus t({4, 4}, true);
  const DestinationPattern d(t, pattern(TrafficPattern::kUniform));
  RandomStream rng(5, 3);
  std::vector<int> hits(16, 0);
  const int draws = 150000;
  for (int i = 0; i < draws; ++i) ++hits[d.destination(NodeId(3), rng, i).value()];
  EXPECT_EQ(hits[3], 0);
  // Chi-square over the 15 other nodes; 14 degrees of freedom, 99.9% quantile ~ 36.1.
  const double expected = draws / 15.0;
  double chi2 = 0;
  for (int n = 0; n < 16; ++n) {
    if (n != 3) chi2 += (hits[n] - expected) * (hits[n] - expected) / expected;
  }
  EXPECT_LT(chi2, 36.1);
}

TEST(DestinationPattern, UniformWithSelfTrafficIsFlatOverAllNodes) {
  const Torus t({4, 4}, true);
  TrafficConfig c = pattern(TrafficPattern::kUniform);
  c.self_traffic = true;
  const DestinationPattern d(t, c);
  RandomStream rng(5, 3);
  std::vector<int> hits(16, 0);
  const int draws = 160000;
  for (int i = 0; i < draws; ++i) ++hits[d.destination(NodeId(3), rng, i).value()];
  // Chi-square over all 16 nodes, the source included; 15 degrees of freedom, 99.9% ~ 37.7.
  const double expected = draws / 16.0;
  double chi2 = 0;
  for (int n = 0; n < 16; ++n) chi2 += (hits[n] - expected) * (hits[n] - expected) / expected;
  EXPECT_LT(chi2, 37.7);
  EXPECT_GT(hits[3], 0);
}

TEST(DestinationPattern, HoneycombTransposeSwapsXAndYAndSilencesTheDiagonal) {
  const HoneycombMesh h(4);
  const DestinationPattern d(h, pattern(TrafficPattern::kTranspose));
  RandomStream rng(1, 1);
  for (std::uint32_t n = 0; n < h.num_nodes(); ++n) {
    const Coord c = h.coords(NodeId(n));
    if (c[0] == c[1]) {
      EXPECT_TRUE(d.silent(NodeId(n)));
      EXPECT_FALSE(d.destination(NodeId(n), rng, 0).valid());
      continue;
    }
    const NodeId m = d.destination(NodeId(n), rng, 0);
    ASSERT_TRUE(m.valid());
    const Coord e = h.coords(m);
    EXPECT_EQ(e[0], c[1]);
    EXPECT_EQ(e[1], c[0]);
    EXPECT_EQ(e[2], c[2]);
    EXPECT_EQ(d.destination(m, rng, 0), NodeId(n));  // an involution
  }
}

TEST(DestinationPattern, HoneycombBitComplementIsTheAntipode) {
  const HoneycombMesh h(3);
  const DestinationPattern d(h, pattern(TrafficPattern::kBitComplement));
  RandomStream rng(1, 1);
  for (std::uint32_t n = 0; n < h.num_nodes(); ++n) {
    const NodeId m = d.destination(NodeId(n), rng, 0);
    ASSERT_TRUE(m.valid());  // 1 - x = x has no integer solution: nobody is silent
    const Coord c = h.coords(NodeId(n));
    const Coord e = h.coords(m);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(e[i], 1 - c[i]);
    EXPECT_NE(h.color(m), h.color(NodeId(n)));
  }
}

TEST(DestinationPattern, HoneycombNeighborIsAdjacent) {
  const HoneycombMesh h(4);
  const DestinationPattern d(h, pattern(TrafficPattern::kNeighbor));
  RandomStream rng(1, 1);
  for (std::uint32_t n = 0; n < h.num_nodes(); ++n) {
    EXPECT_EQ(h.distance(NodeId(n), d.destination(NodeId(n), rng, 0)), 1);
  }
}

// HT_t has H_t's nodes in H_t's order, so every pattern sends each node to the same node as
// on H_t (H_t is symmetric in x and y and under (x,y,z) -> (1-x,1-y,1-z)); the rectangular
// torus is not symmetric in x and y, and transpose there is refused rather than folded.
TEST(DestinationPattern, HoneycombTorusPatternsAreThoseOfHt) {
  const HoneycombMesh mesh(4);
  const HoneycombTorus torus(HoneycombTorusShape::kHexagonal, 4);
  for (const auto p : {TrafficPattern::kTranspose, TrafficPattern::kBitComplement,
                       TrafficPattern::kTornado, TrafficPattern::kNeighbor}) {
    const DestinationPattern a(mesh, pattern(p));
    const DestinationPattern b(torus, pattern(p));
    RandomStream rng(1, 1);
    for (std::uint32_t n = 0; n < mesh.num_nodes(); ++n) {
      const NodeId da = a.destination(NodeId(n), rng, 0);
      const NodeId db = b.destination(NodeId(n), rng, 0);
      if (p == TrafficPattern::kNeighbor) {
        // The first port in X, Y, Z order: on the torus every node has all three, on H_t a
        // boundary node may lack X; both are adjacent.
        EXPECT_EQ(torus.distance(NodeId(n), db), 1);
        continue;
      }
      EXPECT_EQ(da, db) << mesh.node_label(NodeId(n));
    }
  }
  const HoneycombTorus rect(HoneycombTorusShape::kRectangular, 6, 8);
  EXPECT_THROW(DestinationPattern(rect, pattern(TrafficPattern::kTranspose)), InputError);
  // The point reflection maps the rectangular torus onto itself: a permutation.
  const DestinationPattern c(rect, pattern(TrafficPattern::kBitComplement));
  std::set<std::uint32_t> image;
  RandomStream rng(1, 1);
  for (std::uint32_t n = 0; n < rect.num_nodes(); ++n) {
    const NodeId d = c.destination(NodeId(n), rng, 0);
    ASSERT_TRUE(d.valid());
    const Coord a = rect.coords(NodeId(n));
    EXPECT_EQ(rect.lattice_node(1 - a[0], 1 - a[1], 1 - a[2]), d);
    EXPECT_NE(rect.black(NodeId(n)), rect.black(d));
    image.insert(d.value());
  }
  EXPECT_EQ(image.size(), rect.num_nodes());
}

TEST(DestinationPattern, TorusTornadoAndComplementAndNeighbor) {
  const Torus t({5, 4, 2}, true);
  RandomStream rng(1, 1);
  const DestinationPattern tornado(t, pattern(TrafficPattern::kTornado));
  const DestinationPattern complement(t, pattern(TrafficPattern::kBitComplement));
  const DestinationPattern neighbor(t, pattern(TrafficPattern::kNeighbor));
  for (std::uint32_t n = 0; n < t.num_nodes(); ++n) {
    const Coord c = t.coords(NodeId(n));
    // Tornado: ceil(k/2) - 1 along every dimension: +2 mod 5, +1 mod 4, +0 mod 2.
    const Coord a = t.coords(tornado.destination(NodeId(n), rng, 0));
    EXPECT_EQ(a[0], (c[0] + 2) % 5);
    EXPECT_EQ(a[1], (c[1] + 1) % 4);
    EXPECT_EQ(a[2], c[2]);
    const Coord b = t.coords(complement.destination(NodeId(n), rng, 0));
    EXPECT_EQ(b[0], 4 - c[0]);
    EXPECT_EQ(b[1], 3 - c[1]);
    EXPECT_EQ(b[2], 1 - c[2]);
    const Coord e = t.coords(neighbor.destination(NodeId(n), rng, 0));
    EXPECT_EQ(e[0], (c[0] + 1) % 5);
  }
}

TEST(DestinationPattern, TorusTransposeIsAPermutation) {
  // Equal sizes: coordinates reversed. 8x4 (32 nodes): the 5 index bits rotated by 2.
  const Torus square({4, 4, 4}, true);
  const DestinationPattern d(square, pattern(TrafficPattern::kTranspose));
  RandomStream rng(1, 1);
  const NodeId n = square.node_at(Coord{{1, 2, 3}, 3});
  EXPECT_EQ(square.coords(d.destination(n, rng, 0)), (Coord{{3, 2, 1}, 3}));
  const Torus flat({8, 4}, true);
  const DestinationPattern r(flat, pattern(TrafficPattern::kTranspose));
  std::set<std::uint32_t> image;
  for (std::uint32_t i = 0; i < 32; ++i) {
    const std::uint32_t expect = ((i << 2) | (i >> 3)) & 31U;
    const NodeId m = r.destination(NodeId(i), rng, 0);
    if (expect == i) {
      EXPECT_TRUE(r.silent(NodeId(i)));
      image.insert(i);
    } else {
      EXPECT_EQ(m.value(), expect);
      image.insert(m.value());
    }
  }
  EXPECT_EQ(image.size(), 32U);
  EXPECT_THROW(DestinationPattern(Torus({3, 5}, true), pattern(TrafficPattern::kTranspose)),
               InputError);
}

TEST(DestinationPattern, AllToAllVisitsEveryOtherNodeOncePerRound) {
  const HoneycombMesh h(2);
  const DestinationPattern d(h, pattern(TrafficPattern::kAllToAll));
  RandomStream rng(1, 1);
  for (std::uint32_t s = 0; s < h.num_nodes(); ++s) {
    std::set<std::uint32_t> seen;
    for (std::uint64_t i = 0; i + 1 < h.num_nodes(); ++i) {
      seen.insert(d.destination(NodeId(s), rng, i).value());
    }
    EXPECT_EQ(seen.size(), h.num_nodes() - 1);
    EXPECT_EQ(seen.count(s), 0U);
  }
}

TEST(DestinationPattern, HotspotSendsItsShareToTheHotspots) {
  const Torus t({8, 8}, true);
  TrafficConfig c = pattern(TrafficPattern::kHotspot);
  c.hotspot_fraction = 0.3;
  c.hotspot_nodes = {10, 20};
  const DestinationPattern d(t, c);
  RandomStream rng(9, 9);
  int hot = 0;
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) {
    const auto m = d.destination(NodeId(0), rng, i).value();
    hot += m == 10 || m == 20;
  }
  // 30% directly, plus the uniform 70% hitting either hotspot with probability 2/63.
  const double p = 0.3 + 0.7 * 2.0 / 63.0;
  EXPECT_NEAR(hot / double(draws), p, 4 * std::sqrt(p * (1 - p) / draws));
}

}  // namespace
}  // namespace wormnet
