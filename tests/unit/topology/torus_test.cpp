#include "wormnet/topology/torus.hpp"

#include <gtest/gtest.h>

#include "../../support/bfs.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

TEST(Torus, CountsForRingsAndMeshLinks) {
  const Torus t({8, 8, 8}, true);
  EXPECT_EQ(t.num_nodes(), 512U);
  EXPECT_EQ(t.num_links(), 3U * 512U);  // every node: one + link per dimension
  const Torus m({16, 16}, false);
  EXPECT_EQ(m.num_links(), 2U * 16U * 15U);
  EXPECT_EQ(m.diameter(), 30);
}

TEST(Torus, SizeTwoDimensionIsOneLinkNotTwo) {
  const Torus t({3, 5, 7, 2}, true);
  // Rings of 3, 5, 7 give N links each; the size-2 dimension gives N/2.
  const std::uint32_t n = 3 * 5 * 7 * 2;
  EXPECT_EQ(t.num_links(), 3 * n + n / 2);
  for (std::uint32_t u = 0; u < n; ++u) {
    EXPECT_EQ(t.degree(NodeId(u)), 7);
    // Exactly one of the K+ / K- ports exists.
    EXPECT_NE(t.has_port(NodeId(u), 6), t.has_port(NodeId(u), 7));
  }
  const Torus pair({2}, true);
  EXPECT_EQ(pair.num_links(), 1U);
  EXPECT_EQ(pair.diameter(), 1);
}

TEST(Torus, DistanceAgreesWithBfs) {
  for (const auto& [sizes, wrap] : std::vector<std::pair<std::vector<int>, bool>>{
           {{8, 8}, true}, {{5, 3, 2}, true}, {{4, 6}, false}, {{7}, true}, {{3, 2, 4}, false}}) {
    const Torus t(sizes, wrap);
    int diameter = 0;
    for (std::uint32_t a = 0; a < t.num_nodes(); ++a) {
      const auto dist = test::bfs_distances(t, NodeId(a));
      for (std::uint32_t b = 0; b < t.num_nodes(); ++b) {
        ASSERT_EQ(t.distance(NodeId(a), NodeId(b)), dist[b]) << t.spec();
        diameter = std::max(diameter, dist[b]);
      }
    }
    EXPECT_EQ(t.diameter(), diameter) << t.spec();
  }
}

TEST(Torus, CoordinatesRoundTrip) {
  const Torus t({3, 5, 7, 2}, true);
  for (std::uint32_t u = 0; u < t.num_nodes(); ++u) {
    const Coord c = t.coords(NodeId(u));
    EXPECT_EQ(t.node_at(c), NodeId(u));
    for (int d = 0; d < 4; ++d) EXPECT_EQ(t.coord(NodeId(u), d), c[d]);
  }
}

// coord() divides by multiplying with reciprocals: it must agree with plain division on every
// node, for sizes that are primes, powers of two and neither, in every position.
TEST(Torus, CoordinateByReciprocalsAgreesWithDivision) {
  for (const std::vector<int>& sizes : std::vector<std::vector<int>>{{7, 13, 5},
                                                                     {97, 3},
                                                                     {2, 2, 2, 2, 2, 2},
                                                                     {256, 255},
                                                                     {3, 1024},
                                                                     {65537},
                                                                     {6, 10, 14, 3}}) {
    const Torus t(sizes, true);
    for (std::uint32_t n = 0; n < t.num_nodes(); ++n) {
      std::uint32_t rest = n;
      for (int d = 0; d < t.num_dims(); ++d) {
        ASSERT_EQ(t.coord(NodeId(n), d),
                  static_cast<int>(rest % static_cast<std::uint32_t>(t.size(d))))
            << t.spec() << " node " << n << " dim " << d;
        rest /= static_cast<std::uint32_t>(t.size(d));
      }
    }
  }
}

TEST(Torus, ChannelsAreDenseAndLabelled) {
  const Torus t({4, 4}, true);
  std::vector<int> hits(t.num_channels(), 0);
  for (std::uint32_t u = 0; u < t.num_nodes(); ++u) {
    for (int p = 0; p < t.num_ports(); ++p) {
      const ChannelId c = t.channel(NodeId(u), static_cast<PortId>(p));
      ASSERT_TRUE(c.valid());
      ++hits[c.value()];
      EXPECT_EQ(t.channel_source(c), NodeId(u));
      EXPECT_EQ(t.channel_port(c), p);
    }
  }
  for (int h : hits) EXPECT_EQ(h, 1);
  EXPECT_EQ(t.channel_label(t.channel(t.node_at(Coord{{1, 2}, 2}), 3)), "(1,2) Y-");
}

TEST(Torus, RejectsBadSizes) {
  EXPECT_THROW(Torus({4, 1}, true), InputError);
  EXPECT_THROW(Torus({0, 4}, true), InputError);
  EXPECT_THROW(Torus({2, 2, 2, 2, 2, 2, 2}, true), InputError);
  EXPECT_THROW(Torus({}, true), InputError);
}

}  // namespace
}  // namespace wormnet
