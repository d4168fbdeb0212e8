// The analysis (states merged by the routing's declared arrival classes, one destination per
// class on tori with translation-invariant routings, destinations split into shares) against
// the previous algorithm, kept as a reference in tests/support/state_graph_reference.hpp: one
// state per (input channel, VC, packet state), every destination, no shares. Integer loads
// (deterministic routings) must agree exactly, fractional ones (adaptive routings, where the
// flows are added in another order) to 1e-12; dependencies, path lengths and delivery
// exactly. Networks of a few hundred nodes, where route enumeration would be too slow.
#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "../../support/bfs.hpp"
#include "../../support/routing_case.hpp"
#include "../../support/routing_declarations.hpp"
#include "../../support/state_graph_reference.hpp"
#include "../../support/thread_reduction.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/routing/double_xy_turn_routing.hpp"
#include "wormnet/routing/minimal_adaptive_routing.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

const char* const kNetworks[] = {"honeycomb:3",
                                 "honeycomb:5",
                                 "mesh:6x5",
                                 "mesh:4x3x3",
                                 "torus:6x6",
                                 "torus:5x4x3",
                                 "torus:7",
                                 "torus:2x5x3",
                                 "torus:4x4x2x3",
                                 "mesh:2x2",
                                 "honeycomb-torus:2",
                                 "honeycomb-rect:4x4",
                                 "honeycomb-rhombic:3x6"};

std::vector<test::RoutingCase> cases(const std::string& spec) {
  std::vector<test::RoutingCase> out;
  const auto topo = make_topology(spec);
  for (const std::string& name : routing_names(*topo)) {
    if (name == "table") continue;
    try {
      out.push_back(test::make_case(spec, name));
    } catch (const InputError&) {
    }
  }
  if (topo->kind() == TopologyKind::kTorus) {
    out.push_back(test::make_case(spec, "dor", FlowControl::kBubble));
    // Half-ring ties drawn per packet: each source's unit split over two initial states.
    for (const std::string& name : routing_names(*topo)) {
      if (takes_ring_tie(name))
        out.push_back(test::make_case(spec, name, FlowControl::kCredit, RingTie::kRandom));
    }
  }
  return out;
}

bool integral(const std::vector<double>& v) {
  for (double x : v) {
    if (x != std::floor(x)) return false;
  }
  return true;
}

/// Equal when the reference is integral, else within 1e-12 relative.
void expect_same(double mine, double ref, bool exact, const std::string& what) {
  if (exact) {
    EXPECT_EQ(mine, ref) << what;
  } else {
    EXPECT_NEAR(mine, ref, 1e-12 * std::max(1.0, std::fabs(ref))) << what;
  }
}

void expect_same_delivery(const DeliveryReport& a, const DeliveryReport& r, bool exact) {
  EXPECT_EQ(a.ok, r.ok) << a.defect << " / " << r.defect;
  EXPECT_EQ(a.pairs, r.pairs);
  EXPECT_EQ(a.max_path, r.max_path);
  EXPECT_EQ(a.all_minimal, r.all_minimal);
  EXPECT_EQ(a.average_minimal, r.average_minimal);
  expect_same(a.average_path, r.average_path, exact, "average path");
}

void expect_same_loads(const LoadReport& a, const LoadReport& r, bool exact) {
  ASSERT_EQ(a.gamma.size(), r.gamma.size());
  for (std::size_t c = 0; c < r.gamma.size(); ++c) {
    expect_same(a.gamma[c], r.gamma[c], exact, "gamma of channel " + std::to_string(c));
  }
  expect_same(a.pi, r.pi, exact, "pi");
  expect_same(a.min_load, r.min_load, exact, "min load");
  EXPECT_EQ(a.perfect_load, r.perfect_load);
  expect_same(a.mean_load, r.mean_load, exact, "mean load");
  expect_same(a.sigma4, r.sigma4, exact, "sigma4");
  expect_same(a.saturation_rate, r.saturation_rate, exact, "saturation rate");
}

