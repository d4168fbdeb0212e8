// The deadlock verdicts the Foundation issue expects, each checked against facts found without
// the verifier: the dependencies come from an independent search of the routes
// (tests/support/route_enumeration.hpp), shortest cycles from a brute-force breadth-first
// search over those, and the expected lengths from the network (girth of H_t, ring sizes).
#include "wormnet/verify/channel_dependency_graph.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "../../support/route_enumeration.hpp"
#include "../../support/routing_case.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

using test::Dependency;
using test::DepVertex;

RoutingAnalysis verify(const test::RoutingCase& c) {
  AnalysisOptions options;
  options.loads = false;
  return analyze_routing(*c.topo, *c.routing, options);
}

/// The reported cycle must be a closed chain of channels (each ends where the next starts),
/// and each of its dependencies must be one that some route really has (`deps`, found
/// independently), and not a ring-internal one when those are set aside.
void expect_real_cycle(const test::RoutingCase& c, const ChannelDependencyGraph& cdg,
                       const std::vector<ChannelDependencyGraph::Vertex>& cycle,
                       const std::set<Dependency>& deps) {
  const Topology& t = *c.topo;
  const auto vcs = static_cast<DepVertex>(c.vcs());
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const auto& a = cycle[i];
    const auto& b = cycle[(i + 1) % cycle.size()];
    SCOPED_TRACE(c.label() + ": step " + std::to_string(i) + " " + cdg.describe(a) + " -> " +
                 cdg.describe(b));
    EXPECT_EQ(t.channel_dest(a.channel), t.channel_source(b.channel));
    EXPECT_TRUE(deps.contains({a.channel.value() * vcs + a.vc, b.channel.value() * vcs + b.vc}));
    if (cdg.rings_set_aside()) {
      EXPECT_NE(t.channel_port(a.channel), t.channel_port(b.channel));
    }
  }
  // A cycle visits each channel-VC pair once.
  std::set<std::pair<std::uint32_t, int>> seen;
  for (const auto& v : cycle) EXPECT_TRUE(seen.insert({v.channel.value(), v.vc}).second);
}

/// Verdict and shortest-cycle length, checked against the independent dependency search.
/// `expected` is the shortest cycle length derived by hand, nullopt for acyclic.
void expect_verdict(const test::RoutingCase& c, std::optional<int> expected) {
  SCOPED_TRACE(c.label());
  const RoutingAnalysis a = verify(c);
  ASSERT_TRUE(a.delivery.ok) << a.delivery.defect;
  const auto cycle = a.cdg.shortest_cycle();

  const test::EnumeratedRoutes ref = test::reachable_dependencies(*c.topo, *c.routing, c.vcs());
  ASSERT_TRUE(ref.defect.empty()) << ref.defect;
  const std::set<Dependency> judged =
      c.routing->needs_bubble()
          ? test::without_ring_dependencies(*c.topo, c.vcs(), ref.dependencies)
          : ref.dependencies;
  const auto vertices = c.topo->num_channels() * static_cast<std::uint32_t>(c.vcs());
  const std::optional<int> brute = test::shortest_cycle_length(vertices, judged);

  EXPECT_EQ(brute, expected) << "independent search disagrees with the hand derivation";
  EXPECT_EQ(cycle.empty(), !expected.has_value());
  EXPECT_EQ(a.cdg.vertices_on_cycles() == 0, !expected.has_value());
  if (expected) {
    EXPECT_EQ(static_cast<int>(cycle.size()), *expected) << "reported cycle is not shortest";
    expect_real_cycle(c, a.cdg, cycle, ref.dependencies);
  }
}

// --- Honeycomb -------------------------------------------------------------------------------

// H_t has girth 6 (a hexagon), so a shortest channel cycle of a U-turn-free routing has at
// least 6 channels; every minimal one-VC routing uses all turns around some hexagon, so it
// has exactly 6. H_1 is a single hexagon: its 2-hop minimal routes already turn at every
// corner, both ways round, so it is cyclic too.
TEST(DeadlockVerdict, MinimalOneVcHoneycombRoutingsAreCyclicOnEveryHt) {
  for (int t = 1; t <= 6; ++t) {
    const auto topo = make_topology("honeycomb:" + std::to_string(t));
    EXPECT_EQ(test::network_girth(*topo), 6) << "H_" << t;
    for (const char* r : {"stojmenovic", "minimal-adaptive"}) {
      expect_verdict(test::make_case("honeycomb:" + std::to_string(t), r), 6);
    }
  }
}

TEST(DeadlockVerdict, MinimalOneVcHoneycombRoutingsStayCyclicOnLargerHt) {
  for (int t : {9, 16}) {
    for (const char* r : {"stojmenovic", "minimal-adaptive"}) {
      const auto c = test::make_case("honeycomb:" + std::to_string(t), r);
      EXPECT_EQ(verify(c).cdg.shortest_cycle().size(), 6U) << c.label();
    }
  }
}

