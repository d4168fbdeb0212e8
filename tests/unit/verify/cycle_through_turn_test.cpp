#include <gtest/gtest.h>

#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"

namespace wormnet {
namespace {

ChannelId channel_at(const Torus& t, int x, int y, PortId p) {
  Coord c;
  c.n = 2;
  c[0] = x;
  c[1] = y;
  return t.channel(t.node_at(c), p);
}

constexpr PortId kXPlus = 0;
constexpr PortId kYPlus = 2;
constexpr PortId kYMinus = 3;

// A cycle that leaves the X ring of row 0 at (1,0), goes up and back down to (1,0), and
// re-enters the ring, which carries it round to where it started. With the ring
// dependencies set aside it is invisible; cycle_through_turn() finds it.
TEST(CycleThroughTurn, FindsACycleThatRunsAlongARing) {
  const Torus t({3, 3}, true);
  ChannelDependencyGraph g(t, 1);
  g.set_aside_ring_dependencies(true);
  const ChannelId a = channel_at(t, 0, 0, kXPlus);    // (0,0) -> (1,0)
  g.add(a, 0, kYPlus, 0);                             // turn at (1,0) up
  g.add(channel_at(t, 1, 0, kYPlus), 0, kYMinus, 0);  // at (1,1) back down
  g.add(channel_at(t, 1, 1, kYMinus), 0, kXPlus, 0);  // at (1,0) into the ring
  g.add(channel_at(t, 1, 0, kXPlus), 0, kXPlus, 0);   // ring: (2,0)
  g.add(channel_at(t, 2, 0, kXPlus), 0, kXPlus, 0);   // ring: back to (0,0) -> a
  EXPECT_TRUE(g.shortest_cycle().empty());
  const auto cycle = g.cycle_through_turn();
  ASSERT_EQ(cycle.size(), 5U);
  bool has_a = false;
  for (const auto& v : cycle) has_a = has_a || v.channel == a;
  EXPECT_TRUE(has_a);
  // Consecutive vertices are dependencies: each channel's head is the next one's source.
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const auto& next = cycle[(i + 1) % cycle.size()];
    EXPECT_EQ(t.channel_dest(cycle[i].channel), t.channel_source(next.channel));
  }
}

TEST(CycleThroughTurn, RingAloneIsNotReported) {
  const Torus t({4, 3}, true);
  ChannelDependencyGraph g(t, 1);
  g.set_aside_ring_dependencies(true);
  for (int x = 0; x < 4; ++x) g.add(channel_at(t, x, 0, kXPlus), 0, kXPlus, 0);
  g.add(channel_at(t, 3, 0, kXPlus), 0, kYPlus, 0);  // leaves the ring, never comes back
  EXPECT_TRUE(g.cycle_through_turn().empty());
  EXPECT_TRUE(g.shortest_cycle().empty());
}

}  // namespace
}  // namespace wormnet
