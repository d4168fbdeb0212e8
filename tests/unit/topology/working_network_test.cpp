// The working network of a topology with faults: connectivity, diameter, average distance
// and the counts `info` prints, against an independent breadth-first search over adjacency
// lists rebuilt by hand (tests/support/faulty_network.hpp), on every topology kind; and a
// case worked out by hand.
#include "wormnet/topology/working_network.hpp"

#include <gtest/gtest.h>

#include "../../support/faulty_network.hpp"
#include "wormnet/topology/random_faults.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/topology_metrics.hpp"

namespace wormnet {
namespace {

/// The reference network of `faults`: its failed nodes, and its failed links as node pairs.
test::ReferenceNetwork reference(const Topology& topo, const FaultSet& faults) {
  std::vector<std::uint32_t> nodes;
  for (const NodeId n : faults.failed_nodes()) nodes.push_back(n.value());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  for (const ChannelId c : faults.failed_links()) {
    links.emplace_back(topo.channel_source(c).value(), topo.channel_dest(c).value());
  }
  return test::ReferenceNetwork(topo, nodes, links);
}

TEST(WorkingNetwork, HandWorkedTorusWithOneFailedLink) {
  // torus:4x4 without the link (0,0)-(1,0): only the two nodes of the link get farther apart,
  // 1 -> 3 hops (round by Y: (0,0) (0,1) (1,1) (1,0)); every other pair keeps a shortest
  // path. Fault-free the 240 ordered pairs sum 512 hops (per ring 0+1+2+1 = 4 per node pair
  // of values: 16 x 16 x 2 = 512), so 516 / 240 = 2.15; the diameter stays 4.
  const auto topo = make_topology("torus:4x4");
  FaultSet faults(*topo);
  const NodeId a = topo->node_at(Coord{{0, 0}, 2});
  const NodeId b = topo->node_at(Coord{{1, 0}, 2});
  faults.fail_link(topo->channel(a, Topology::port_of(0, +1)));
  std::vector<std::int32_t> dist;
  std::vector<std::uint32_t> queue;
  working_distances(*topo, faults, a, dist, queue);
  EXPECT_EQ(dist[b.value()], 3);
  EXPECT_EQ(dist[topo->node_at(Coord{{2, 0}, 2}).value()], 2);
  const TopologyMetrics m = compute_metrics(*topo, faults);
  EXPECT_TRUE(m.faulty);
  EXPECT_EQ(m.nodes, 16U);
  EXPECT_EQ(m.links, 31U);
  EXPECT_EQ(m.channels, 62U);
  EXPECT_EQ(m.diameter, 4);
  EXPECT_EQ(m.distance_pairs, 240U);
  EXPECT_DOUBLE_EQ(m.average_distance, 516.0 / 240.0);
  EXPECT_TRUE(m.connectivity.connected());
  EXPECT_EQ(m.degree_histogram.at(3), 2U);
  EXPECT_EQ(m.degree_histogram.at(4), 14U);
  // The cut X <= 1 | X > 1 keeps its 8 channels each way (the failed link is inside a side).
  EXPECT_EQ(m.bisection.channels_ab, 8U);
  EXPECT_DOUBLE_EQ(m.bisection.bound, 8.0 * 15.0 / 64.0);
}

TEST(WorkingNetwork, MetricsAreTheBruteForceOnesOnEveryKind) {
  for (const char* spec : {"honeycomb:3", "torus:4x4", "torus:3x3x2", "mesh:3x4", "mesh:2x2x3",
                           "honeycomb-torus:2", "honeycomb-rect:4x4", "honeycomb-rhombic:3x4"}) {
    const auto topo = make_topology(spec);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      FaultSet faults(*topo);
      // Some sets split the network: the distances are then over the pairs that reach.
      draw_random_faults(*topo, faults, seed % 3, 1 + seed % 4, seed, seed % 2 == 0);
      const test::ReferenceNetwork ref = reference(*topo, faults);
      const TopologyMetrics m = compute_metrics(*topo, faults);
      std::uint64_t sum = 0;
      std::uint64_t pairs = 0;
      int diameter = 0;
      for (std::uint32_t s = 0; s < topo->num_nodes(); ++s) {
        if (ref.failed[s]) continue;
        for (const int d : ref.distances(s)) {
          if (d <= 0) continue;
          sum += static_cast<std::uint64_t>(d);
          ++pairs;
          diameter = std::max(diameter, d);
        }
      }
      const std::string at = std::string(spec) + " seed " + std::to_string(seed);
      EXPECT_EQ(m.nodes, ref.working()) << at;
      EXPECT_EQ(m.links, ref.links) << at;
      EXPECT_EQ(m.connectivity.components, ref.components()) << at;
      EXPECT_EQ(m.distance_pairs, pairs) << at;
      EXPECT_EQ(m.diameter, diameter) << at;
      EXPECT_NEAR(m.average_distance, static_cast<double>(sum) / static_cast<double>(pairs), 1e-12)
          << at;
      // Shares of the search add up to the whole.
      DistanceTotals total;
      for (std::uint32_t part = 0; part < 3; ++part) {
        const DistanceTotals d = working_distance_totals(*topo, faults, part, 3);
        total.sum += d.sum;
        total.pairs += d.pairs;
        total.diameter = std::max(total.diameter, d.diameter);
      }
      EXPECT_EQ(total.sum, sum) << at;
      EXPECT_EQ(total.pairs, pairs) << at;
      if (!m.connectivity.connected()) {
        const std::vector<int> from = ref.distances(m.connectivity.from.value());
        EXPECT_LT(from[m.connectivity.unreachable.value()], 0) << at;
      }
    }
  }
}

TEST(WorkingNetwork, WithoutFaultsTheMetricsAreTheClosedForms) {
  for (const char* spec : {"honeycomb:3", "torus:5x4", "mesh:3x4"}) {
    const auto topo = make_topology(spec);
    const TopologyMetrics a = compute_metrics(*topo);
    const TopologyMetrics b = compute_metrics(*topo, FaultSet(*topo));
    EXPECT_FALSE(b.faulty);
    EXPECT_EQ(a.average_distance, b.average_distance);
    EXPECT_EQ(a.diameter, b.diameter);
    EXPECT_EQ(a.bisection.bound, b.bisection.bound);
  }
}

}  // namespace
}  // namespace wormnet
