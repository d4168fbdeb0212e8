// Single routing decisions worked by hand from the papers' rules: which (port, VC set) each
// routing function offers at a given router for a given destination.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../../support/routing_case.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/routing/double_xy_routing.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {
namespace {

/// (port label, VC mask) pairs, in the routing function's order.
using Offered = std::vector<std::pair<std::string, int>>;

Offered offered(const RoutingFunction& r, NodeId node, NodeId dest, PortId in_port = kInjectionPort,
                VcId in_vc = 0, RouteState state = 0) {
  RouteRequest q;
  q.node = node;
  q.source = node;
  q.dest = dest;
  q.in_port = in_port;
  q.in_vc = in_vc;
  q.state = state;
  RouteOptions o;
  r.route(q, o);
  Offered out;
  for (const RouteOption& x : o) out.emplace_back(Topology::port_label(x.port), x.vcs);
  return out;
}

NodeId hc(const test::RoutingCase& c, int x, int y, int z) {
  const NodeId n = static_cast<const HoneycombMesh&>(*c.topo).node_at(x, y, z);
  EXPECT_TRUE(n.valid()) << x << "," << y << "," << z;
  return n;
}

NodeId at(const test::RoutingCase& c, std::vector<int> xs) {
  Coord k;
  k.n = static_cast<int>(xs.size());
  for (int i = 0; i < k.n; ++i) k[i] = xs[static_cast<std::size_t>(i)];
  return c.topo->node_at(k);
}

// Stojmenovic: the coordinate with the largest offset that the node's links can reduce, X
// before Y before Z on ties. Black (sum 1) nodes have + links, white (sum 2) - links.
// RouteOptions holds two steps per port; one more is a routing's bug, refused with an
// InvariantError instead of written past the array, and what it holds stays as it was.
TEST(RouteOptions, HoldsItsCapacityAndRefusesOneMore) {
  RouteOptions o;
  for (int i = 0; i < RouteOptions::kCapacity; ++i) {
    o.add(static_cast<PortId>(i % kMaxPorts), 1, static_cast<RouteState>(i));
  }
  EXPECT_EQ(o.size(), 2 * kMaxPorts);
  EXPECT_THROW(o.add(0, 1, 99), InvariantError);
  ASSERT_EQ(o.size(), RouteOptions::kCapacity);
  for (int i = 0; i < RouteOptions::kCapacity; ++i) {
    EXPECT_EQ(o[i].port, i % kMaxPorts);
    EXPECT_EQ(o[i].next_state, static_cast<RouteState>(i));
  }
  o.clear();
  o.add(3, 2, 7);
  EXPECT_EQ(o.size(), 1);
  EXPECT_EQ(o[0].port, 3);
}

TEST(RoutingFunctions, StojmenovicLargestOffsetFirstXyzOnTies) {
  const auto c = test::make_case("honeycomb:3", "stojmenovic");
  // (1,0,0) -> (0,1,1): d = (-1,+1,+1); black, so Y and Z reduce; tie -> Y+.
  EXPECT_EQ(offered(*c.routing, hc(c, 1, 0, 0), hc(c, 0, 1, 1)), (Offered{{"Y+", 1}}));
  // (0,0,1) -> (2,-2,1): d = (2,-2,0); black: only X reduces (+); Y would need Y-.
  EXPECT_EQ(offered(*c.routing, hc(c, 0, 0, 1), hc(c, 2, -2, 1)), (Offered{{"X+", 1}}));
  // (1,1,0) -> (-2,1,2): d = (-3,0,+2); white: X reduces (-), Z would need Z+: X-.
  EXPECT_EQ(offered(*c.routing, hc(c, 1, 1, 0), hc(c, -2, 1, 2)), (Offered{{"X-", 1}}));
  // (0,1,1) -> (0,-2,3): d = (0,-3,+2); white: Y reduces: Y-.
  EXPECT_EQ(offered(*c.routing, hc(c, 0, 1, 1), hc(c, 0, -2, 3)), (Offered{{"Y-", 1}}));
  // (0,0,1) -> (1,2,-2): d = (1,2,-3); black: X and Y reduce, |Y| larger -> Y+.
  EXPECT_EQ(offered(*c.routing, hc(c, 0, 0, 1), hc(c, 1, 2, -2)), (Offered{{"Y+", 1}}));
}

TEST(RoutingFunctions, MinimalAdaptiveOffersEveryReducingLink) {
  const auto c = test::make_case("honeycomb:3", "minimal-adaptive");
  // (1,0,0) -> (0,1,1): both Y+ and Z+ reduce the distance (X would need X-).
  EXPECT_EQ(offered(*c.routing, hc(c, 1, 0, 0), hc(c, 0, 1, 1)), (Offered{{"Y+", 1}, {"Z+", 1}}));
  // (0,0,1) -> (1,2,-2): X+ and Y+ reduce.
  EXPECT_EQ(offered(*c.routing, hc(c, 0, 0, 1), hc(c, 1, 2, -2)), (Offered{{"X+", 1}, {"Y+", 1}}));
}

// X-Y+ first as the text describes it: while Xoffset < 0 or Yoffset > 0, zig-zag (white: X-,
// black: Y+), even where it moves away; then only minimal X+, Y-, Z steps.
TEST(RoutingFunctions, XyFirstZigZagsFirstEvenAwayFromTheDestination) {
  const auto c = test::make_case("honeycomb:2", "xy-first");
  // (0,0,1) -> (-1,0,2): d = (-1,0,+1), distance 2 (Z+ then X-). Black node in phase A takes
  // Y+, which moves away: the route is not minimal.
  const NodeId s = hc(c, 0, 0, 1);
  const NodeId d = hc(c, -1, 0, 2);
  EXPECT_EQ(c.topo->distance(s, d), 2);
  EXPECT_EQ(offered(*c.routing, s, d), (Offered{{"Y+", 1}}));
  // (0,1,1) is white, still Xoffset < 0: X- toward the destination.
  EXPECT_EQ(offered(*c.routing, hc(c, 0, 1, 1), d), (Offered{{"X-", 1}}));
  // Phase B, (0,0,1) -> (1,-1,1): d = (1,-1,0); black: X+ reduces, Y- is not a black link.
  EXPECT_EQ(offered(*c.routing, s, hc(c, 1, -1, 1)), (Offered{{"X+", 1}}));
  // Bottom edge: black node (0,2,-1) has no Y+ (y = 3 > t); bound for (-1,2,0), d = (-1,0,1),
  // still phase A, so it slides Z+ to the white (0,2,0), which then takes X-.
  const NodeId edge = hc(c, 0, 2, -1);
  EXPECT_FALSE(c.topo->has_port(edge, Topology::port_of(1, 1)));
  EXPECT_EQ(offered(*c.routing, edge, hc(c, -1, 2, 0)), (Offered{{"Z+", 1}}));
  EXPECT_EQ(offered(*c.routing, hc(c, 0, 2, 0), hc(c, -1, 2, 0)), (Offered{{"X-", 1}}));
}

// Double XY: network by the sign of dZ = Zdest - Zsource; network 0 = VC 0 on X/Y with Z+,
// network 1 = VC 1 on X/Y with Z-; Z channels have VC 0 only; dZ = 0 picks at the first hop.
TEST(RoutingFunctions, DoubleXyChoosesTheNetworkBySignOfDz) {
  const auto c = test::make_case("honeycomb:3", "double-xy");
  const RoutingFunction& r = *c.routing;
  EXPECT_EQ(r.initial_state(hc(c, 0, 0, 1), hc(c, 0, -1, 2)), DoubleXyRouting::kNet0);
  EXPECT_EQ(r.initial_state(hc(c, 0, 0, 1), hc(c, 1, 1, -1)), DoubleXyRouting::kNet1);
  EXPECT_EQ(r.initial_state(hc(c, 0, 0, 1), hc(c, 1, -1, 1)), DoubleXyRouting::kEither);
  // Network 0 from (0,0,1) to (1,-1,2): d = (1,-1,1); black: X+ and Z+ reduce; X on VC 0.
  EXPECT_EQ(offered(r, hc(c, 0, 0, 1), hc(c, 1, -1, 2), kInjectionPort, 0, DoubleXyRouting::kNet0),
            (Offered{{"X+", 1}, {"Z+", 1}}));
  // Network 1 from (1,1,0) to (0,2,-1): d = (-1,1,-1); white: X- on VC 1, Z- on VC 0.
  EXPECT_EQ(offered(r, hc(c, 1, 1, 0), hc(c, 0, 2, -1), kInjectionPort, 0, DoubleXyRouting::kNet1),
            (Offered{{"X-", 2}, {"Z-", 1}}));
  // dZ = 0 at the source (0,0,1) bound for (1,-1,1): X+ on either network, one option each.
  EXPECT_EQ(
      offered(r, hc(c, 0, 0, 1), hc(c, 1, -1, 1), kInjectionPort, 0, DoubleXyRouting::kEither),
      (Offered{{"X+", 1}, {"X+", 2}}));
}

TEST(RoutingFunctions, MeshXyAndWestFirst) {
  const auto xy = test::make_case("mesh:4x4", "xy");
  EXPECT_EQ(offered(*xy.routing, at(xy, {2, 1}), at(xy, {0, 3})), (Offered{{"X-", 1}}));
  EXPECT_EQ(offered(*xy.routing, at(xy, {0, 1}), at(xy, {0, 3})), (Offered{{"Y+", 1}}));
  const auto wf = test::make_case("mesh:4x4", "west-first");
  // West needed: X- only, never adaptive.
  EXPECT_EQ(offered(*wf.routing, at(wf, {2, 1}), at(wf, {0, 3})), (Offered{{"X-", 1}}));
  // East and north: adaptive between X+ and Y+; east and south: X+ and Y-.
  EXPECT_EQ(offered(*wf.routing, at(wf, {0, 0}), at(wf, {2, 3})), (Offered{{"X+", 1}, {"Y+", 1}}));
  EXPECT_EQ(offered(*wf.routing, at(wf, {0, 3}), at(wf, {2, 0})), (Offered{{"X+", 1}, {"Y-", 1}}));
}

TEST(RoutingFunctions, TorusDorTakesTheShortWayAndPlusOnTies) {
  const auto c = test::make_case("torus:4x5", "dor");
  EXPECT_EQ(offered(*c.routing, at(c, {0, 0}), at(c, {2, 4})), (Offered{{"X+", 1}}));  // tie
  EXPECT_EQ(offered(*c.routing, at(c, {0, 0}), at(c, {3, 4})), (Offered{{"X-", 1}}));  // wrap
  EXPECT_EQ(offered(*c.routing, at(c, {0, 0}), at(c, {0, 3})), (Offered{{"Y-", 1}}));
  EXPECT_EQ(offered(*c.routing, at(c, {0, 0}), at(c, {0, 2})), (Offered{{"Y+", 1}}));
}

// Dateline: VC 0 on entering a dimension, VC 1 from the wrap link (k-1 -> 0 going +, 0 -> k-1
// going -) until the packet leaves that dimension.
TEST(RoutingFunctions, DatelineSwitchesToVcOneAtTheWrapLink) {
  const auto c = test::make_case("torus:4x4", "dor-dateline");
  const RoutingFunction& r = *c.routing;
  const PortId xm = Topology::port_of(0, -1);
  // From x = 3 to x = 1: offset 2, + on the tie, first hop is the wrap 3 -> 0: VC 1.
  EXPECT_EQ(offered(r, at(c, {3, 0}), at(c, {1, 0})), (Offered{{"X+", 2}}));
  // At x = 0, having arrived on VC 1 through X- port: stays on VC 1.
  EXPECT_EQ(offered(r, at(c, {0, 0}), at(c, {1, 0}), xm, 1), (Offered{{"X+", 2}}));
  // From x = 0 to x = 2: no wrap, VC 0 both hops.
  EXPECT_EQ(offered(r, at(c, {0, 0}), at(c, {2, 0})), (Offered{{"X+", 1}}));
  EXPECT_EQ(offered(r, at(c, {1, 0}), at(c, {2, 0}), xm, 0), (Offered{{"X+", 1}}));
  // Turning into Y after X on VC 1: back to VC 0.
  EXPECT_EQ(offered(r, at(c, {1, 0}), at(c, {1, 1}), xm, 1), (Offered{{"Y+", 1}}));
  // Going - across the wrap 0 -> 3: VC 1, and still VC 1 on the next - hop.
  EXPECT_EQ(offered(r, at(c, {1, 0}), at(c, {1, 3})), (Offered{{"Y-", 2}}));
  EXPECT_EQ(offered(r, at(c, {0, 0}), at(c, {3, 0})), (Offered{{"X-", 2}}));
  EXPECT_EQ(offered(r, at(c, {1, 3}), at(c, {1, 2}), Topology::port_of(1, 1), 1),
            (Offered{{"Y-", 2}}));
  // Not past the wrap: - hops on VC 0.
  EXPECT_EQ(offered(r, at(c, {1, 2}), at(c, {1, 1})), (Offered{{"Y-", 1}}));
}

// Angara: directions in the order +X +Y -X -Y, never both signs of one dimension. On a tie
// (offset k/2) both signs are minimal; a direction is offered only while every unfinished
// dimension can still be served later in the order.
TEST(RoutingFunctions, AngaraDirectionOrderAndDirectionBit) {
  const auto c = test::make_case("torus:4x4", "angara");
  const RoutingFunction& r = *c.routing;
  // Ties in X and Y: +X, +Y and -X are possible starts; -Y would leave X undone for good.
  EXPECT_EQ(offered(r, at(c, {0, 0}), at(c, {2, 2})), (Offered{{"X+", 1}, {"Y+", 1}, {"X-", 1}}));
  // X needs +, Y needs -: +X must come first (after -Y there is no +X).
  EXPECT_EQ(offered(r, at(c, {0, 0}), at(c, {1, 3})), (Offered{{"X+", 1}}));
  // Arrived through -X (on port X+), only Y left with a tie: +Y is past, so -Y only.
  EXPECT_EQ(offered(r, at(c, {2, 0}), at(c, {2, 2}), Topology::port_of(0, 1)),
            (Offered{{"Y-", 1}}));
  // 1-D ring of 4, offset 2: both ways.
  const auto ring = test::make_case("torus:4", "angara");
  EXPECT_EQ(offered(*ring.routing, at(ring, {0}), at(ring, {2})), (Offered{{"X+", 1}, {"X-", 1}}));
}

// Class at ring entry (dor-ring-class, dor-booksim, dor-balanced) on an 8-ring in X (the
// middle link joins 3 and 4) and a 5-ring in Y. Masks: 1 = VC 0, 2 = VC 1; 3 in the table
// = dor-balanced's free class, which is the packet's drawn state bit (state 0 -> VC 0,
// state 1 -> VC 1).
TEST(RoutingFunctions, RingClassPoliciesPickTheClassAtRingEntry) {
  const auto rc = test::make_case("torus:8x5", "dor-ring-class");
  const auto bs = test::make_case("torus:8x5", "dor-booksim");
  const auto bal = test::make_case("torus:8x5", "dor-balanced");
  struct Case {
    int from, to;  // X coordinates, Y = 0
    const char* port;
    int ring_class, booksim, balanced;
  };
  for (const Case& k : {
           Case{1, 3, "X+", 1, 1, 3},  // + without wrap or middle: class 0; balanced either
           Case{2, 5, "X+", 1, 1, 1},  // + through the middle link 3-4: class 0
           Case{6, 1, "X+", 2, 2, 2},  // + through the wrap 7-0: class 1
           Case{1, 6, "X-", 2, 1, 2},  // - through the wrap 0-7: BookSim mirrors to class 0
           Case{5, 3, "X-", 1, 2, 1},  // - through the middle 4-3: BookSim mirrors to class 1
           Case{7, 5, "X-", 1, 2, 3},  // - neither: BookSim class 1, balanced either
       }) {
    SCOPED_TRACE(std::to_string(k.from) + " -> " + std::to_string(k.to));
    EXPECT_EQ(offered(*rc.routing, at(rc, {k.from, 0}), at(rc, {k.to, 0})),
              (Offered{{k.port, k.ring_class}}));
    EXPECT_EQ(offered(*bs.routing, at(bs, {k.from, 0}), at(bs, {k.to, 0})),
              (Offered{{k.port, k.booksim}}));
    for (RouteState st : {0U, 1U}) {
      const int mask = k.balanced == 3 ? (st == 0 ? 1 : 2) : k.balanced;
      EXPECT_EQ(
          offered(*bal.routing, at(bal, {k.from, 0}), at(bal, {k.to, 0}), kInjectionPort, 0, st),
          (Offered{{k.port, mask}}))
          << "state " << st;
    }
  }
  EXPECT_EQ(bal.routing->initial_choices(), 2);  // the free class is drawn even with + ties
  EXPECT_EQ(rc.routing->initial_choices(), 1);
  const PortId xm = Topology::port_of(0, -1);  // arrived from x - 1, going +
  for (const auto* c : {&rc, &bs, &bal}) {
    SCOPED_TRACE(c->label());
    // Inside the ring the class taken at entry stays, whatever the entry rule would say here.
    EXPECT_EQ(offered(*c->routing, at(*c, {2, 0}), at(*c, {5, 0}), xm, 1), (Offered{{"X+", 2}}));
    EXPECT_EQ(offered(*c->routing, at(*c, {7, 0}), at(*c, {1, 0}), xm, 0), (Offered{{"X+", 1}}));
    // Turning into Y is a new ring entry: (3,0) -> (3,2) goes Y+ without wrap or middle
    // (m = 2 joins 2 and 3): class 0, balanced either.
    EXPECT_EQ(offered(*c->routing, at(*c, {3, 0}), at(*c, {3, 2}), xm, 1, 1),
              (Offered{{"Y+", c == &bal ? 2 : 1}}));
  }
}

// Half-ring ties: + by default; drawn per packet, state 1 takes the - way (and the class that
// way implies), state 0 the + way.
TEST(RoutingFunctions, DrawnRingTiesFollowThePacketState) {
  const auto topo = make_topology("torus:8x5");
  const test::RoutingCase c{make_topology("torus:8x5"), nullptr};
  for (const char* name :
       {"dor", "dor-dateline", "dor-ring-class", "dor-booksim", "dor-balanced"}) {
    SCOPED_TRACE(name);
    const auto plus = make_routing(name, *topo);
    const auto drawn = make_routing(name, *topo, FlowControl::kCredit, nullptr, RingTie::kRandom);
    EXPECT_EQ(plus->initial_choices(), std::string(name) == "dor-balanced" ? 2 : 1);
    EXPECT_EQ(drawn->initial_choices(), 2);
    const NodeId a = at(c, {0, 0});
    const NodeId b = at(c, {4, 0});
    for (int choice = 0; choice < plus->initial_choices(); ++choice) {  // + ties: + always
      const Offered o =
          offered(*plus, a, b, kInjectionPort, 0, plus->chosen_initial_state(a, b, choice));
      ASSERT_EQ(o.size(), 1U);
      EXPECT_EQ(o[0].first, "X+");
    }
    EXPECT_EQ(
        offered(*drawn, a, b, kInjectionPort, 0, drawn->chosen_initial_state(a, b, 0))[0].first,
        "X+");
    const RouteState minus = drawn->chosen_initial_state(a, b, 1);
    const Offered m = offered(*drawn, a, b, kInjectionPort, 0, minus);
    ASSERT_EQ(m.size(), 1U);
    EXPECT_EQ(m[0].first, "X-");
    // 0 -> 7 -> ... -> 4 crosses the wrap: VC 1 except for BookSim's mirrored - rule and
    // plain dor (1 VC); the dateline routing takes VC 1 at the wrap link itself.
    const std::string n = name;
    const int expect_vcs = n == "dor" ? 1 : (n == "dor-booksim" ? 1 : 2);
    EXPECT_EQ(m[0].second, expect_vcs);
    // No tie, no choice: 0 -> 3 goes + whatever the state.
    EXPECT_EQ(offered(*drawn, a, at(c, {3, 0}), kInjectionPort, 0, minus)[0].first, "X+");
  }
  // Ties cannot be drawn where there are none.
  const auto mesh = make_topology("mesh:4x4");
  EXPECT_THROW(make_routing("xy", *mesh, FlowControl::kCredit, nullptr, RingTie::kRandom),
               InputError);
  EXPECT_THROW(make_routing("angara", *topo, FlowControl::kCredit, nullptr, RingTie::kAlternating),
               InputError);
}

}  // namespace
}  // namespace wormnet