TEST(AnalysisEquivalence, AgreesWithTheStateGraphReferenceOnEveryRouting) {
  for (const char* spec : kNetworks) {
    for (const test::RoutingCase& c : cases(spec)) {
      SCOPED_TRACE(c.label() + (c.routing->needs_bubble() ? " (bubble)" : "") +
                   (c.routing->initial_choices() > 1 ? " (drawn ties)" : ""));
      test::ReferenceAnalysis ref = test::reference_analysis(*c.topo, *c.routing);
      const bool exact = integral(ref.gamma);
      // Everything at once (the verifier's merging: whole results).
      RoutingAnalysis all = analyze_routing(*c.topo, *c.routing);
      expect_same_delivery(all.delivery, ref.delivery, exact);
      expect_same_loads(all.loads, ref.loads, exact);
      const auto mine = all.cdg.words();
      const auto theirs = ref.cdg.words();
      EXPECT_TRUE(std::equal(mine.begin(), mine.end(), theirs.begin(), theirs.end()));
      EXPECT_EQ(all.cdg.num_set_aside(), ref.cdg.num_set_aside());
      // Loads alone (the load analysis' merging: ports only, translations on tori).
      AnalysisOptions o;
      o.cdg = false;
      const RoutingAnalysis loads = analyze_routing(*c.topo, *c.routing, o);
      expect_same_delivery(loads.delivery, ref.delivery, exact);
      expect_same_loads(loads.loads, ref.loads, exact);
    }
  }
}

// The shortcuts are in use where they should be: one destination for translation-invariant
// routings on tori, fewer states than channels x VCs for routings that read no arrival.
TEST(AnalysisEquivalence, PlansUseTheRoutingsDeclarations) {
  const auto dor = test::make_case("torus:6x6", "dor");
  AnalysisOptions loads_only;
  loads_only.cdg = false;
  AnalysisScope p = analysis_scope(*dor.topo, *dor.routing, loads_only);
  EXPECT_EQ(p.coverage, AnalysisScope::Coverage::kTranslations);
  EXPECT_EQ(p.destinations.size(), 1U);
  EXPECT_EQ(p.scale, 36.0);
  // A size-2 dimension is no ring: one destination per coordinate there.
  const auto mixed = test::make_case("torus:2x5x3", "dor-dateline");
  p = analysis_scope(*mixed.topo, *mixed.routing, loads_only);
  EXPECT_EQ(p.coverage, AnalysisScope::Coverage::kTranslations);
  EXPECT_EQ(p.destinations.size(), 2U);
  // The dateline's VCs are not translation-invariant: the verifier explores every destination.
  p = analysis_scope(*mixed.topo, *mixed.routing);
  EXPECT_EQ(p.coverage, AnalysisScope::Coverage::kEveryDestination);
  // Meshes have no rings.
  const auto xy = test::make_case("mesh:6x5", "xy");
  EXPECT_EQ(analysis_scope(*xy.topo, *xy.routing, loads_only).coverage,
            AnalysisScope::Coverage::kEveryDestination);
  // Stojmenovic reads only node and destination: one state per node and destination.
  const auto s = test::make_case("honeycomb:4", "stojmenovic");
  AnalysisOptions every_destination = loads_only;
  every_destination.symmetries = false;
  const RoutingAnalysis a = analyze_routing(*s.topo, *s.routing, every_destination);
  const std::uint64_t n = s.topo->num_nodes();
  EXPECT_EQ(a.states_explored, n * n);
  // With its symmetry (the inversion, which fixes no node of H_t): half the destinations.
  EXPECT_EQ(analyze_routing(*s.topo, *s.routing, loads_only).states_explored, n * n / 2);
  // Double XY keeps the Z axis: 4 symmetries, of which the X-Y swap fixes the nodes with
  // x = y; by Burnside's lemma (N + fixed) / 4 orbits.
  const auto dxy = test::make_case("honeycomb:4", "double-xy");
  p = analysis_scope(*dxy.topo, *dxy.routing);
  EXPECT_EQ(p.coverage, AnalysisScope::Coverage::kSymmetries);
  EXPECT_EQ(p.symmetries.size(), 4U);
  std::uint64_t fixed = 0;
  for (std::uint32_t v = 0; v < dxy.topo->num_nodes(); ++v) {
    const Coord c = dxy.topo->coords(NodeId(v));
    fixed += c[0] == c[1] ? 1U : 0U;
  }
  EXPECT_EQ(p.destinations.size(), (dxy.topo->num_nodes() + fixed) / 4);
  // Improved Double XY: its loads have all 12 (the ports of minimal adaptive routing), its
  // VCs none.
  const auto turn = test::make_case("honeycomb:4", "double-xy-turn");
  EXPECT_EQ(analysis_scope(*turn.topo, *turn.routing, loads_only).symmetries.size(), 12U);
  EXPECT_EQ(analysis_scope(*turn.topo, *turn.routing).coverage,
            AnalysisScope::Coverage::kEveryDestination);
}

