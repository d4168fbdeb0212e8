// analyze_routing against a second algorithm: every route of every ordered pair walked one by
// one from RoutingFunction::route (tests/support/route_enumeration.hpp), which gives the
// channel dependencies, the loads gamma_c under the even-split rule and the path lengths
// without the routing state graph. Also: delivery for every routing, minimality and stretch,
// and routings broken on purpose, which must be reported as defects.
#include "wormnet/verify/routing_analysis.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/bfs.hpp"
#include "../../support/route_enumeration.hpp"
#include "../../support/routing_case.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {
namespace {

/// Routings that must exist on each kind of topology (more may: they are tested too).
const std::vector<std::string> kHoneycombRoutings{"stojmenovic", "xy-first", "double-xy",
                                                  "minimal-adaptive"};
const std::vector<std::string> kMeshRoutings{"xy", "west-first"};
const std::vector<std::string> kTorusRoutings{"dor", "dor-dateline", "angara"};
const std::vector<std::string> kHoneycombTorusRoutings{
    "stojmenovic", "stojmenovic-dateline", "double-xy-dateline", "minimal-adaptive", "duato"};

/// Every routing that fits the topology and is implemented, with dor also under bubble flow
/// control; fails if one of the required routings is missing.
std::vector<test::RoutingCase> all_routings(const std::string& spec) {
  const auto topo = make_topology(spec);
  const std::vector<std::string>& required =
      topo->kind() == TopologyKind::kHoneycomb        ? kHoneycombRoutings
      : topo->kind() == TopologyKind::kMesh           ? kMeshRoutings
      : topo->kind() == TopologyKind::kHoneycombTorus ? kHoneycombTorusRoutings
                                                      : kTorusRoutings;
  std::vector<test::RoutingCase> cases;
  std::size_t must_count = 0;
  for (const std::string& name : routing_names(*topo)) {
    // West-first is defined on 2-D meshes only.
    if (name == "west-first" && static_cast<const Torus&>(*topo).num_dims() != 2) continue;
    const bool must = std::find(required.begin(), required.end(), name) != required.end();
    must_count += must ? 1 : 0;
    try {
      cases.push_back(test::make_case(spec, name));
    } catch (const InputError& e) {
      EXPECT_FALSE(must) << spec << " " << name << ": " << e.what();
    }
  }
  if (topo->kind() == TopologyKind::kTorus) {
    cases.push_back(test::make_case(spec, "dor", FlowControl::kBubble));
  }
  EXPECT_GE(cases.size(), must_count) << spec;
  EXPECT_GE(must_count, required.size() - 1) << spec;
  return cases;
}

const std::vector<std::string> kSmallTopologies{"honeycomb:1",
                                                "honeycomb:2",
                                                "honeycomb:3",
                                                "mesh:4x4",
                                                "mesh:5x3",
                                                "mesh:3x2x3",
                                                "mesh:7",
                                                "torus:4x4",
                                                "torus:3x5",
                                                "torus:2x3x4",
                                                "torus:6",
                                                "torus:2x2x2",
                                                "honeycomb-torus:1",
                                                "honeycomb-torus:2",
                                                "honeycomb-rect:4x4",
                                                "honeycomb-rhombic:3x6"};

/// (a) The set of CDG edges and (b) gamma_c, path lengths and minimality, against the walks.
void expect_agrees_with_enumeration(const Topology& topo, const RoutingFunction& routing) {
  const int vcs = routing.vcs_required();
  const RoutingAnalysis a = analyze_routing(topo, routing);
  const test::EnumeratedRoutes ref = test::enumerate_paths(topo, routing, vcs);
  ASSERT_TRUE(ref.defect.empty()) << ref.defect;
  ASSERT_TRUE(a.delivery.ok) << a.delivery.defect;

  // (a) Same dependency set: as many, and each enumerated one is in the graph.
  EXPECT_EQ(a.cdg.num_edges(), ref.dependencies.size());
  const auto v = static_cast<test::DepVertex>(vcs);
  for (const auto& [from, to] : ref.dependencies) {
    ASSERT_TRUE(a.cdg.has_dependency(ChannelId(from / v), static_cast<VcId>(from % v),
                                     ChannelId(to / v), static_cast<VcId>(to % v)))
        << topo.channel_label(ChannelId(from / v)) << " vc" << from % v << " -> "
        << topo.channel_label(ChannelId(to / v)) << " vc" << to % v;
  }
  // (b) Same loads, channel by channel.
  ASSERT_EQ(a.loads.gamma.size(), ref.gamma.size());
  for (std::size_t ch = 0; ch < ref.gamma.size(); ++ch) {
    EXPECT_NEAR(a.loads.gamma[ch], ref.gamma[ch], 1e-9)
        << topo.channel_label(ChannelId(static_cast<std::uint32_t>(ch)));
  }
  // Path lengths and minimality.
  const std::uint64_t n = topo.num_nodes();
  EXPECT_EQ(a.delivery.pairs, n * (n - 1));
  EXPECT_EQ(a.delivery.max_path, ref.max_hops);
  EXPECT_NEAR(a.delivery.average_path, ref.expected_hops / static_cast<double>(n * (n - 1)), 1e-9);
  EXPECT_EQ(a.delivery.all_minimal, ref.all_shortest);
  // The sum of the loads is the sum of the mean route lengths (every hop loads a channel).
  double total = 0;
  for (double g : ref.gamma) total += g;
  EXPECT_NEAR(total, ref.expected_hops, 1e-6);
}

TEST(RoutingAnalysisSecondAlgorithm, DependenciesLoadsAndPathsAgreeWithRouteEnumeration) {
  for (const std::string& spec : kSmallTopologies) {
    for (const test::RoutingCase& c : all_routings(spec)) {
      SCOPED_TRACE(c.label() + (c.routing->needs_bubble() ? " (bubble)" : ""));
      expect_agrees_with_enumeration(*c.topo, *c.routing);
    }
    // Half-ring ties drawn per packet: every draw enumerated, each half the pair's unit.
    if (!spec.starts_with("torus:")) continue;
    for (const char* r : {"dor", "dor-dateline", "dor-booksim", "dor-balanced"}) {
      test::RoutingCase c;
      c.topo = make_topology(spec);
      c.routing = make_routing(r, *c.topo, FlowControl::kCredit, nullptr, RingTie::kRandom);
      SCOPED_TRACE(c.label() + " with drawn ties");
      expect_agrees_with_enumeration(*c.topo, *c.routing);
    }
  }
}

TEST(RoutingAnalysisDelivery, EveryRoutingDeliversEveryPairOnSeveralSizes) {
  for (const char* spec :
       {"honeycomb:1", "honeycomb:4", "honeycomb:7", "mesh:2x2", "mesh:8x8", "mesh:16x16",
        "mesh:3x4x5", "torus:2", "torus:8x8", "torus:5x4x3", "torus:4x4x4x4", "torus:3x2x2x2x2x2",
        "honeycomb-torus:5", "honeycomb-rect:8x8", "honeycomb-rhombic:5x8"}) {
    for (const test::RoutingCase& c : all_routings(spec)) {
      AnalysisOptions o;
      o.cdg = false;
      const RoutingAnalysis a = analyze_routing(*c.topo, *c.routing, o);
      EXPECT_TRUE(a.delivery.ok) << c.label() << ": " << a.delivery.defect;
      const std::uint64_t n = c.topo->num_nodes();
      EXPECT_EQ(a.delivery.pairs, n * (n - 1)) << c.label();
      // A route can never be shorter than the distance; minimal ones never longer.
      EXPECT_GE(a.delivery.max_path, c.topo->diameter()) << c.label();
      if (c.routing->minimal()) {
        EXPECT_EQ(a.delivery.max_path, c.topo->diameter()) << c.label();
      }
    }
  }
}

// xy-first zig-zags past the destination's x or y and is not minimal: some pair takes a
// detour, so the mean route is longer than the mean distance (stretch > 1). Every other
// routing claims minimality, and each route must be a shortest one (BFS distances in the
// enumeration; routes_minimal in the analysis).
TEST(RoutingAnalysisDelivery, XyFirstIsNonMinimalAndTheOthersAreMinimal) {
  for (const char* spec : {"honeycomb:2", "honeycomb:3", "honeycomb:5", "mesh:6x5", "torus:6x5",
                           "torus:4x3x2", "honeycomb-torus:3"}) {
    for (const test::RoutingCase& c : all_routings(spec)) {
      SCOPED_TRACE(c.label());
      AnalysisOptions o;
      o.cdg = false;
      o.loads = false;
      const DeliveryReport d = analyze_routing(*c.topo, *c.routing, o).delivery;
      // Mean distance from breadth-first search, independent of the analysis.
      double sum = 0;
      for (std::uint32_t s = 0; s < c.topo->num_nodes(); ++s) {
        for (int dist : test::bfs_distances(*c.topo, NodeId(s))) sum += dist;
      }
      EXPECT_NEAR(d.average_minimal, sum / static_cast<double>(d.pairs), 1e-9);
      if (c.routing->name() == "xy-first") {
        EXPECT_FALSE(c.routing->minimal());
        EXPECT_FALSE(d.all_minimal);
        EXPECT_GT(d.stretch(), 1.0 + 1e-3);
        EXPECT_GT(d.max_path, c.topo->diameter());
      } else {
        EXPECT_TRUE(c.routing->minimal());
        EXPECT_TRUE(d.all_minimal);
        EXPECT_NEAR(d.stretch(), 1.0, 1e-12);
      }
    }
  }
}

// --- Routings broken on purpose ---------------------------------------------------------------

/// Dimension-order steps on a mesh, for the broken variants below to deviate from.
PortId mesh_dor_port(const Torus& t, NodeId node, NodeId dest) {
  for (int d = 0; d < t.num_dims(); ++d) {
    const int a = t.coord(node, d);
    const int b = t.coord(dest, d);
    if (a != b) return Topology::port_of(d, b > a ? 1 : -1);
  }
  return 0;
}

class BrokenRouting : public RoutingFunction {
 public:
  explicit BrokenRouting(const Torus& t) : t_(t) {}
  [[nodiscard]] std::string name() const override { return "broken"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return false; }
  [[nodiscard]] std::string description() const override { return "test routing"; }

