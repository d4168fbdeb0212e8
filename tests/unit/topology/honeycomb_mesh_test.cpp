#include "wormnet/topology/honeycomb_mesh.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <set>

#include "../../support/bfs.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

// Stojmenovic's Lemmas (restated in Yin et al.): 6t^2 nodes, 9t^2-3t links, 6t nodes of degree
// 2, all others degree 3, diameter 4t-1.
class HoneycombSizes : public ::testing::TestWithParam<int> {};

TEST_P(HoneycombSizes, CountsMatchStojmenovicLemmas) {
  const int t = GetParam();
  const HoneycombMesh h(t);
  EXPECT_EQ(h.num_nodes(), static_cast<std::uint32_t>(6 * t * t));
  EXPECT_EQ(h.num_links(), static_cast<std::uint32_t>(9 * t * t - 3 * t));
  EXPECT_EQ(h.num_channels(), 2 * h.num_links());
  int deg2 = 0;
  for (std::uint32_t n = 0; n < h.num_nodes(); ++n) {
    const int d = h.degree(NodeId(n));
    ASSERT_TRUE(d == 2 || d == 3) << h.node_label(NodeId(n));
    deg2 += d == 2;
  }
  EXPECT_EQ(deg2, 6 * t);
}

TEST_P(HoneycombSizes, CoordinatesRoundTripAndSatisfyDefinition) {
  const int t = GetParam();
  const HoneycombMesh h(t);
  std::set<std::tuple<int, int, int>> seen;
  for (std::uint32_t n = 0; n < h.num_nodes(); ++n) {
    const Coord c = h.coords(NodeId(n));
    for (int i = 0; i < 3; ++i) {
      EXPECT_GE(c[i], 1 - t);
      EXPECT_LE(c[i], t);
    }
    const int s = c[0] + c[1] + c[2];
    EXPECT_TRUE(s == 1 || s == 2);
    EXPECT_EQ(h.node_at(c), NodeId(n));
    EXPECT_TRUE(seen.insert({c[0], c[1], c[2]}).second);
  }
  // Every integer triple that satisfies the definition is a node.
  int count = 0;
  for (int x = 1 - t; x <= t; ++x)
    for (int y = 1 - t; y <= t; ++y)
      for (int z = 1 - t; z <= t; ++z)
        if (x + y + z == 1 || x + y + z == 2) {
          ++count;
          EXPECT_TRUE(h.node_at(x, y, z).valid());
        }
  EXPECT_EQ(count, 6 * t * t);
  EXPECT_FALSE(h.node_at(t + 1, 0, 0).valid());
  EXPECT_FALSE(h.node_at(0, 0, 0).valid());
  // Coordinates far outside (a fault file may name any integers): no node, and no signed
  // overflow on the way (x + y + z of these overflowed an int; the sanitizer build aborts).
  constexpr int kMax = std::numeric_limits<int>::max();
  constexpr int kMin = std::numeric_limits<int>::min();
  EXPECT_FALSE(h.node_at(78020690, 2100050000, 1).valid());
  EXPECT_FALSE(h.node_at(kMax, kMax, 3).valid());
  EXPECT_FALSE(h.node_at(kMin, kMin, 1).valid());
  EXPECT_FALSE(h.node_at(1, kMax, kMax).valid());
}

TEST_P(HoneycombSizes, AdjacencyIsExactlyUnitDifferenceInOneCoordinate) {
  const int t = GetParam();
  const HoneycombMesh h(t);
  for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
    const Coord ca = h.coords(NodeId(a));
    int neighbours = 0;
    for (std::uint32_t b = 0; b < h.num_nodes(); ++b) {
      const Coord cb = h.coords(NodeId(b));
      int diff = 0;
      int total = 0;
      for (int i = 0; i < 3; ++i) {
        diff += ca[i] != cb[i];
        total += std::abs(ca[i] - cb[i]);
      }
      if (diff == 1 && total == 1) ++neighbours;
    }
    EXPECT_EQ(neighbours, h.degree(NodeId(a)));
    // Bipartite: black (sum 1) nodes have only + links, white only - links.
    const bool black = h.color(NodeId(a)) == HoneycombColor::kBlack;
    EXPECT_EQ(black, ca[0] + ca[1] + ca[2] == 1);
    for (int p = 0; p < 6; ++p) {
      const NodeId b = h.neighbor(NodeId(a), static_cast<PortId>(p));
      if (!b.valid()) continue;
      EXPECT_EQ(Topology::port_sign(static_cast<PortId>(p)) > 0, black);
      EXPECT_NE(h.color(b), h.color(NodeId(a)));
    }
  }
}

TEST_P(HoneycombSizes, DistanceFormulaAndDiameterAgreeWithBfs) {
  const int t = GetParam();
  const HoneycombMesh h(t);
  int diameter = 0;
  for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
    const auto dist = test::bfs_distances(h, NodeId(a));
    for (std::uint32_t b = 0; b < h.num_nodes(); ++b) {
      ASSERT_EQ(h.distance(NodeId(a), NodeId(b)), dist[b])
          << h.node_label(NodeId(a)) << " -> " << h.node_label(NodeId(b));
      diameter = std::max(diameter, dist[b]);
    }
  }
  EXPECT_EQ(diameter, 4 * t - 1);
  EXPECT_EQ(h.diameter(), diameter);
}

INSTANTIATE_TEST_SUITE_P(SmallT, HoneycombSizes, ::testing::Values(1, 2, 3, 4, 6));

TEST(HoneycombMesh, PaperExamplePathFromS121ToD100IsThreeHops) {
  // Zhang & Yang: S(1,2,-1) -> D(1,0,0) takes Y-, Z+, Y-.
  const HoneycombMesh h(3);
  EXPECT_EQ(h.distance(h.node_at(1, 2, -1), h.node_at(1, 0, 0)), 3);
  EXPECT_EQ(h.color(h.node_at(1, 2, -1)), HoneycombColor::kWhite);
}

TEST(HoneycombMesh, RejectsNonPositiveT) {
  EXPECT_THROW(HoneycombMesh(0), InputError);
  EXPECT_THROW(HoneycombMesh(-3), InputError);
}

}  // namespace
}  // namespace wormnet