/// Minimal adaptive routing that gives up one hop before the destination: symmetric like
/// minimal adaptive routing, and broken toward every destination.
class GivesUpNextToTheDestination final : public RoutingFunction {
 public:
  explicit GivesUpNextToTheDestination(const Topology& t) : topo_(t), inner_(t) {}
  std::string name() const override { return "gives-up"; }
  int vcs_required() const override { return 1; }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  void route(const RouteRequest& r, RouteOptions& out) const override {
    if (topo_.distance(r.node, r.dest) > 1) inner_.route(r, out);
  }
  std::vector<NetworkSymmetry> symmetries(ArrivalScope s) const override {
    return inner_.symmetries(s);
  }

 private:
  const Topology& topo_;
  MinimalAdaptiveRouting inner_;
};

// A defect is named as without the symmetries: the first destination in node order, which
// need not be an orbit's representative.
TEST(AnalysisEquivalence, SymmetricAnalysisNamesTheFirstDefect) {
  const auto topo = make_topology("honeycomb:3");
  const GivesUpNextToTheDestination routing(*topo);
  ASSERT_EQ(routing.symmetries(ArrivalScope::kOptions).size(), 12U);
  AnalysisOptions off;
  off.symmetries = false;
  const RoutingAnalysis every = analyze_routing(*topo, routing, off);
  ASSERT_FALSE(every.delivery.ok);
  const RoutingAnalysis sym = analyze_routing(*topo, routing);
  EXPECT_EQ(sym.delivery.defect, every.delivery.defect);
  EXPECT_NE(every.delivery.defect.find("bound for " + topo->node_label(NodeId(0))),
            std::string::npos)
      << every.delivery.defect;
}

// --- Shares: the destinations split over threads, combined by a reduction ----------------

RoutingAnalysis analyze_in_parts(const test::RoutingCase& c, const AnalysisOptions& o, int parts) {
  test::ThreadReduction::Shared shared(parts);
  std::vector<RoutingAnalysis> results(static_cast<std::size_t>(parts));
  std::vector<std::thread> threads;
  for (int k = 0; k < parts; ++k) {
    threads.emplace_back([&, k] {
      results[static_cast<std::size_t>(k)] = analyze_routing(
          *c.topo, *c.routing, o, AnalysisShare{k, parts}, test::ThreadReduction(shared, k));
    });
  }
  for (auto& t : threads) t.join();
  // Every part ends with the same analysis.
  for (int k = 1; k < parts; ++k) {
    EXPECT_EQ(results[static_cast<std::size_t>(k)].loads.gamma, results[0].loads.gamma);
    EXPECT_EQ(results[static_cast<std::size_t>(k)].delivery.defect, results[0].delivery.defect);
  }
  return results[0];
}