 protected:
  const Torus& t_;
};

/// Gives up at the node (1, 1) unless it is the destination.
class DeadEndRouting final : public BrokenRouting {
 public:
  using BrokenRouting::BrokenRouting;
  void route(const RouteRequest& r, RouteOptions& out) const override {
    if (t_.coord(r.node, 0) == 1 && t_.coord(r.node, 1) == 1) return;
    out.add(mesh_dor_port(t_, r.node, r.dest), 1);
  }
};

/// Offers X+ at the east edge, where there is no link.
class LeavesNetworkRouting final : public BrokenRouting {
 public:
  using BrokenRouting::BrokenRouting;
  void route(const RouteRequest& r, RouteOptions& out) const override {
    if (t_.coord(r.node, 0) == t_.size(0) - 1) {
      out.add(Topology::port_of(0, 1), 1);
      return;
    }
    out.add(mesh_dor_port(t_, r.node, r.dest), 1);
  }
};

/// Bounces between columns 0 and 1 for destinations in column 3: never arrives.
class LivelockRouting final : public BrokenRouting {
 public:
  using BrokenRouting::BrokenRouting;
  void route(const RouteRequest& r, RouteOptions& out) const override {
    const int x = t_.coord(r.node, 0);
    if (t_.coord(r.dest, 0) == 3 && x <= 1) {
      out.add(Topology::port_of(0, x == 0 ? 1 : -1), 1);
      return;
    }
    out.add(mesh_dor_port(t_, r.node, r.dest), 1);
  }
};

/// Asks for VC 1 when only VC 0 exists.
class BadVcRouting final : public BrokenRouting {
 public:
  using BrokenRouting::BrokenRouting;
  void route(const RouteRequest& r, RouteOptions& out) const override {
    out.add(mesh_dor_port(t_, r.node, r.dest), 2);
  }
};

template <class R>
void expect_defect(const char* what) {
  const Torus mesh({4, 4}, false);
  const R routing(mesh);
  const RoutingAnalysis a = analyze_routing(mesh, routing);
  EXPECT_FALSE(a.delivery.ok) << what;
  EXPECT_NE(a.delivery.defect.find(what), std::string::npos) << a.delivery.defect;
  // The independent walk agrees that the routing is broken.
  const test::EnumeratedRoutes ref = test::enumerate_paths(mesh, routing, 1);
  EXPECT_FALSE(ref.defect.empty()) << what;
}

TEST(RoutingAnalysisDelivery, DeadEndIsADefect) {
  expect_defect<DeadEndRouting>("dead end");
}

TEST(RoutingAnalysisDelivery, StepOutOfTheNetworkIsADefect) {
  expect_defect<LeavesNetworkRouting>("illegal step");
}

TEST(RoutingAnalysisDelivery, LivelockIsADefect) {
  expect_defect<LivelockRouting>("livelock");
}

TEST(RoutingAnalysisDelivery, VirtualChannelOutOfRangeIsADefect) {
  expect_defect<BadVcRouting>("illegal step");
}

// The defect names the state, worked out by hand: the first destination in node order that
// has a defect, and in it the first state found (the sources' injections in node order, then
// the states they lead to). Catches a state key decoded into the wrong node, arrival or state.
TEST(RoutingAnalysisDelivery, TheDefectNamesItsStateAndDestination) {
  const Torus mesh({4, 4}, false);
  auto at = [&](int x, int y) {
    for (std::uint32_t v = 0; v < mesh.num_nodes(); ++v) {
      if (mesh.coord(NodeId(v), 0) == x && mesh.coord(NodeId(v), 1) == y) return NodeId(v);
    }
    return NodeId::invalid();
  };
  // Toward (0,0), the packet injected at (1,1) is the first to reach the dead end there.
  EXPECT_EQ(analyze_routing(mesh, DeadEndRouting(mesh)).delivery.defect,
            "dead end injected at " + mesh.node_label(at(1, 1)) + " (state 0, bound for " +
                mesh.node_label(at(0, 0)) + ")");
  // Toward (3,0), the first destination in column 3: the injection at (0,0) steps X+ to
  // (1,0), the first state of the bounce between columns 0 and 1.
  EXPECT_EQ(analyze_routing(mesh, LivelockRouting(mesh)).delivery.defect,
            "livelock: routing states form a cycle through after " +
                mesh.channel_label(mesh.channel(at(0, 0), Topology::port_of(0, 1))) +
                " vc0 (state 0, bound for " + mesh.node_label(at(3, 0)) + ")");
  // Toward (0,0), the injection at (3,0) on the east edge asks for X+ (port 0, VC mask 1).
  EXPECT_EQ(analyze_routing(mesh, LeavesNetworkRouting(mesh)).delivery.defect,
            "illegal step (port 0, vcs 1) injected at " + mesh.node_label(at(3, 0)) +
                " (state 0, bound for " + mesh.node_label(at(0, 0)) + ")");
}

TEST(RoutingAnalysisDelivery, TheControlRoutingForTheBrokenOnesDelivers) {
  // The broken routings deviate from this one; on its own it must pass, or the defect tests
  // would prove nothing.
  class MeshDor final : public BrokenRouting {
   public:
    using BrokenRouting::BrokenRouting;
    void route(const RouteRequest& r, RouteOptions& out) const override {
      out.add(mesh_dor_port(t_, r.node, r.dest), 1);
    }
  };
  const Torus mesh({4, 4}, false);
  const MeshDor routing(mesh);
  const RoutingAnalysis a = analyze_routing(mesh, routing);
  EXPECT_TRUE(a.delivery.ok) << a.delivery.defect;
  EXPECT_TRUE(a.delivery.all_minimal);
  EXPECT_TRUE(a.cdg.shortest_cycle().empty());
}

}  // namespace
}  // namespace wormnet

