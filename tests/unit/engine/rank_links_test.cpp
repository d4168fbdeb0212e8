// A rank's links on a hand-drawn case: the ring torus:8 cut into three parts, seen from the
// part that owns nodes 0, 1 and 2 (port 0 leads to node + 1, port 1 to node - 1).
#include "wormnet/engine/rank_links.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

TEST(RankLinks, ARingCutInThreeFromItsFirstPart) {
  const auto topo = make_topology("torus:8");
  const Partition partition({0, 0, 0, 1, 1, 1, 2, 2}, 3, "by hand");
  RankLinks links(*topo, partition, 0, partition.nodes_of(0));
  constexpr std::uint32_t kRemote = RankLinks::kRemoteBit;
  // Two ports: two slots a router.
  EXPECT_EQ(links.slots(), 6U);
  EXPECT_EQ(links.slot(2, 1), 5U);
  EXPECT_EQ(links.link(0, 0), 1U);
  EXPECT_EQ(links.link(1, 0), 2U);
  EXPECT_EQ(links.link(1, 1), 0U);
  EXPECT_EQ(links.link(2, 1), 1U);
  ASSERT_TRUE(RankLinks::remote(links.link(0, 1)));  // to node 7, of part 2
  ASSERT_TRUE(RankLinks::remote(links.link(2, 0)));  // to node 3, of part 1
  const RankLinks::RemoteEnd& west = links.remote_end(links.link(0, 1) & ~kRemote);
  const RankLinks::RemoteEnd& east = links.remote_end(links.link(2, 0) & ~kRemote);
  EXPECT_EQ(west.node, 7U);
  EXPECT_EQ(west.rank, 2U);
  EXPECT_EQ(east.node, 3U);
  EXPECT_EQ(east.rank, 1U);
  EXPECT_EQ(links.neighbor_ranks(), (std::vector<int>{1, 2}));
  EXPECT_EQ(links.links_to(1), 1U);
  EXPECT_EQ(links.links_to(2), 1U);
  EXPECT_EQ(links.links_to(0), 0U);
  EXPECT_TRUE(links.boundary(0));
  EXPECT_FALSE(links.boundary(1));
  EXPECT_TRUE(links.boundary(2));
  EXPECT_EQ(links.boundary_words(), (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(links.local(2), 2U);
  EXPECT_FALSE(links.mine(5));
  EXPECT_EQ(links.local(5), RankLinks::kNoLink);
  EXPECT_EQ(links.outboxes().size(), 3U);
}

// local() against each node's position in its part's list, brute force, for parts of a
// ring of 300 that are one block, a few blocks, or RankLinks::kMostRuns and more single
// nodes (where the map of every node replaces the runs).
TEST(RankLinks, LocalIndexesAreThePositionsInThePartsList) {
  const auto topo = make_topology("torus:300");
  const auto check = [&](const std::vector<std::uint16_t>& owner, int parts) {
    const Partition partition(owner, parts, "by hand");
    for (int part = 0; part < parts; ++part) {
      const std::vector<std::uint32_t> nodes = partition.nodes_of(part);
      const RankLinks links(*topo, partition, part, nodes);
      for (std::uint32_t n = 0; n < owner.size(); ++n) {
        const auto at = std::find(nodes.begin(), nodes.end(), n);
        const std::uint32_t expected =
            at != nodes.end() ? static_cast<std::uint32_t>(at - nodes.begin()) : RankLinks::kNoLink;
        ASSERT_EQ(links.local(n), expected) << part << " " << n;
        ASSERT_EQ(links.mine(n), at != nodes.end()) << part << " " << n;
      }
    }
  };
  std::vector<std::uint16_t> owner(300);
  for (std::size_t n = 0; n < owner.size(); ++n) owner[n] = n < 100 ? 0 : n < 210 ? 1 : 2;
  check(owner, 3);  // one run each
  for (std::size_t n = 0; n < owner.size(); ++n) owner[n] = (n / 7) % 2 == 0 ? 0 : 1;
  check(owner, 2);  // 22 and 21 runs of 7 (and 6) nodes
  for (std::size_t n = 0; n < owner.size(); ++n) owner[n] = static_cast<std::uint16_t>(n % 2);
  static_assert(150 > RankLinks::kMostRuns);
  check(owner, 2);  // 150 runs each: the map
  owner.assign(300, 0);
  owner[299] = 1;
  check(owner, 2);  // one run and a single node
}

TEST(RankLinks, SendsKeepTheLookaheadAndStreamsRememberTheirPacket) {
  const auto topo = make_topology("torus:8");
  const Partition partition({0, 0, 0, 1, 1, 1, 2, 2}, 3, "by hand");
  RankLinks links(*topo, partition, 0, partition.nodes_of(0));
  const std::uint32_t east = links.link(2, 0) & ~RankLinks::kRemoteBit;
  links.set_window_end(10);
  EXPECT_ANY_THROW(links.outbox(east, 9, "too early"));
  EXPECT_EQ(&links.outbox(east, 10, "too early"), &links.outboxes()[1]);
  links.stream_in(7, 3);
  EXPECT_EQ(links.streaming(7), 3U);
  EXPECT_EQ(links.streaming(6), RankLinks::kNoLink);
  links.stream_ends(7);
  EXPECT_EQ(links.streaming(7), RankLinks::kNoLink);
}

}  // namespace
}  // namespace wormnet
