// The routing analyses on networks with faults (docs/faults.md):
// - a routing whose route for some working pair takes a failed channel fails the delivery
//   check, which names the pair and the channel (dor on a torus with a failed link: the pair
//   the link joins, worked out by hand);
// - the loads, path lengths and pairs over the working pairs equal a brute-force walk of every
//   working pair's routes, even for a routing that claims torus translations (faults break
//   them: the analysis must not use them), and equal the analysis without symmetries;
// - the one filter (FaultAvoidingRouting) drops failed steps only where others remain, and
//   Duato's condition on the faulty network accepts an adaptive routing whose escape
//   routing still delivers and refuses one whose escape step was failed.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../../support/faulty_network.hpp"
#include "../../support/route_enumeration.hpp"
#include "../../support/routing_case.hpp"
#include "wormnet/routing/duato_routing.hpp"
#include "wormnet/routing/fault_avoiding_routing.hpp"
#include "wormnet/topology/fault_file.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/extended_dependency_graph.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

FaultSet faults_of(const Topology& topo, const std::string& text) {
  FaultSet f(topo);
  read_fault_list(topo, text, "--faults", "test", f);
  return f;
}

/// Every step along a shortest path of the working network (it reads the faults itself), and
/// a false claim: that it is translation-invariant on the torus, as it would be without faults.
class ShortestWorkingPaths final : public RoutingFunction {
 public:
  ShortestWorkingPaths(const Topology& topo, const FaultSet& faults)
      : topo_(topo), faults_(faults) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
    for (const ChannelId c : faults.failed_links()) {
      links.emplace_back(topo.channel_source(c).value(), topo.channel_dest(c).value());
    }
    std::vector<std::uint32_t> nodes;
    for (const NodeId n : faults.failed_nodes()) nodes.push_back(n.value());
    const test::ReferenceNetwork ref(topo, nodes, links);
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) dist_.push_back(ref.distances(d));
  }
  [[nodiscard]] std::string name() const override { return "shortest-working"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override { return "test"; }
  [[nodiscard]] Translation translation_invariance() const override { return Translation::kPorts; }
  void route(const RouteRequest& r, RouteOptions& out) const override {
    const std::vector<int>& to = dist_[r.dest.value()];
    for (int p = 0; p < topo_.num_ports(); ++p) {
      const NodeId m = topo_.neighbor(r.node, static_cast<PortId>(p));
      if (!m.valid() || faults_.port_failed(r.node, static_cast<PortId>(p))) continue;
      if (to[m.value()] == to[r.node.value()] - 1) out.add(static_cast<PortId>(p), 1);
    }
  }

 private:
  const Topology& topo_;
  const FaultSet& faults_;
  std::vector<std::vector<int>> dist_;  // [dest][node]: working distance
};

TEST(FaultAnalysis, DimensionOrderOverAFailedLinkIsRefusedNamingThePairAndTheChannel) {
  // torus:4x4 without the link (0,0)-(1,0): dor takes it from (1,0) to (0,0) (one hop X-), the
  // first working pair in the analysis' order (destination (0,0), sources by id) to need it.
  const test::RoutingCase c = test::make_case("torus:4x4", "dor");
  const FaultSet f = faults_of(*c.topo, "link (0,0) (1,0)");
  const FaultAvoidingRouting routing(make_routing("dor", *c.topo), f);
  AnalysisOptions o;
  o.faults = &f;
  const RoutingAnalysis a = analyze_routing(*c.topo, routing, o);
  EXPECT_FALSE(a.delivery.ok);
  EXPECT_EQ(a.delivery.defect,
            "the route (1,0) -> (0,0) takes (1,0) X- -> (0,0), a failed channel");
  // Without the faults the same routing delivers.
  EXPECT_TRUE(analyze_routing(*c.topo, *c.routing).delivery.ok);
}