namespace wormnet {
namespace {

/// A test routing whose choices depend on the input port and VC, so that some dependencies
/// arise only where the packet has a choice, and the loads depend on the split over VCs:
/// dimension order on a 2-D mesh on either of 2 VCs, except that at (1,1), a packet that came
/// up column 1 on VC 1 and is bound further up column 1 may also step aside to X- (VC 0)
/// before coming back.
class DetourRouting final : public BrokenRouting {
 public:
  using BrokenRouting::BrokenRouting;
  [[nodiscard]] int vcs_required() const override { return 2; }
  void route(const RouteRequest& r, RouteOptions& out) const override {
    out.add(mesh_dor_port(t_, r.node, r.dest), 3);
    const bool at_11 = t_.coord(r.node, 0) == 1 && t_.coord(r.node, 1) == 1;
    const bool up_column = t_.coord(r.dest, 0) == 1 && t_.coord(r.dest, 1) >= 2;
    if (at_11 && up_column && r.in_port == Topology::port_of(1, -1) && r.in_vc == 1) {
      out.add(Topology::port_of(0, -1), 1);
    }
  }
};

TEST(RoutingAnalysisSecondAlgorithm, AgreesOnARoutingWithChoicesThatDependOnTheVc) {
  const Torus mesh({4, 4}, false);
  const DetourRouting routing(mesh);
  expect_agrees_with_enumeration(mesh, routing);
  // The detour's turn Y+ -> X- at (1,1) exists only as the second choice of a branching state.
  const RoutingAnalysis a = analyze_routing(mesh, routing);
  const NodeId n10 = mesh.node_at(Coord{{1, 0}, 2});
  const NodeId n11 = mesh.node_at(Coord{{1, 1}, 2});
  EXPECT_TRUE(a.cdg.has_dependency(mesh.channel(n10, Topology::port_of(1, 1)), 1,
                                   mesh.channel(n11, Topology::port_of(0, -1)), 0));
  EXPECT_FALSE(a.cdg.has_dependency(mesh.channel(n10, Topology::port_of(1, 1)), 0,
                                    mesh.channel(n11, Topology::port_of(0, -1)), 0));
  EXPECT_FALSE(a.delivery.all_minimal);
}

}  // namespace
}  // namespace wormnet