TEST(DeadlockVerdict, XyFirstAndDoubleXyAreAcyclic) {
  for (int t = 1; t <= 6; ++t) {
    for (const char* r : {"xy-first", "double-xy"}) {
      expect_verdict(test::make_case("honeycomb:" + std::to_string(t), r), std::nullopt);
    }
  }
  for (const char* r : {"xy-first", "double-xy"}) {
    const auto c = test::make_case("honeycomb:16", r);
    EXPECT_TRUE(verify(c).cdg.shortest_cycle().empty()) << c.label();
  }
}

// --- Mesh ------------------------------------------------------------------------------------

TEST(DeadlockVerdict, MeshXyAndWestFirstAreAcyclic) {
  for (const char* m : {"mesh:2x2", "mesh:4x4", "mesh:5x3", "mesh:8x8"}) {
    expect_verdict(test::make_case(m, "xy"), std::nullopt);
    expect_verdict(test::make_case(m, "west-first"), std::nullopt);
  }
  for (const char* m : {"mesh:6", "mesh:3x4x2", "mesh:2x2x2x2"}) {
    expect_verdict(test::make_case(m, "xy"), std::nullopt);
  }
}

// --- Torus -----------------------------------------------------------------------------------

/// Hand derivation for `dor`: it never reverses inside a dimension and moves only from lower
/// to higher dimensions, so every dependency cycle runs round one ring in one direction and
/// has exactly k channels. A k-ring has such a cycle iff some route takes 2 hops in it from
/// every position: offset 2 is taken + when 2 <= k/2 (ties go +), i.e. k >= 4; in a 3-ring
/// every offset is 1 hop one way or the other, and a 2-node dimension is a single link.
/// So the shortest cycle has min{k_i : k_i >= 4} channels, and there is none if no k_i >= 4.
std::optional<int> dor_shortest_cycle(const std::vector<int>& sizes) {
  std::optional<int> best;
  for (int k : sizes) {
    if (k >= 4 && (!best || k < *best)) best = k;
  }
  return best;
}

const std::vector<std::vector<int>>& torus_sizes() {
  static const std::vector<std::vector<int>> sizes{
      {2},    {3},    {4},    {5},       {8},       {2, 2},    {3, 3},    {2, 3},    {2, 4},
      {4, 4}, {3, 5}, {6, 5}, {2, 2, 2}, {3, 3, 3}, {3, 3, 6}, {5, 7, 4}, {4, 2, 3}, {3, 2, 2, 2}};
  return sizes;
}

std::string torus_spec(const std::vector<int>& sizes) {
  std::string s = "torus:";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) s += 'x';
    s += std::to_string(sizes[i]);
  }
  return s;
}

TEST(DeadlockVerdict, TorusDorIsCyclicExactlyWhereARingHasFourOrMoreNodes) {
  for (const auto& sizes : torus_sizes()) {
    expect_verdict(test::make_case(torus_spec(sizes), "dor"), dor_shortest_cycle(sizes));
  }
  // Spot checks of the rule itself, stated in the issue.
  EXPECT_EQ(dor_shortest_cycle({3, 3}), std::nullopt);
  EXPECT_EQ(dor_shortest_cycle({2, 2, 2}), std::nullopt);
  EXPECT_EQ(dor_shortest_cycle({4, 4}), 4);
  EXPECT_EQ(dor_shortest_cycle({3, 5}), 5);
}

TEST(DeadlockVerdict, TorusDorCycleRunsRoundOneRing) {
  const auto c = test::make_case("torus:3x5", "dor");
  const auto cycle = verify(c).cdg.shortest_cycle();
  ASSERT_EQ(cycle.size(), 5U);
  const PortId port = c.topo->channel_port(cycle.front().channel);
  EXPECT_EQ(Topology::port_dim(port), 1);  // the 5-ring is dimension Y
  for (const auto& v : cycle) EXPECT_EQ(c.topo->channel_port(v.channel), port);
}

TEST(DeadlockVerdict, TorusDatelineIsAcyclic) {
  for (const auto& sizes : torus_sizes()) {
    expect_verdict(test::make_case(torus_spec(sizes), "dor-dateline"), std::nullopt);
  }
}

// The class-at-ring-entry policies (the argument is in ring_class_routing.hpp), with ties
// always + and with ties drawn per packet (both initial states explored), and the dateline
// routing with drawn ties. Plain dor with drawn ties keeps its ring cycles: the draw changes
// directions, not VCs.
TEST(DeadlockVerdict, RingClassPoliciesAndDrawnTiesAreAcyclic) {
  for (const auto& sizes : torus_sizes()) {
    const std::string spec = torus_spec(sizes);
    for (RingTie tie : {RingTie::kPlus, RingTie::kRandom}) {
      for (const char* r : {"dor-ring-class", "dor-booksim", "dor-balanced", "dor-dateline"}) {
        test::RoutingCase c;
        c.topo = make_topology(spec);
        c.routing = make_routing(r, *c.topo, FlowControl::kCredit, nullptr, tie);
        expect_verdict(c, std::nullopt);
      }
    }
    test::RoutingCase dor;
    dor.topo = make_topology(spec);
    dor.routing = make_routing("dor", *dor.topo, FlowControl::kCredit, nullptr, RingTie::kRandom);
    EXPECT_EQ(verify(dor).cdg.shortest_cycle().empty(), !dor_shortest_cycle(sizes).has_value())
        << spec;
  }
}

