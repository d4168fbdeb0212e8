#include "wormnet/routing/double_xy_turn_routing.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "../../../tools/turn_search/turn_table_routing.hpp"
#include "../../support/bfs.hpp"
#include "wormnet/routing/double_xy_routing.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/verify/route_state_graph.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

using tools::TurnTable;
using tools::TurnTableRouting;

/// "X0+", "Y1-", "Z+": direction of a step, with the VC on X and Y (Z has one channel).
std::string step_label(PortId port, int vc) {
  const std::string dir = Topology::port_label(port);
  return Topology::port_dim(port) == 2 ? dir
                                       : dir.substr(0, 1) + std::to_string(vc) + dir.substr(1);
}

/// Every route (sequence of steps with VCs) that `r` allows from s to d, by depth-first search.
std::set<std::string> all_routes(const HoneycombMesh& h, const RoutingFunction& r, NodeId s,
                                 NodeId d) {
  std::set<std::string> routes;
  std::function<void(NodeId, PortId, VcId, RouteState, const std::string&)> walk =
      [&](NodeId node, PortId in_port, VcId in_vc, RouteState state, const std::string& path) {
        if (node == d) {
          routes.insert(path);
          return;
        }
        RouteOptions options;
        r.route(RouteRequest{node, s, d, in_port, in_vc, state}, options);
        for (const RouteOption& o : options) {
          for (int vc = 0; vc < 2; ++vc) {
            if (((o.vcs >> vc) & 1U) == 0) continue;
            walk(h.neighbor(node, o.port), Topology::reverse_port(o.port), static_cast<VcId>(vc),
                 o.next_state, path + (path.empty() ? "" : " ") + step_label(o.port, vc));
          }
        }
      };
  walk(s, kInjectionPort, 0, r.initial_state(s, d), "");
  return routes;
}

std::string swap_vcs(std::string route) {
  for (char& c : route) c = c == '0' ? '1' : (c == '1' ? '0' : c);
  return route;
}

// The six classes of the paper, written out from its text (class 5 with "Y < 0").
bool in_class(int c, int x, int y, int z) {
  switch (c) {
    case 1:
      return z < 0 && x > 0 && y <= 0;
    case 2:
      return z < 0 && x >= 0 && y > 0;
    case 3:
      return z <= 0 && x < 0 && y > 0;
    case 4:
      return z > 0 && x < 0 && y >= 0;
    case 5:
      return z > 0 && x <= 0 && y < 0;
    case 6:
      return z >= 0 && x > 0 && y < 0;
    default:
      return false;
  }
}

TEST(DoubleXyTurnClasses, HandPickedOffsets) {
  EXPECT_EQ(DoubleXyTurnRouting::route_class(2, -1, -1), 1);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(1, 0, -1), 1);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(0, 1, -1), 2);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(1, 1, -2), 2);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(-1, 1, 0), 3);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(-1, 2, -1), 3);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(-1, 0, 1), 4);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(-2, 1, 1), 4);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(0, -1, 1), 5);  // printed class 5 misses it
  EXPECT_EQ(DoubleXyTurnRouting::route_class(-1, -1, 2), 5);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(1, -1, 0), 6);
  EXPECT_EQ(DoubleXyTurnRouting::route_class(1, -2, 1), 6);
  for (int i = 0; i < 3; ++i) {
    for (int s : {-1, 1}) {
      int d[3] = {0, 0, 0};
      d[i] = s;
      EXPECT_EQ(DoubleXyTurnRouting::route_class(d[0], d[1], d[2]), 0) << i << " " << s;
    }
  }
}

