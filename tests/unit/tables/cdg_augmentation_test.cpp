#include "wormnet/tables/cdg_augmentation.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <deque>
#include <vector>

#include "wormnet/tables/routing_graph.hpp"

namespace wormnet::tables {
namespace {

const std::vector<std::vector<int>> kTori{
    {5}, {2}, {4, 3}, {3, 2}, {2, 2}, {6, 2, 3}, {2, 5, 2}, {2, 2, 2}, {3, 4, 2, 2}, {2, 3, 2, 4}};

// Channel dependencies of a routing graph: every (arrival direction, next step) pair of
// some vertex, the way Section III-B builds the CDG from the RG.
std::vector<std::uint16_t> cdg_of(const RoutingGraph& g) {
  const Torus& t = g.topology();
  const int n = t.num_dims();
  std::vector<std::uint16_t> adj(t.num_channels(), 0);
  for (std::uint32_t u = 0; u < t.num_nodes(); ++u) {
    for (int q = 0; q < g.num_states(); ++q) {
      const auto st = static_cast<RoutingGraph::State>(q);
      const Direction a = g.arrival(st);
      if (a < 0) continue;
      const NodeId from = t.neighbor(NodeId(u), Topology::reverse_port(port_of(a, n)));
      if (!from.valid()) continue;
      const ChannelId c = t.channel(from, port_of(a, n));
      g.for_each_edge(NodeId(u), st, EdgeSet::kLiteral, [&](Direction o, RoutingGraph::State) {
        if (o >= 0) adj[c.value()] |= static_cast<std::uint16_t>(1U << port_of(o, n));
      });
    }
  }
  return adj;
}

// Directions of the channels reachable from c (c included), by breadth-first search.
std::uint16_t reachable_directions(const CdgAugmentation& a, const Torus& t, ChannelId c) {
  std::vector<bool> seen(t.num_channels(), false);
  std::deque<ChannelId> queue{c};
  seen[c.value()] = true;
  std::uint16_t dirs = 0;
  while (!queue.empty()) {
    const ChannelId x = queue.front();
    queue.pop_front();
    dirs |= static_cast<std::uint16_t>(1U << direction_of(t.channel_port(x), t.num_dims()));
    for (unsigned m = a.successors(x); m != 0; m &= m - 1) {
      const ChannelId y = t.channel(t.channel_dest(x), static_cast<PortId>(std::countr_zero(m)));
      if (!seen[y.value()]) {
        seen[y.value()] = true;
        queue.push_back(y);
      }
    }
  }
  return dirs;
}

// The plain routing graph allows every turn that keeps the direction order (including going
// on straight, and the U-turn + to - of one dimension through an LS step) and nothing else.
TEST(CdgAugmentation, PlainGraphDependenciesKeepTheDirectionOrder) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    const CdgAugmentation a(t);
    const int n = t.num_dims();
    for (std::uint32_t c = 0; c < t.num_channels(); ++c) {
      const Direction in = direction_of(t.channel_port(ChannelId(c)), n);
      const NodeId head = t.channel_dest(ChannelId(c));
      std::uint16_t expected = 0;
      for (Direction o = in; o < 2 * n; ++o) {
        if (t.has_port(head, port_of(o, n)))
          expected |= static_cast<std::uint16_t>(1U << port_of(o, n));
      }
      ASSERT_EQ(a.base_successors(ChannelId(c)), expected) << t.spec() << " channel " << c;
    }
  }
}

// In a torus whose dimensions are all rings every channel reaches every later direction, so
// (v, j) with j before i always reaches i: no turn can be added.
TEST(CdgAugmentation, ToriOfRingsGetNoTurns) {
  for (const auto& sizes : std::vector<std::vector<int>>{{5}, {3, 4}, {4, 4, 3}, {3, 3, 3, 3}}) {
    const Torus t(sizes, true);
    const CdgAugmentation a(t);
    EXPECT_EQ(a.turns().count(), 0U) << t.spec();
    EXPECT_EQ(a.stats().passes, 1);
  }
}