/// With bubble flow control, dependencies inside a ring are set aside; what stays must be
/// acyclic. Where a ring of 4 or more nodes exists, the full graph IS cyclic (minimal routes
/// take 2 hops in it), so the setting aside is what makes the verdict.
void expect_acyclic_apart_from_rings(const std::string& spec, const char* routing,
                                     FlowControl flow) {
  const auto c = test::make_case(spec, routing, flow);
  SCOPED_TRACE(c.label());
  ASSERT_TRUE(c.routing->needs_bubble());
  expect_verdict(c, std::nullopt);
  const RoutingAnalysis a = verify(c);
  EXPECT_TRUE(a.cdg.rings_set_aside());
  const auto& t = static_cast<const Torus&>(*c.topo);
  bool big_ring = false;
  for (int d = 0; d < t.num_dims(); ++d) big_ring = big_ring || t.size(d) >= 4;
  const auto ref = test::reachable_dependencies(*c.topo, *c.routing, c.vcs());
  const bool full_cyclic =
      test::shortest_cycle_length(c.topo->num_channels(), ref.dependencies).has_value();
  EXPECT_EQ(full_cyclic, big_ring);
  EXPECT_EQ(a.cdg.num_set_aside() > 0, big_ring);
}

TEST(DeadlockVerdict, AngaraIsAcyclicApartFromRings) {
  for (const auto& sizes : torus_sizes()) {
    expect_acyclic_apart_from_rings(torus_spec(sizes), "angara", FlowControl::kCredit);
  }
}

TEST(DeadlockVerdict, DorWithBubbleFlowControlIsAcyclicApartFromRings) {
  for (const auto& sizes : torus_sizes()) {
    expect_acyclic_apart_from_rings(torus_spec(sizes), "dor", FlowControl::kBubble);
  }
}

// --- The graph itself, on hand-built dependencies -------------------------------------------

TEST(ChannelDependencyGraph, HandBuiltCyclesShortestFirst) {
  const Torus ring({4}, true);  // ports X+ = 0, X- = 1
  const auto ch = [&](std::uint32_t n, PortId p) { return ring.channel(NodeId(n), p); };
  ChannelDependencyGraph g(ring, 1);
  EXPECT_TRUE(g.shortest_cycle().empty());
  // The 4-cycle of X+ channels round the ring.
  for (std::uint32_t n = 0; n < 4; ++n) g.add(ch(n, 0), 0, 0, 0);
  EXPECT_EQ(g.shortest_cycle().size(), 4U);
  EXPECT_EQ(g.vertices_on_cycles(), 4U);
  // A U-turn pair 0 -X+-> 1 -X-> 0 -X+-> ... is a 2-cycle: shorter, so it wins.
  g.add(ch(0, 0), 0, 1, 0);
  g.add(ch(1, 1), 0, 0, 0);
  const auto cycle = g.shortest_cycle();
  ASSERT_EQ(cycle.size(), 2U);
  EXPECT_TRUE((cycle[0].channel == ch(0, 0) && cycle[1].channel == ch(1, 1)) ||
              (cycle[0].channel == ch(1, 1) && cycle[1].channel == ch(0, 0)));
  EXPECT_EQ(g.num_edges(), 6U);
  EXPECT_TRUE(g.has_dependency(ch(1, 1), 0, ch(0, 0), 0));
  EXPECT_FALSE(g.has_dependency(ch(0, 0), 0, ch(0, 0), 0));  // does not leave node 1
  EXPECT_FALSE(g.has_dependency(ch(2, 0), 0, ch(3, 1), 0));  // not recorded
}

TEST(ChannelDependencyGraph, SettingRingsAsideDropsOnlySamePortDependencies) {
  const Torus ring({4}, true);
  const auto ch = [&](std::uint32_t n, PortId p) { return ring.channel(NodeId(n), p); };
  ChannelDependencyGraph g(ring, 2);
  for (std::uint32_t n = 0; n < 4; ++n) g.add(ch(n, 0), 0, 0, 0);  // ring X+ on VC 0
  g.set_aside_ring_dependencies(true);
  EXPECT_TRUE(g.shortest_cycle().empty());
  EXPECT_EQ(g.num_set_aside(), 4U);
  // A cycle through a U-turn is not ring-internal and must still be found.
  g.add(ch(0, 0), 1, 1, 1);
  g.add(ch(1, 1), 1, 0, 1);
  EXPECT_EQ(g.shortest_cycle().size(), 2U);
  EXPECT_EQ(g.num_set_aside(), 4U);
  EXPECT_EQ(g.num_edges(), 6U);
}

}  // namespace
}  // namespace wormnet