TEST(AnalysisShares, SplittingTheDestinationsGivesBitIdenticalResults) {
  for (const auto& [spec, routing] :
       {std::pair{"honeycomb:4", "minimal-adaptive"}, std::pair{"honeycomb:4", "double-xy-turn"},
        std::pair{"honeycomb:5", "double-xy"}, std::pair{"mesh:5x4", "west-first"},
        std::pair{"torus:5x4", "dor-dateline"}}) {
    const test::RoutingCase c = test::make_case(spec, routing);
    SCOPED_TRACE(c.label());
    for (bool cdg : {false, true}) {
      AnalysisOptions o;
      o.cdg = cdg;
      RoutingAnalysis one = analyze_routing(*c.topo, *c.routing, o);
      for (int parts : {2, 3}) {
        RoutingAnalysis split = analyze_in_parts(c, o, parts);
        EXPECT_EQ(split.loads.gamma, one.loads.gamma) << parts;  // bit for bit
        EXPECT_EQ(split.loads.pi, one.loads.pi);
        EXPECT_EQ(split.loads.sigma4, one.loads.sigma4);
        EXPECT_EQ(split.delivery.average_path, one.delivery.average_path);
        EXPECT_EQ(split.delivery.max_path, one.delivery.max_path);
        EXPECT_EQ(split.states_explored, one.states_explored);
        if (cdg) {
          const auto a = split.cdg.words();
          const auto b = one.cdg.words();
          EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
        }
      }
    }
  }
}

// The mean route length is an exact sum (every step's flow added in fixed point, divided once):
// where every route is minimal it is the mean distance, whatever the routing splits, counted
// here by breadth-first search.
TEST(AnalysisExactPaths, MinimalRoutingsMeanPathIsTheMeanBfsDistance) {
  for (const char* spec :
       {"honeycomb:2", "honeycomb:4", "honeycomb:6", "mesh:5x4", "torus:5x4", "torus:3x4x2"}) {
    const auto topo = make_topology(spec);
    long double distance_sum = 0;
    for (std::uint32_t v = 0; v < topo->num_nodes(); ++v) {
      for (int d : test::bfs_distances(*topo, NodeId(v))) distance_sum += d;
    }
    const std::uint64_t n = topo->num_nodes();
    const auto mean = static_cast<double>(distance_sum / static_cast<long double>(n * (n - 1)));
    for (const test::RoutingCase& c : cases(spec)) {
      SCOPED_TRACE(c.label());
      const RoutingAnalysis a = analyze_routing(*c.topo, *c.routing);
      ASSERT_TRUE(a.delivery.ok) << a.delivery.defect;
      if (a.delivery.all_minimal) {
        EXPECT_EQ(a.delivery.average_path, mean);
      } else {
        EXPECT_GT(a.delivery.average_path, mean);
      }
    }
  }
}

// With the symmetries (for double-xy-turn: the delivery figures from its 12 port symmetries and
// the dependencies from every destination) the report is the same bits as without them.
TEST(AnalysisExactPaths, SymmetricAndFullPassesGiveTheSameReport) {
  for (int t = 1; t <= 6; ++t) {
    const std::string spec = "honeycomb:" + std::to_string(t);
    for (test::RoutingCase& c : cases(spec)) {
      SCOPED_TRACE(c.label());
      AnalysisOptions full;
      full.symmetries = false;
      full.loads = false;
      AnalysisOptions symmetric = full;
      symmetric.symmetries = true;
      RoutingAnalysis a = analyze_routing(*c.topo, *c.routing, symmetric);
      RoutingAnalysis b = analyze_routing(*c.topo, *c.routing, full);
      EXPECT_EQ(a.delivery.ok, b.delivery.ok);
      EXPECT_EQ(a.delivery.defect, b.delivery.defect);
      EXPECT_EQ(a.delivery.average_path, b.delivery.average_path);  // bit for bit
      EXPECT_EQ(a.delivery.average_minimal, b.delivery.average_minimal);
      EXPECT_EQ(a.delivery.max_path, b.delivery.max_path);
      EXPECT_EQ(a.delivery.all_minimal, b.delivery.all_minimal);
      const auto x = a.cdg.words();
      const auto y = b.cdg.words();
      EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
      if (c.routing->name() == "double-xy-turn" && t > 1) {
        // The split ran: fewer states than the pass over every destination alone.
        EXPECT_LT(a.states_explored, 2 * b.states_explored);
        EXPECT_GT(a.states_explored, b.states_explored);
      }
    }
  }
}

