#include "wormnet/tables/routing_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "minimal_walks.hpp"

namespace wormnet::tables {
namespace {

// The paper's counts per node: C_V(n) = 3^n + 2n + 1 and C_E(n) = 2n 3^n + 1.5n^2 + 1.5n + 1.
std::uint64_t paper_edges(int n) {
  std::uint64_t p = 1;
  for (int i = 0; i < n; ++i) p *= 3;
  return (4 * n * p + 3 * n * n + 3 * n + 2) / 2;
}

TEST(RoutingGraph, VerticesPerNodeAreThreeToTheNPlusTwoNPlusOne) {
  const std::vector<std::uint64_t> expected{6, 14, 34, 90, 254, 742};  // 3^n + 2n + 1
  for (int n = 1; n <= 6; ++n) {
    EXPECT_EQ(RoutingGraph::vertices_per_node(n), expected[static_cast<std::size_t>(n - 1)]);
    const Torus t(std::vector<int>(static_cast<std::size_t>(n), 3), true);
    const RoutingGraph g(t);
    EXPECT_EQ(static_cast<std::uint64_t>(g.num_states()),
              expected[static_cast<std::size_t>(n - 1)]);
  }
}

// Edges per node when every dimension is a ring, counted by hand from the four rules.
// n = 1 (directions +X < -X): begin 4 (FS+X, {+X}, {-X}, end); FS+X 2 ({-X}, end); {+X} 3
// ({+X}, LS-X, end); {-X} 2 ({-X}, end); LS-X 1 (end): 12.
// n = 2 (+X < +Y < -X < -Y): begin 7; FS+X 4 ({+Y}, {-X}, {-Y}, end), FS+Y 3: 7; dirbit
// {+X} 6, {+Y} 5, {+X,+Y} 4, {-X} 4, {-Y} 2, {-X,-Y} 2, {+X,-Y} 2, {+Y,-X} 3: 28; LS 2: 44.
// General n (derived by hand, checked here for n = 1..4): begin 3n+1, FS (3n^2+n)/2, LS n,
// dirbit sum over m of 3^m 2^(n-1-m) (2 + 1.5 (n-1-m)) [sets whose last direction is -m] and
// 2^m (3n - 1.5 m) [sets of + directions only, the last +m]: 12, 44, 135, 401. The paper's
// C_E(n) is 10, 46, 181, 679: it gives every dirbit vertex 2n edges (an upper bound on its
// non-end edges that is reached by no vertex for n >= 2) and counts no FS -> end and no
// dirbit -> end edge.
TEST(RoutingGraph, EdgesPerNodeByHandDifferFromThePapersFormula) {
  const std::vector<std::uint64_t> ours{12, 44, 135, 401};
  for (int n = 1; n <= 4; ++n) {
    const Torus t(std::vector<int>(static_cast<std::size_t>(n), 5), true);
    const RoutingGraph g(t);
    for (std::uint32_t u = 0; u < t.num_nodes(); u += 7) {
      EXPECT_EQ(g.edges_at(NodeId(u), EdgeSet::kLiteral), ours[static_cast<std::size_t>(n - 1)])
          << "n = " << n;
    }
  }
  EXPECT_EQ(paper_edges(1), 10U);
  EXPECT_EQ(paper_edges(2), 46U);
  EXPECT_EQ(paper_edges(3), 181U);
  EXPECT_EQ(paper_edges(4), 679U);
}

// torus:2 is one mesh link: node 0 has only +X, node 1 only -X (counted by hand).
// Node 0: begin 3 (FS+X, {+X}, end), FS+X 1 (end), {+X} 2 (+X, end), {-X} 1, LS-X 1: 8.
// Node 1: begin 2 ({-X}, end), FS+X 2 ({-X}, end), {+X} 2 (LS-X, end), {-X} 2, LS-X 1: 9.
TEST(RoutingGraph, MeshLinkHasFewerEdges) {
  const Torus t({2}, true);
  const RoutingGraph g(t);
  EXPECT_EQ(g.edges_at(NodeId(0), EdgeSet::kLiteral), 8U);
  EXPECT_EQ(g.edges_at(NodeId(1), EdgeSet::kLiteral), 9U);
}

TEST(RoutingGraph, StateLabels) {
  const Torus t({4, 4, 4}, true);
  const RoutingGraph g(t);
  EXPECT_EQ(g.state_label(g.begin_state()), "begin");
  EXPECT_EQ(g.state_label(g.first_step_state(1)), "FS+Y");
  EXPECT_EQ(g.state_label(g.last_step_state(2)), "LS-Z");
  EXPECT_EQ(g.state_label(g.end_state()), "end");
  // code digits: X = 1 (+), Y = 0, Z = 2 (-): 1 + 2 * 9 = 19.
  EXPECT_EQ(g.state_label(g.dirbit_state(19)), "{+X,-Z}");
  EXPECT_EQ(g.last_direction(19), 5);  // -Z
  EXPECT_EQ(g.minus_dims(19), 4U);
}

using Route = test_support::Walk;
using test_support::minimal_walks;

// Every routing-graph path of minimal length from begin(s) to end(d), as its port sequence.
void rg_paths(const RoutingGraph& g, EdgeSet set, NodeId s, NodeId u, RoutingGraph::State q,
              NodeId d, Route& walk, std::vector<Route>& out) {
  const Torus& t = g.topology();
  g.for_each_edge(u, q, set, [&](Direction o, RoutingGraph::State next) {
    if (o == RoutingGraph::kEndStep) {
      if (u == d) out.push_back(walk);
      return;
    }
    const PortId p = port_of(o, g.dims());
    const NodeId v = t.neighbor(u, p);
    if (t.distance(s, v) != t.distance(s, u) + 1 || t.distance(v, d) != t.distance(u, d) - 1) {
      return;
    }
    walk.push_back(static_cast<char>(p));
    rg_paths(g, set, s, v, next, d, walk, out);
    walk.pop_back();
  });
}

bool direction_order(const Route& r, int n) {
  for (std::size_t i = 1; i < r.size(); ++i) {
    if (direction_of(static_cast<PortId>(r[i]), n) <
        direction_of(static_cast<PortId>(r[i - 1]), n)) {
      return false;
    }
  }
  return true;
}

// Without added turns, the minimal routes of the routing graph are exactly the minimal walks
// whose directions follow the Angara order (on a minimal walk no dimension is used in both
// directions, so the direction-bit rule holds by itself). The canonical graph has one path
// per route; the literal graph has at least one.
TEST(RoutingGraph, MinimalPathsAreTheDirectionOrderWalks) {
  for (const auto& sizes :
       std::vector<std::vector<int>>{{5}, {4, 3}, {4, 2, 3}, {2, 2, 2}, {3, 4, 2, 2}}) {
    const Torus t(sizes, true);
    const RoutingGraph g(t);
    const int n = t.num_dims();
    for (std::uint32_t s = 0; s < t.num_nodes(); s += 3) {
      for (std::uint32_t d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        std::vector<Route> walks;
        Route w;
        minimal_walks(t, NodeId(s), NodeId(d), w, walks);
        std::set<Route> expected;
        for (const auto& r : walks) {
          if (direction_order(r, n)) expected.insert(r);
        }
        ASSERT_FALSE(expected.empty());
        std::vector<Route> canonical;
        rg_paths(g, EdgeSet::kCanonical, NodeId(s), NodeId(s), g.begin_state(), NodeId(d), w,
                 canonical);
        EXPECT_EQ(canonical.size(), expected.size()) << t.spec() << " " << s << "->" << d;
        EXPECT_EQ(std::set<Route>(canonical.begin(), canonical.end()), expected);
        std::vector<Route> literal;
        rg_paths(g, EdgeSet::kLiteral, NodeId(s), NodeId(s), g.begin_state(), NodeId(d), w,
                 literal);
        EXPECT_GE(literal.size(), canonical.size());
        EXPECT_EQ(std::set<Route>(literal.begin(), literal.end()), expected);
      }
    }
  }
}

// for_each_predecessor must list exactly the reversed edges of for_each_edge, also with
// added turns (here every turn the augmentation could ever add, FS- and LS-type).
TEST(RoutingGraph, PredecessorsAreTheReversedEdges) {
  const Torus t({3, 2, 4}, true);
  const int n = t.num_dims();
  TurnSet turns(t.num_nodes(), n);
  for (std::uint32_t v = 0; v < t.num_nodes(); ++v) {
    for (Direction i = 0; i < 2 * n; ++i) {
      for (Direction j = 0; j < i; ++j) {
        if (is_plus(i, n) == is_plus(j, n)) turns.add(NodeId(v), i, j);
      }
    }
  }
  for (const TurnSet& ts : {TurnSet{}, turns}) {
    const RoutingGraph g(t, ts);
    for (EdgeSet set : {EdgeSet::kLiteral, EdgeSet::kCanonical}) {
      std::multiset<std::tuple<std::uint32_t, int, std::uint32_t, int, int>> forward;
      std::multiset<std::tuple<std::uint32_t, int, std::uint32_t, int, int>> backward;
      for (std::uint32_t u = 0; u < t.num_nodes(); ++u) {
        for (int q = 0; q < g.num_states(); ++q) {
          const auto st = static_cast<RoutingGraph::State>(q);
          g.for_each_edge(NodeId(u), st, set, [&](Direction o, RoutingGraph::State next) {
            if (o == RoutingGraph::kEndStep) return;
            const NodeId v = t.neighbor(NodeId(u), port_of(o, n));
            forward.insert({u, q, v.value(), next, o});
          });
          if (st == g.end_state()) continue;
          g.for_each_predecessor(NodeId(u), st, set,
                                 [&](NodeId from, RoutingGraph::State p, Direction o) {
                                   backward.insert({from.value(), p, u, q, o});
                                 });
        }
      }
      EXPECT_EQ(forward, backward)
          << (set == EdgeSet::kLiteral ? "literal" : "canonical") << " turns " << ts.count();
    }
  }
}

}  // namespace
}  // namespace wormnet::tables