// torus:3x2 (X ring of 3, one Y mesh link), worked by hand. Directions +X < +Y < -X < -Y.
// B(+Y into row 1) = {+Y, -X, -Y} and B(+X along row 1) = {+X, -X, -Y}: +Y is not in it, so
// the FS turn +Y -> +X is added at the three nodes of row 1. B(-X along row 0) = {-X}, which
// lacks -Y: the LS turn -Y -> -X is added at the three nodes of row 0. No other usable
// candidate exists (+X and -X are first in their halves of the order).
TEST(CdgAugmentation, HandWorkedThreeByTwo) {
  const Torus t({3, 2}, true);
  const CdgAugmentation a(t);
  const TurnSet& turns = a.turns();
  EXPECT_EQ(turns.count(), 6U);
  EXPECT_EQ(a.stats().added_first_step, 3U);
  EXPECT_EQ(a.stats().added_last_step, 3U);
  for (int x = 0; x < 3; ++x) {
    Coord row0;
    row0.n = 2;
    row0[0] = x;
    Coord row1 = row0;
    row1[1] = 1;
    EXPECT_EQ(turns.at(t.node_at(row1), 1), 1U << 0) << "FS +Y -> +X at (" << x << ",1)";
    EXPECT_EQ(turns.at(t.node_at(row0), 3), 1U << 2) << "LS -Y -> -X at (" << x << ",0)";
  }
  EXPECT_EQ(a.stats().passes, 2);
}

// The augmented CDG has no cycle apart from the rings: neither with ring dependencies set
// aside (the verifier's bubble rule) nor with them kept (no cycle may leave its ring).
TEST(CdgAugmentation, AugmentedCdgIsAcyclicApartFromRings) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    for (auto cand : {CdgAugmentation::Candidates::kUsable, CdgAugmentation::Candidates::kAll}) {
      const CdgAugmentation a(t, cand);
      const ChannelDependencyGraph g = a.to_verifier_graph();
      EXPECT_TRUE(g.shortest_cycle().empty()) << t.spec();
      EXPECT_TRUE(g.cycle_through_turn().empty()) << t.spec();
    }
  }
}

// The routing graph with the added turns creates exactly the augmented CDG's dependencies.
TEST(CdgAugmentation, AugmentedRoutingGraphMatchesTheCdg) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    const CdgAugmentation a(t);
    const auto adj = cdg_of(RoutingGraph(t, a.turns()));
    for (std::uint32_t c = 0; c < t.num_channels(); ++c) {
      ASSERT_EQ(adj[c], a.successors(ChannelId(c))) << t.spec() << " channel " << c;
    }
    const auto plain = cdg_of(RoutingGraph(t));
    for (std::uint32_t c = 0; c < t.num_channels(); ++c) {
      ASSERT_EQ(plain[c], a.base_successors(ChannelId(c))) << t.spec();
    }
  }
}

// The final used-direction sets are the reachable directions (recomputed by BFS), every
// added turn is still safe under them, and every usable candidate left out is rejected by
// them (so a further pass could add nothing).
TEST(CdgAugmentation, UsedDirectionsAreReachabilityAndTheResultIsClosed) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    const CdgAugmentation a(t);
    const int n = t.num_dims();
    for (std::uint32_t c = 0; c < t.num_channels(); ++c) {
      ASSERT_EQ(a.used_directions(ChannelId(c)), reachable_directions(a, t, ChannelId(c)));
    }
    for (std::uint32_t c = 0; c < t.num_channels(); ++c) {
      const Direction in = direction_of(t.channel_port(ChannelId(c)), n);
      const NodeId head = t.channel_dest(ChannelId(c));
      for (Direction o = 0; o < in; ++o) {
        if (!t.has_port(head, port_of(o, n)) || is_plus(o, n) != is_plus(in, n)) continue;
        const ChannelId target = t.channel(head, port_of(o, n));
        const bool added = ((a.successors(ChannelId(c)) >> port_of(o, n)) & 1U) != 0;
        const bool reaches_back = ((a.used_directions(target) >> in) & 1U) != 0;
        if (!added) {
          EXPECT_TRUE(reaches_back) << t.spec();
        }
        EXPECT_EQ(added, ((a.turns().at(head, in) >> o) & 1U) != 0);
      }
    }
  }
}

}  // namespace
}  // namespace wormnet::tables