TEST(FaultAnalysis, LoadsOverTheWorkingPairsAreTheBruteForceOnesWithoutTranslations) {
  const auto topo = make_topology("torus:5x4");
  const FaultSet f = faults_of(*topo, "link (0,0) (1,0)\nlink (3,2) Y+\nnode (2,1)");
  const ShortestWorkingPaths routing(*topo, f);
  AnalysisOptions o;
  o.cdg = false;
  o.faults = &f;
  const RoutingAnalysis a = analyze_routing(*topo, routing, o);
  ASSERT_TRUE(a.delivery.ok) << a.delivery.defect;
  EXPECT_EQ(a.plan.coverage, AnalysisScope::Coverage::kEveryDestination);
  EXPECT_EQ(a.plan.destinations.size(), 19U);

  // Brute force: every working pair's routes walked one by one.
  std::vector<std::uint32_t> failed{topo->node_at(Coord{{2, 1}, 2}).value()};
  const test::ReferenceNetwork ref(
      *topo, failed,
      {{topo->node_at(Coord{{0, 0}, 2}).value(), topo->node_at(Coord{{1, 0}, 2}).value()},
       {topo->node_at(Coord{{3, 2}, 2}).value(), topo->node_at(Coord{{3, 3}, 2}).value()}});
  test::EnumeratedRoutes walked;
  walked.gamma.assign(topo->num_channels(), 0.0);
  test::detail::PathWalker walker(*topo, routing, 1, 1'000'000, walked);
  std::uint64_t pairs = 0;
  double distance_sum = 0;
  for (std::uint32_t s = 0; s < topo->num_nodes(); ++s) {
    if (ref.failed[s]) continue;
    const std::vector<int> dist = ref.distances(s);
    for (std::uint32_t d = 0; d < topo->num_nodes(); ++d) {
      if (d == s || ref.failed[d]) continue;
      walker.pair(NodeId(s), NodeId(d), dist[d]);
      ++pairs;
      distance_sum += dist[d];
    }
  }
  ASSERT_TRUE(walked.defect.empty()) << walked.defect;
  EXPECT_EQ(a.delivery.pairs, pairs);
  EXPECT_EQ(pairs, 19U * 18U);
  EXPECT_TRUE(a.delivery.all_minimal);
  EXPECT_NEAR(a.delivery.average_minimal, distance_sum / static_cast<double>(pairs), 1e-12);
  EXPECT_NEAR(a.delivery.average_path, walked.expected_hops / static_cast<double>(pairs), 1e-12);
  double pi = 0;
  for (std::uint32_t ch = 0; ch < topo->num_channels(); ++ch) {
    EXPECT_NEAR(a.loads.gamma[ch], walked.gamma[ch], 1e-9) << topo->channel_label(ChannelId(ch));
    pi = std::max(pi, walked.gamma[ch]);
    if (f.channel_failed(ChannelId(ch))) {
      EXPECT_EQ(a.loads.gamma[ch], 0.0);
    }
  }
  EXPECT_NEAR(a.loads.pi, pi, 1e-9);
  EXPECT_NEAR(a.loads.saturation_rate, 18.0 / pi, 1e-9);
  // The perfect load spreads the working pairs' distances over the working channels.
  EXPECT_NEAR(a.loads.perfect_load, distance_sum / static_cast<double>(2 * ref.links), 1e-9);

  // And the same numbers without symmetries.
  o.symmetries = false;
  const RoutingAnalysis b = analyze_routing(*topo, routing, o);
  EXPECT_EQ(b.loads.gamma, a.loads.gamma);
  EXPECT_EQ(b.delivery.average_path, a.delivery.average_path);
}