// On H_4, every pair at distance >= 2 lies in exactly one corrected class, and route_class
// names it; the pairs at distance 1 lie in none. As printed ("Z > 0, X <= 0, Y > 0"), class 5
// would overlap class 4 and leave pairs uncovered.
TEST(DoubleXyTurnClasses, CorrectedClassesPartitionThePairsAndPrintedOnesDoNot) {
  const HoneycombMesh h(4);
  int printed_uncovered = 0;
  int printed_overlaps = 0;
  for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
    const auto dist = test::bfs_distances(h, NodeId(a));
    for (std::uint32_t b = 0; b < h.num_nodes(); ++b) {
      if (a == b) continue;
      const Coord s = h.coords(NodeId(a));
      const Coord d = h.coords(NodeId(b));
      const int x = d[0] - s[0];
      const int y = d[1] - s[1];
      const int z = d[2] - s[2];
      int matches = 0;
      int which = 0;
      for (int c = 1; c <= 6; ++c) {
        if (in_class(c, x, y, z)) {
          ++matches;
          which = c;
        }
      }
      ASSERT_EQ(matches, dist[b] >= 2 ? 1 : 0) << x << " " << y << " " << z;
      EXPECT_EQ(DoubleXyTurnRouting::route_class(x, y, z), which);
      const bool printed5 = z > 0 && x <= 0 && y > 0;
      const int printed = matches - (which == 5 ? 1 : 0) + (printed5 ? 1 : 0);
      printed_uncovered += dist[b] >= 2 && printed == 0 ? 1 : 0;
      printed_overlaps += printed > 1 ? 1 : 0;
    }
  }
  EXPECT_GT(printed_uncovered, 0);
  EXPECT_GT(printed_overlaps, 0);
}

// Class 1 on H_3 from black (0,0,1) to (2,-1,0), offsets (2,-1,-1). The two physical paths
// are X+ Y- X+ Z- and X+ Z- X+ Y-. The paper: "first X0+, Y0-, then may switch to VC1 and
// Z, never VC0 again" -- worked out by hand, six routes.
TEST(DoubleXyTurnRouting, ClassOneRoutesFollowThePaperText) {
  const HoneycombMesh h(3);
  const NodeId s = h.node_at(0, 0, 1);
  const NodeId d = h.node_at(2, -1, 0);
  const std::set<std::string> text = {"X0+ Y0- X0+ Z-", "X0+ Y0- X1+ Z-", "X0+ Y1- X1+ Z-",
                                      "X1+ Y1- X1+ Z-", "X0+ Z- X1+ Y1-", "X1+ Z- X1+ Y1-"};
  const DoubleXyTurnRouting r(h);
  EXPECT_EQ(r.initial_state(s, d), DoubleXyTurnRouting::kOpen);
  EXPECT_EQ(all_routes(h, r, s, d), text);
  EXPECT_EQ(all_routes(h, TurnTableRouting(h, tools::literal_table()), s, d), text);
}

// Class 4 on H_3 from black (0,0,1) to (-2,1,2), offsets (-2,1,1); paths Y+ X- Z+ X- and
// Z+ X- Y+ X-. The paper: "first X1-, Y1+ and Z, then X0-, Y0+, never VC1 or Z again". The
// reconstruction routes exactly these six routes with VC0 and VC1 exchanged (Double XY's
// network 0 = X0/Y0/Z+ first, then X1/Y1), because the printed assignment closes cycles.
TEST(DoubleXyTurnRouting, ClassFourRoutesAreThePaperTextWithVcsExchanged) {
  const HoneycombMesh h(3);
  const NodeId s = h.node_at(0, 0, 1);
  const NodeId d = h.node_at(-2, 1, 2);
  const std::set<std::string> text = {"Y1+ X1- Z+ X1-", "Y1+ X1- Z+ X0-", "Z+ X1- Y1+ X1-",
                                      "Z+ X1- Y1+ X0-", "Z+ X1- Y0+ X0-", "Z+ X0- Y0+ X0-"};
  std::set<std::string> exchanged;
  for (const auto& route : text) exchanged.insert(swap_vcs(route));
  EXPECT_EQ(all_routes(h, DoubleXyTurnRouting(h), s, d), exchanged);
  EXPECT_EQ(all_routes(h, TurnTableRouting(h, tools::literal_table()), s, d), text);
}

// Classes 2 and 5 "route by Double XY": the same routes as the double-xy routing.
TEST(DoubleXyTurnRouting, ClassesTwoAndFiveRouteByDoubleXy) {
  const HoneycombMesh h(3);
  const DoubleXyTurnRouting r(h);
  const DoubleXyRouting dxy(h);
  int pairs = 0;
  for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
    for (std::uint32_t b = 0; b < h.num_nodes(); ++b) {
      const Coord s = h.coords(NodeId(a));
      const Coord d = h.coords(NodeId(b));
      const int c = DoubleXyTurnRouting::route_class(d[0] - s[0], d[1] - s[1], d[2] - s[2]);
      if (c != 2 && c != 5) continue;
      ++pairs;
      ASSERT_EQ(all_routes(h, r, NodeId(a), NodeId(b)), all_routes(h, dxy, NodeId(a), NodeId(b)))
          << h.node_label(NodeId(a)) << " -> " << h.node_label(NodeId(b));
    }
  }
  EXPECT_GT(pairs, 0);
}