/// Improved Double XY whose packets that arrive next to the last node, bound for it, find no
/// step: a dead end toward one destination, which is no orbit's representative, so only the
/// split analysis's pass over every destination meets it.
class DeadEndNextToTheLastNode final : public RoutingFunction {
 public:
  explicit DeadEndNextToTheLastNode(const HoneycombMesh& t) : topo_(t), inner_(t) {}
  std::string name() const override { return "dead-end"; }
  int vcs_required() const override { return 2; }
  int state_count() const override { return inner_.state_count(); }
  RouteState initial_state(NodeId s, NodeId d) const override { return inner_.initial_state(s, d); }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  int arrival_class(ArrivalScope s, PortId p, VcId v) const override {
    return inner_.arrival_class(s, p, v);
  }
  // The destination classes of improved Double XY, the last node in classes of its own: the
  // dependency pass then runs over blocks of destinations (destination_block_pass.hpp).
  int destination_classes() const override { return 32; }
  int destination_class(NodeId n, NodeId d) const override {
    return inner_.destination_class(n, d) + (d.value() == topo_.num_nodes() - 1 ? 16 : 0);
  }
  void route(const RouteRequest& r, RouteOptions& out) const override {
    const bool broken = r.dest.value() == topo_.num_nodes() - 1 && r.in_port != kInjectionPort &&
                        topo_.distance(r.node, r.dest) == 1;
    if (!broken) inner_.route(r, out);
  }
  std::vector<NetworkSymmetry> symmetries(ArrivalScope s) const override {
    return inner_.symmetries(s);
  }

 private:
  const Topology& topo_;
  DoubleXyTurnRouting inner_;
};

// The split analysis (delivery from the symmetries, dependencies from every destination) names
// a defect of the dependency pass as the analysis without symmetries does, on any split.
TEST(AnalysisExactPaths, SplitAnalysisNamesTheDefectOfTheDependencyPass) {
  const auto topo = make_topology("honeycomb:3");
  const DeadEndNextToTheLastNode routing(static_cast<const HoneycombMesh&>(*topo));
  ASSERT_EQ(test::check_destination_classes(*topo, routing), "");
  AnalysisOptions off;
  off.symmetries = false;
  const RoutingAnalysis every = analyze_routing(*topo, routing, off);
  ASSERT_FALSE(every.delivery.ok);
  EXPECT_NE(every.delivery.defect.find("dead end after"), std::string::npos)
      << every.delivery.defect;
  EXPECT_NE(every.delivery.defect.find("bound for " +
                                       topo->node_label(NodeId(topo->num_nodes() - 1)) + ")"),
            std::string::npos)
      << every.delivery.defect;
  // The delivery figures alone (port symmetries) do not meet it.
  AnalysisOptions loads_only;
  loads_only.cdg = false;
  ASSERT_TRUE(analyze_routing(*topo, routing, loads_only).delivery.ok);
  EXPECT_EQ(analyze_routing(*topo, routing).delivery.defect, every.delivery.defect);
}

/// What the dependency pass must find for one routing, by a plain search per destination:
/// the routing states reached (node, arrival class, packet state; each routed once, with the
/// first arrival met) and every dependency (channel, VC) -> (next channel, VC) of a step into
/// a state that is not at the destination.
struct SearchedDependencies {
  std::uint64_t states = 0;
  std::set<std::tuple<std::uint32_t, int, std::uint32_t, int>> dependencies;
};