/// Positive-first direction order on a 2-D mesh: all X+ hops, then Y+, then X-, then Y- (a
/// turn model: no turn from a - to a + direction, so it is deadlock-free and minimal). A node
/// it passes through is entered by a - step or left by a + step, never both: it never turns at
/// the corner (0,0), which only + steps leave and only - steps enter.
class PositiveFirst final : public RoutingFunction {
 public:
  explicit PositiveFirst(const Torus& mesh) : mesh_(mesh) {}
  [[nodiscard]] std::string name() const override { return "positive-first"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override { return "test"; }
  void route(const RouteRequest& r, RouteOptions& out) const override {
    const int dx = mesh_.coord(r.dest, 0) - mesh_.coord(r.node, 0);
    const int dy = mesh_.coord(r.dest, 1) - mesh_.coord(r.node, 1);
    const PortId port = dx > 0   ? Topology::port_of(0, +1)
                        : dy > 0 ? Topology::port_of(1, +1)
                        : dx < 0 ? Topology::port_of(0, -1)
                                 : Topology::port_of(1, -1);
    out.add(port, 1);
  }

 private:
  const Torus& mesh_;
};

TEST(FaultAnalysis, DuatoAvoidsAFailedAdaptiveChannelOnlyWhileItsEscapeStillDelivers) {
  const Torus mesh({3, 3}, false);
  const auto duato = [&](const FaultSet& f) {
    return std::make_unique<FaultAvoidingRouting>(
        std::make_unique<DuatoRouting>(mesh, std::make_unique<PositiveFirst>(mesh)), f);
  };
  // Without the corner (0,0): every working pair keeps a minimal path (the other turn), the
  // adaptive steps into the corner are dropped, and the escape never needs it: delivery holds
  // and Duato's condition holds on the faulty network.
  const FaultSet corner = faults_of(mesh, "node (0,0)");
  const auto a = duato(corner);
  AnalysisOptions o;
  o.faults = &corner;
  const RoutingAnalysis ok = analyze_routing(mesh, *a, o);
  EXPECT_TRUE(ok.delivery.ok) << ok.delivery.defect;
  EXPECT_TRUE(ok.delivery.all_minimal);
  EXPECT_EQ(ok.delivery.pairs, 8U * 7U);
  const DuatoReport holds = check_duato(mesh, *a, 0, &corner);
  EXPECT_TRUE(holds.holds()) << holds.disconnected;
  // Without the middle (1,1): toward (1,0) (the first destination with a defect, ids x + 3y),
  // (0,1) and (2,1) lose their escape X+/X- step into the middle but keep the adaptive Y-; the
  // source (0,2) goes X+ to (1,2), where Y- into the middle is the only minimal step left: the
  // delivery check names that pair and channel.
  const FaultSet middle = faults_of(mesh, "node (1,1)");
  const auto b = duato(middle);
  o.faults = &middle;
  const RoutingAnalysis refused = analyze_routing(mesh, *b, o);
  EXPECT_FALSE(refused.delivery.ok);
  EXPECT_EQ(refused.delivery.defect,
            "the route (0,2) -> (1,0) takes (1,2) Y- -> (1,1), a failed channel");
  // Without the corner (2,0): from (1,0) to (2,1) the escape's step X+ enters the corner and
  // is dropped, the adaptive Y+ is left: no escape step at the source, Duato's condition fails
  // (the first such state: destinations by id, (2,1) is the first the corner cuts off).
  const FaultSet other = faults_of(mesh, "node (2,0)");
  const auto c = duato(other);
  const DuatoReport dr = check_duato(mesh, *c, 0, &other);
  EXPECT_FALSE(dr.connected());
  EXPECT_EQ(dr.disconnected, "injected at (1,0) (state 0, bound for (2,1))");
}

/// Two steps, X+ and Y+, from every node (a stand-in for an adaptive routing).
class TwoSteps final : public RoutingFunction {
 public:
  [[nodiscard]] std::string name() const override { return "two"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return false; }
  [[nodiscard]] std::string description() const override { return "test"; }
  [[nodiscard]] Translation translation_invariance() const override {
    return Translation::kOptions;
  }
  void route(const RouteRequest&, RouteOptions& out) const override {
    out.add(Topology::port_of(0, +1), 1, 3);
    out.add(Topology::port_of(1, +1), 1, 4);
  }
};

TEST(FaultAnalysis, TheFilterDropsFailedStepsOnlyWhereOthersRemain) {
  const auto topo = make_topology("torus:4x4");
  const FaultSet f = faults_of(*topo, "link (0,0) X+\nlink (1,1) X+\nlink (1,1) Y+");
  const FaultAvoidingRouting routing(std::make_unique<TwoSteps>(), f);
  const auto options_at = [&](const Coord& c) {
    RouteRequest r;
    r.node = topo->node_at(c);
    r.dest = NodeId(15);
    RouteOptions out;
    routing.route(r, out);
    return out;
  };
  const RouteOptions none_failed = options_at(Coord{{2, 2}, 2});
  ASSERT_EQ(none_failed.size(), 2);
  const RouteOptions one_failed = options_at(Coord{{0, 0}, 2});
  ASSERT_EQ(one_failed.size(), 1);
  EXPECT_EQ(one_failed[0].port, Topology::port_of(1, +1));
  EXPECT_EQ(one_failed[0].next_state, 4U);
  const RouteOptions all_failed = options_at(Coord{{1, 1}, 2});
  EXPECT_EQ(all_failed.size(), 2);  // kept: the analysis names them
  EXPECT_EQ(routing.translation_invariance(), Translation::kNone);
  EXPECT_TRUE(routing.symmetries(ArrivalScope::kPorts).empty());
}

}  // namespace
}  // namespace wormnet