// Every Double XY route stays allowed (the improvement only adds VC choices), on H_3.
TEST(DoubleXyTurnRouting, KeepsEveryDoubleXyRoute) {
  const HoneycombMesh h(3);
  const DoubleXyTurnRouting r(h);
  const DoubleXyRouting dxy(h);
  std::size_t more = 0;
  for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
    for (std::uint32_t b = 0; b < h.num_nodes(); ++b) {
      if (a == b) continue;
      const auto mine = all_routes(h, r, NodeId(a), NodeId(b));
      const auto theirs = all_routes(h, dxy, NodeId(a), NodeId(b));
      for (const auto& route : theirs) ASSERT_TRUE(mine.count(route) == 1) << route;
      more += mine.size() - theirs.size();
    }
  }
  EXPECT_GT(more, 0U);
}

class DoubleXyTurnSizes : public ::testing::TestWithParam<int> {};

// The deliverable: acyclic channel dependency graph, every pair and choice delivered, minimal.
TEST_P(DoubleXyTurnSizes, VerifierProvesDeadlockFreeMinimalDelivery) {
  const HoneycombMesh h(GetParam());
  const auto r = make_routing("double-xy-turn", h);
  EXPECT_EQ(r->name(), "double-xy-turn");
  EXPECT_EQ(r->vcs_required(), 2);
  AnalysisOptions ao;
  ao.loads = false;
  const RoutingAnalysis a = analyze_routing(h, *r, ao);
  EXPECT_TRUE(a.delivery.ok) << a.delivery.defect;
  EXPECT_TRUE(a.delivery.all_minimal);
  EXPECT_EQ(a.delivery.pairs, static_cast<std::uint64_t>(h.num_nodes()) * (h.num_nodes() - 1));
  EXPECT_EQ(a.delivery.max_path, 4 * GetParam() - 1);
  EXPECT_TRUE(a.cdg.shortest_cycle().empty());
}

INSTANTIATE_TEST_SUITE_P(SmallT, DoubleXyTurnSizes, ::testing::Values(1, 2, 3, 4, 5, 6, 10));

// Fully adaptive on physical paths: at every state, every port that leads one hop closer (by
// breadth-first distances) is offered.
TEST(DoubleXyTurnRouting, OffersEveryMinimalPort) {
  const HoneycombMesh h(4);
  const DoubleXyTurnRouting r(h);
  RouteStateGraph g(h, r, 2);
  RouteOptions options;
  for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
    const auto dist = test::bfs_distances(h, NodeId(d));
    g.explore(NodeId(d));
    for (std::uint32_t i = 0; i < g.size(); ++i) {
      if (g.terminal(i)) continue;
      const auto st = g.state(i);
      std::set<PortId> minimal_ports;
      for (int p = 0; p < h.num_ports(); ++p) {
        const NodeId w = h.neighbor(st.node, static_cast<PortId>(p));
        if (w.valid() && dist[w.value()] == dist[st.node.value()] - 1) {
          minimal_ports.insert(static_cast<PortId>(p));
        }
      }
      std::set<PortId> offered;
      for (const auto& e : g.successors(i)) offered.insert(h.channel_port(g.channel_of(e.to)));
      ASSERT_EQ(offered, minimal_ports) << g.describe(i);
    }
  }
}

/// Double XY network of a channel (X0, Y0, Z+ -> 0; X1, Y1, Z- -> 1).
int network(const Topology& h, ChannelId c, VcId vc) {
  const PortId p = h.channel_port(c);
  return Topology::port_dim(p) == 2 ? (Topology::port_sign(p) > 0 ? 0 : 1) : vc;
}