SearchedDependencies search_dependencies(const Topology& topo, const RoutingFunction& routing) {
  SearchedDependencies out;
  const int vcs = routing.vcs_required();
  struct Reached {
    NodeId node;
    PortId port;
    VcId vc;
    RouteState state;
  };
  auto options_of = [&](const Reached& r, NodeId dest) {
    RouteRequest q;
    q.node = r.node;
    q.dest = dest;
    q.in_port = r.port;
    q.in_vc = r.vc;
    q.state = r.state;
    RouteOptions o;
    routing.route(q, o);
    return o;
  };
  for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
    const NodeId dest(d);
    std::map<std::tuple<std::uint32_t, int, RouteState>, Reached> seen;
    std::vector<Reached> queue;
    auto reach = [&](const Reached& r) {
      const auto key = std::tuple{
          r.node.value(), routing.arrival_class(ArrivalScope::kOptions, r.port, r.vc), r.state};
      if (seen.emplace(key, r).second) queue.push_back(r);
      return seen.at(key);
    };
    for (std::uint32_t s = 0; s < topo.num_nodes(); ++s) {
      if (s != d)
        reach(Reached{NodeId(s), kInjectionPort, 0, routing.initial_state(NodeId(s), dest)});
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const Reached u = queue[head];
      if (u.node == dest) continue;
      for (const RouteOption& o : options_of(u, dest)) {
        const NodeId m = topo.neighbor(u.node, o.port);
        const ChannelId c = topo.channel(u.node, o.port);
        for (int v = 0; v < vcs; ++v) {
          if (((o.vcs >> v) & 1U) == 0) continue;
          const Reached w =
              reach(Reached{m, Topology::reverse_port(o.port), static_cast<VcId>(v), o.next_state});
          if (m == dest) continue;
          for (const RouteOption& next : options_of(w, dest)) {
            for (int x = 0; x < vcs; ++x) {
              if (((next.vcs >> x) & 1U) == 0) continue;
              out.dependencies.emplace(c.value(), v, topo.channel(m, next.port).value(), x);
            }
          }
        }
      }
    }
    out.states += seen.size();
  }
  return out;
}

// The dependency pass over blocks of 64 destinations (improved Double XY declares destination
// classes) reaches as many states as a plain search per destination and finds the same
// dependencies, on networks of one to three blocks.
TEST(AnalysisDestinationBlocks, StatesAndDependenciesAreThoseOfAPlainSearch) {
  for (int t = 1; t <= 5; ++t) {
    const test::RoutingCase c = test::make_case("honeycomb:" + std::to_string(t), "double-xy-turn");
    SCOPED_TRACE(c.label());
    ASSERT_GT(c.routing->destination_classes(), 0);
    const SearchedDependencies want = search_dependencies(*c.topo, *c.routing);
    const RoutingAnalysis split = analyze_routing(*c.topo, *c.routing);
    ASSERT_TRUE(split.delivery.ok) << split.delivery.defect;
    AnalysisOptions delivery;
    delivery.cdg = false;
    const RoutingAnalysis ports = analyze_routing(*c.topo, *c.routing, delivery);
    // The split's states: the delivery pass's, then the dependency pass's.
    EXPECT_EQ(split.states_explored - ports.states_explored, want.states);
    EXPECT_EQ(split.cdg.num_edges(), want.dependencies.size());
    for (const auto& [a, va, b, vb] : want.dependencies) {
      EXPECT_TRUE(split.cdg.has_dependency(ChannelId(a), static_cast<VcId>(va), ChannelId(b),
                                           static_cast<VcId>(vb)))
          << a << " vc" << va << " -> " << b << " vc" << vb;
    }
  }
}

}  // namespace
}  // namespace wormnet
