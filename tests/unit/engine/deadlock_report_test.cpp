// The deadlock report's hops, described from VC keys alone (the data the ranks exchange).
#include "wormnet/engine/deadlock_report.hpp"

#include <gtest/gtest.h>

#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

// torus:4x4, node (1,1). Ports: 0 = X+, 1 = X-, 4 = the terminal. Input port 1 (X-) is fed
// by the X- neighbour (0,1), whose channel leaves it by X+.
TEST(DeadlockReport, AHopNamesTheChannelThatFeedsTheWaitingVc) {
  const auto topo = make_topology("torus:4x4");
  Coord c;
  c.n = 2;
  c[0] = 1;
  c[1] = 1;
  const std::uint32_t node = topo->node_at(c).value();
  const DeadlockHop h = describe_hop(*topo, vc_key(node, 1, 1));
  EXPECT_EQ(h.channel, "(0,1) X+ -> (1,1)");
  EXPECT_EQ(h.vc, 1);
  const DeadlockHop inj = describe_hop(*topo, vc_key(node, 4, 0));
  EXPECT_EQ(inj.channel, "injection at (1,1)");
  // The wrap-around link: (0,1)'s X- input is fed by (3,1), whose X+ channel wraps round.
  c[0] = 0;
  EXPECT_EQ(describe_hop(*topo, vc_key(topo->node_at(c).value(), 1, 0)).channel,
            "(3,1) X+ -> (0,1)");
}

}  // namespace
}  // namespace wormnet