// The forbidden turns: no step ever goes from network 1 back to network 0, and classes 2 and 5
// never change network.
TEST(DoubleXyTurnRouting, SwitchesNetworksOnlyFromZeroToOne) {
  const HoneycombMesh h(4);
  const DoubleXyTurnRouting r(h);
  RouteStateGraph g(h, r, 2);
  int switches = 0;
  for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
    g.explore(NodeId(d));
    for (std::uint32_t i = 0; i < g.size(); ++i) {
      if (g.is_injection(i)) continue;
      const int from = network(h, g.channel_of(i), g.vc_of(i));
      for (const auto& e : g.successors(i)) {
        const int to = network(h, g.channel_of(e.to), g.vc_of(e.to));
        ASSERT_LE(from, to) << g.describe(i);
        if (g.state(i).route_state != DoubleXyTurnRouting::kOpen) {
          ASSERT_EQ(from, to) << g.describe(i);
        }
        switches += to != from ? 1 : 0;
      }
    }
  }
  EXPECT_GT(switches, 0);
}

/// The reconstruction as a permission table: Double XY, plus every turn from network 0 to
/// network 1 in classes 1, 3, 4, 6 (and for neighbours).
TurnTable one_way_table() {
  TurnTable t = tools::double_xy_table();
  for (int row : {0, 1, 3, 4, 6}) {
    for (int a = 0; a < tools::kChannelTypes; ++a) {
      for (int b = 0; b < tools::kChannelTypes; ++b) {
        if (tools::type_network(a) == 0 && tools::type_network(b) == 1) t.set(row, a, b, true);
      }
    }
  }
  return t;
}

/// (port, VC mask) pairs offered for one request.
std::set<std::pair<int, int>> offered(const RoutingFunction& r, const RouteRequest& q) {
  RouteOptions options;
  r.route(q, options);
  std::set<std::pair<int, int>> out;
  for (const auto& o : options) out.insert({o.port, o.vcs});
  return out;
}

// A second, independent algorithm: the table-driven routing (reachability computed backwards
// over the mesh) with the one-way table offers exactly the same steps at every reachable state.
TEST(DoubleXyTurnRouting, MatchesTableDrivenReference) {
  for (int t = 1; t <= 4; ++t) {
    const HoneycombMesh h(t);
    const DoubleXyTurnRouting r(h);
    const TurnTableRouting ref(h, one_way_table());
    for (std::uint32_t a = 0; a < h.num_nodes(); ++a) {
      for (std::uint32_t b = 0; b < h.num_nodes(); ++b) {
        if (a == b) continue;
        const NodeId s(a);
        const NodeId d(b);
        std::set<std::tuple<std::uint32_t, int, int>> seen;
        std::function<void(NodeId, PortId, VcId)> walk = [&](NodeId node, PortId in, VcId vc) {
          if (node == d || !seen.insert({node.value(), in, vc}).second) return;
          const auto mine = offered(r, {node, s, d, in, vc, r.initial_state(s, d)});
          ASSERT_EQ(mine, offered(ref, {node, s, d, in, vc, ref.initial_state(s, d)}))
              << "H" << t << " " << h.node_label(s) << " -> " << h.node_label(d) << " at "
              << h.node_label(node);
          for (const auto& [port, vcs] : mine) {
            for (int v = 0; v < 2; ++v) {
              if (((vcs >> v) & 1) != 0) {
                walk(h.neighbor(node, static_cast<PortId>(port)),
                     Topology::reverse_port(static_cast<PortId>(port)), static_cast<VcId>(v));
              }
            }
          }
        };
        walk(s, kInjectionPort, 0);
      }
    }
  }
}

// Why the reconstruction departs from the text: the literal reading closes a dependency cycle
// around the single hexagon H_1 (six channels), although every pair is delivered.
TEST(DoubleXyTurnSearch, LiteralReadingIsCyclicOnH1) {
  const HoneycombMesh h(1);
  const TurnTableRouting literal(h, tools::literal_table());
  AnalysisOptions ao;
  ao.loads = false;
  const RoutingAnalysis a = analyze_routing(h, literal, ao);
  EXPECT_TRUE(a.delivery.ok);
  EXPECT_EQ(a.cdg.shortest_cycle().size(), 6U);
}

