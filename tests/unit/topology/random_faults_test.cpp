// Random faults: drawn from the seed and the topology only, exactly as many as asked, never
// splitting the working nodes unless allowed (checked by an independent search), refused in
// one line when the count cannot be reached.
#include "wormnet/topology/random_faults.hpp"

#include <gtest/gtest.h>

#include "../../support/faulty_network.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

test::ReferenceNetwork reference(const Topology& topo, const FaultSet& faults) {
  std::vector<std::uint32_t> nodes;
  for (const NodeId n : faults.failed_nodes()) nodes.push_back(n.value());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  for (const ChannelId c : faults.failed_links()) {
    links.emplace_back(topo.channel_source(c).value(), topo.channel_dest(c).value());
  }
  return test::ReferenceNetwork(topo, nodes, links);
}

FaultSet draw(const Topology& topo, std::uint64_t nodes, std::uint64_t links, std::uint64_t seed,
              bool allow = false) {
  FaultSet f(topo);
  draw_random_faults(topo, f, nodes, links, seed, allow);
  return f;
}

TEST(RandomFaults, TheSameSeedDrawsTheSameSet) {
  const auto topo = make_topology("torus:6x6");
  const FaultSet a = draw(*topo, 2, 5, 7);
  const FaultSet b = draw(*topo, 2, 5, 7);
  EXPECT_TRUE(a.same_faults(b));
  EXPECT_EQ(a.failed_links(), b.failed_links());  // in the same order
  int differ = 0;
  for (std::uint64_t seed = 8; seed < 12; ++seed)
    differ += draw(*topo, 2, 5, seed).same_faults(a) ? 0 : 1;
  EXPECT_EQ(differ, 4);
}

TEST(RandomFaults, NeverSplitsTheWorkingNodesUnlessAllowed) {
  // mesh:4x4 has 24 links and needs 15 to stay connected: at most 9 can fail.
  const auto topo = make_topology("mesh:4x4");
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const FaultSet f = draw(*topo, 0, 9, seed);
    EXPECT_EQ(f.failed_links().size(), 9U);
    EXPECT_EQ(reference(*topo, f).components(), 1U) << seed;
    // Nodes: 13 of 16 may fail, and what is left stays in one piece.
    const FaultSet g = draw(*topo, 13, 0, seed);
    EXPECT_EQ(g.failed_nodes().size(), 13U);
    EXPECT_EQ(reference(*topo, g).components(), 1U) << seed;
  }
  try {
    draw(*topo, 0, 10, 1);
    ADD_FAILURE() << "10 links fail on mesh:4x4 without splitting it";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--fail-links");
    EXPECT_EQ(e.allowed(),
              "only 9 links of mesh:4x4 can fail without splitting the working nodes (pass "
              "--allow-disconnected to let them split)");
  }
  // Allowed: 20 links of 24 fail, and the network falls apart.
  const FaultSet split = draw(*topo, 0, 20, 3, true);
  EXPECT_EQ(split.failed_links().size(), 20U);
  EXPECT_GT(reference(*topo, split).components(), 1U);
}

TEST(RandomFaults, CountsBeyondTheNetworkAreRefused) {
  const auto topo = make_topology("mesh:3x3");
  EXPECT_THROW(draw(*topo, 8, 0, 1), InputError);         // two nodes must stay
  EXPECT_THROW(draw(*topo, 0, 13, 1, true), InputError);  // 12 links
  const FaultSet f = draw(*topo, 7, 0, 5);
  EXPECT_EQ(f.working_nodes(), 2U);
  EXPECT_EQ(reference(*topo, f).components(), 1U);  // two neighbours
}

TEST(RandomFaults, DrawsAmongTheWorkingOnesAfterTheFilesFaults) {
  const auto topo = make_topology("torus:4x4");
  FaultSet f(*topo);
  f.fail_node(NodeId(5));
  draw_random_faults(*topo, f, 2, 3, 11, false);
  EXPECT_EQ(f.failed_nodes().size(), 3U);
  EXPECT_EQ(f.failed_links().size(), 3U);
  for (const ChannelId c : f.failed_links()) {
    EXPECT_FALSE(f.node_failed(topo->channel_source(c)));
    EXPECT_FALSE(f.node_failed(topo->channel_dest(c)));
  }
}

}  // namespace
}  // namespace wormnet