// Six turns break all 32 abstract (hexagon) cycles -- the paper's count -- but not the longer
// cycles: forbidding only those six of the eight network-1-to-0 turns is cyclic on H_2; all
// eight are deadlock-free.
TEST(DoubleXyTurnSearch, SixAbstractCycleTurnsAreNotEnoughEightAre) {
  using tools::channel_type;
  const int x0p = channel_type(0, 1, 0);
  const int x1p = channel_type(0, 1, 1);
  const int x0m = channel_type(0, -1, 0);
  const int x1m = channel_type(0, -1, 1);
  const int y0p = channel_type(1, 1, 0);
  const int y1p = channel_type(1, 1, 1);
  const int y0m = channel_type(1, -1, 0);
  const int y1m = channel_type(1, -1, 1);
  const int zp = channel_type(2, 1, 0);
  const int zm = channel_type(2, -1, 0);
  const std::pair<int, int> six[] = {{zm, x0p}, {zm, y0p},  {x1m, zp},
                                     {y1m, zp}, {x1p, y0m}, {y1p, x0m}};
  const std::pair<int, int> last_two[] = {{x1m, y0p}, {y1m, x0p}};
  // The abstract cycles: a hexagon walked either way, X+ Y- Z+ X- Y+ Z- or X+ Z- Y+ X- Z+ Y-,
  // with either VC on each of its four X/Y channels. Each contains one of the six turns.
  const int hexagon[2][6][2] = {{{0, 1}, {1, -1}, {2, 1}, {0, -1}, {1, 1}, {2, -1}},
                                {{0, 1}, {2, -1}, {1, 1}, {0, -1}, {2, 1}, {1, -1}}};
  for (const auto& walk : hexagon) {
    for (int vcs = 0; vcs < 16; ++vcs) {
      int type[6];
      for (int k = 0, bit = 0; k < 6; ++k) {
        type[k] = channel_type(walk[k][0], walk[k][1], walk[k][0] == 2 ? 0 : (vcs >> bit++) & 1);
      }
      int broken = 0;
      for (int k = 0; k < 6; ++k) {
        for (const auto& turn : six) broken += turn == std::pair{type[k], type[(k + 1) % 6]};
      }
      EXPECT_GE(broken, 1) << vcs;
    }
  }
  TurnTable t = TurnTable::all();
  for (const auto& [a, b] : six) {
    for (int row = 0; row < tools::kRows; ++row) t.set(row, a, b, false);
  }
  AnalysisOptions ao;
  ao.loads = false;
  const HoneycombMesh h1(1);
  const HoneycombMesh h2(2);
  EXPECT_TRUE(analyze_routing(h1, TurnTableRouting(h1, t), ao).cdg.shortest_cycle().empty());
  const RoutingAnalysis six_only = analyze_routing(h2, TurnTableRouting(h2, t), ao);
  EXPECT_TRUE(six_only.delivery.ok);
  EXPECT_FALSE(six_only.cdg.shortest_cycle().empty());
  for (const auto& [a, b] : last_two) {
    for (int row = 0; row < tools::kRows; ++row) t.set(row, a, b, false);
  }
  for (int size = 1; size <= 4; ++size) {
    const HoneycombMesh h(size);
    const RoutingAnalysis eight = analyze_routing(h, TurnTableRouting(h, t), ao);
    EXPECT_TRUE(eight.delivery.ok && eight.delivery.all_minimal);
    EXPECT_TRUE(eight.cdg.shortest_cycle().empty()) << "H" << size;
  }
}

// Same physical adaptivity as Double XY: with each pair's unit split evenly over the ports,
// every channel carries the same load, so pi and sigma(4) are equal.
TEST(DoubleXyTurnRouting, ChannelLoadsEqualDoubleXy) {
  const HoneycombMesh h(4);
  const RoutingAnalysis mine = analyze_routing(h, DoubleXyTurnRouting(h));
  const RoutingAnalysis theirs = analyze_routing(h, DoubleXyRouting(h));
  ASSERT_EQ(mine.loads.gamma.size(), theirs.loads.gamma.size());
  for (std::size_t c = 0; c < mine.loads.gamma.size(); ++c) {
    EXPECT_NEAR(mine.loads.gamma[c], theirs.loads.gamma[c], 1e-9) << c;
  }
}

}  // namespace
}  // namespace wormnet
