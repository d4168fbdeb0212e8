// Duato's condition (check_duato) against cases whose answer is known independently, and
// against a second algorithm:
// - textbook cases where the plain CDG is cyclic but Duato's condition holds: fully adaptive
//   minimal routing with one extra VC over dimension-order (XY) escape channels on a 2-D
//   mesh (Duato 1993; Dally & Towles sec. 14.3), and over dateline escape channels chosen
//   from the destination on a ring;
// - cases where it fails: escape channels that are themselves cyclic (a ring without a
//   dateline: a cycle of direct dependencies only), escape channels that are acyclic alone but
//   whose VC depends on the input channel (the usual dateline: a packet that crosses the wrap
//   link on the adaptive VC comes back to the escape channels on VC 0, so VC 0 runs all the
//   way round the ring through one indirect dependency; worked out in docs/duato.md), and an
//   escape sub-function that offers nothing at one router (not connected);
// - the second algorithm walks every pair's routing states straight from RoutingFunction::
//   route, collects the extended dependencies (escape channel -> next escape channel with only
//   adaptive channels between) and must agree on the verdict; every consecutive pair of escape
//   channels of a reported cycle must be one of those dependencies.
#include "wormnet/verify/extended_dependency_graph.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../../support/route_enumeration.hpp"
#include "../../support/routing_case.hpp"
#include "wormnet/routing/dateline_routing.hpp"
#include "wormnet/routing/dimension_order_routing.hpp"
#include "wormnet/routing/duato_routing.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

/// The extended dependencies and the connectivity of the escape sub-function, by walking each
/// pair's states (tests/support/route_enumeration.hpp's step expansion).
struct Reference {
  std::set<test::Dependency> extended;
  bool connected = true;
  std::string defect;
};

Reference brute_force(const Topology& topo, const RoutingFunction& routing) {
  const int vcs = routing.vcs_required();
  const VcMask escape = routing.escape_vcs();
  const auto is_escape = [&](VcId v) { return ((escape >> v) & 1U) != 0; };
  Reference ref;
  for (std::uint32_t s = 0; s < topo.num_nodes(); ++s) {
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (s == d) continue;
      const NodeId src(s);
      const NodeId dst(d);
      // All states of this pair and their expansions.
      std::map<test::detail::WalkState, std::vector<test::detail::WalkStep>> steps;
      std::vector<test::detail::WalkState> todo{
          {src, kInjectionPort, 0, routing.initial_state(src, dst)}};
      while (!todo.empty()) {
        const auto at = todo.back();
        todo.pop_back();
        if (at.node == dst || steps.count(at)) continue;
        auto expanded = test::detail::expand(topo, routing, vcs, src, dst, at, ref.defect);
        bool has_escape = false;
        for (const auto& st : expanded) {
          has_escape = has_escape || is_escape(st.vc);
          todo.push_back(st.next);
        }
        if (!has_escape) ref.connected = false;
        steps.emplace(at, std::move(expanded));
      }
      // From every step onto an escape channel, the escape channels next reachable (directly
      // or through adaptive channels only).
      for (const auto& [at, out] : steps) {
        for (const auto& first : out) {
          if (!is_escape(first.vc)) continue;
          const auto from = static_cast<test::DepVertex>(first.channel.value() * vcs + first.vc);
          std::vector<test::detail::WalkState> frontier{first.next};
          std::set<test::detail::WalkState> seen;
          while (!frontier.empty()) {
            const auto u = frontier.back();
            frontier.pop_back();
            const auto it = steps.find(u);
            if (it == steps.end() || !seen.insert(u).second) continue;
            for (const auto& st : it->second) {
              if (is_escape(st.vc)) {
                ref.extended.emplace(from, st.channel.value() * vcs + st.vc);
              } else {
                frontier.push_back(st.next);
              }
            }
          }
        }
      }
    }
  }
  return ref;
}

/// check_duato and the brute force agree; returns the report.
DuatoReport expect_agreement(const Topology& topo, const RoutingFunction& routing) {
  const DuatoReport r = check_duato(topo, routing);
  const Reference ref = brute_force(topo, routing);
  EXPECT_TRUE(ref.defect.empty()) << ref.defect;
  EXPECT_EQ(r.connected(), ref.connected) << r.disconnected;
  const auto vertices = static_cast<std::uint32_t>(topo.num_channels() * routing.vcs_required());
  const bool cyclic = test::shortest_cycle_length(vertices, ref.extended).has_value();
  EXPECT_EQ(!r.cycle.empty(), cyclic);
  // Every step from one escape channel of the reported cycle to the next is an extended
  // dependency of the brute force.
  std::vector<test::DepVertex> escapes;
  for (const auto& s : r.cycle) {
    if (s.escape) escapes.push_back(s.channel.value() * routing.vcs_required() + s.vc);
  }
  for (std::size_t i = 0; i < escapes.size(); ++i) {
    const test::Dependency dep{escapes[i], escapes[(i + 1) % escapes.size()]};
    EXPECT_TRUE(ref.extended.count(dep)) << "cycle step " << i << " is no dependency";
  }
  // The adaptive steps of the cycle are on adaptive VCs, the others on escape VCs.
  for (const auto& s : r.cycle) {
    EXPECT_EQ(((routing.escape_vcs() >> s.vc) & 1U) != 0, s.escape);
  }
  return r;
}

bool plain_cdg_cyclic(const Topology& topo, const RoutingFunction& routing) {
  AnalysisOptions o;
  o.loads = false;
  const RoutingAnalysis a = analyze_routing(topo, routing, o);
  EXPECT_TRUE(a.delivery.ok) << a.delivery.defect;
  return !a.cdg.shortest_cycle().empty();
}

TEST(DuatoCondition, HoldsForAdaptiveRoutingOverXyOnAMeshWhoseCdgIsCyclic) {
  const auto c = test::make_case("mesh:4x4", "duato");
  EXPECT_EQ(c.vcs(), 2);
  EXPECT_EQ(c.routing->escape_vcs(), 1);
  EXPECT_TRUE(plain_cdg_cyclic(*c.topo, *c.routing));
  const DuatoReport r = expect_agreement(*c.topo, *c.routing);
  EXPECT_TRUE(r.holds());
  EXPECT_GT(r.adaptive_states, 0U);  // there are indirect dependencies to look through
}

TEST(DuatoCondition, HoldsOnARingWithDestinationDatelineEscape) {
  const auto c = test::make_case("torus:8", "duato");
  EXPECT_TRUE(plain_cdg_cyclic(*c.topo, *c.routing));
  EXPECT_TRUE(expect_agreement(*c.topo, *c.routing).holds());
}

TEST(DuatoCondition, FailsWhenTheEscapeChannelsThemselvesFormARing) {
  const auto topo = make_topology("torus:5");
  const auto& t = static_cast<const Torus&>(*topo);
  const DuatoRouting r(t, std::make_unique<DimensionOrderRouting>(t, false));
  const DuatoReport d = expect_agreement(t, r);
  ASSERT_FALSE(d.holds());
  EXPECT_TRUE(d.connected());
  // Minimal routes on a 5-ring have at most 2 hops, each going on along its direction: the
  // escape VC 0 of the five + channels (or the five - ones) is a cycle of direct dependencies.
  ASSERT_EQ(d.cycle.size(), 5U);
  for (const auto& s : d.cycle) {
    EXPECT_TRUE(s.escape);
    EXPECT_EQ(t.channel_port(s.channel), t.channel_port(d.cycle[0].channel));
  }
}

TEST(DuatoCondition, FailsWithTheInputChannelDatelineThroughAnIndirectDependency) {
  const auto topo = make_topology("torus:8");
  const auto& t = static_cast<const Torus&>(*topo);
  // The escape routing alone is deadlock-free...
  const DatelineRouting escape(t);
  EXPECT_FALSE(plain_cdg_cyclic(t, escape));
  // ... but as Duato's escape it is not: every cycle needs an adaptive channel in it.
  const DuatoRouting r(t, std::make_unique<DatelineRouting>(t));
  const DuatoReport d = expect_agreement(t, r);
  ASSERT_FALSE(d.holds());
  EXPECT_TRUE(d.connected());
  // The cycle worked out by hand: VC 0 on the seven channels of one direction that are not
  // the wrap link, and the wrap link on the adaptive VC between them (a packet from 6 to 1
  // takes 6 -> 7 on VC 0, 7 -> 0 adaptively, and VC 0 again from 0 since it did not come on
  // VC 1). No cycle round an 8-ring is shorter than 8 channels.
  ASSERT_EQ(d.cycle.size(), 8U);
  int adaptive = 0;
  for (const auto& s : d.cycle) {
    EXPECT_EQ(t.channel_port(s.channel), t.channel_port(d.cycle[0].channel));
    if (s.escape) {
      EXPECT_EQ(s.vc, 0);
    } else {
      ++adaptive;
      const int a = t.coord(t.channel_source(s.channel), 0);
      const int b = t.coord(t.channel_dest(s.channel), 0);
      EXPECT_TRUE((a == 7 && b == 0) || (a == 0 && b == 7)) << a << " -> " << b;
    }
  }
  EXPECT_EQ(adaptive, 1);
  // The same ring with the destination dateline holds (previous test): the difference is
  // only where a packet that comes off the adaptive VC is put.
}

/// XY on a mesh, except that it offers nothing at router (1, 1): adaptive steps still deliver
/// every packet, but the escape sub-function is not connected there.
class HoleyXy final : public RoutingFunction {
 public:
  explicit HoleyXy(const Torus& t) : t_(t), xy_(t, false) {}
  [[nodiscard]] std::string name() const override { return "holey-xy"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override { return "test"; }
  void route(const RouteRequest& r, RouteOptions& out) const override {
    if (t_.coord(r.node, 0) == 1 && t_.coord(r.node, 1) == 1) return;
    xy_.route(r, out);
  }

 private:
  const Torus& t_;
  DimensionOrderRouting xy_;
};

TEST(DuatoCondition, FailsWhenTheEscapeSubFunctionIsNotConnected) {
  const auto topo = make_topology("mesh:3x3");
  const auto& t = static_cast<const Torus&>(*topo);
  const DuatoRouting r(t, std::make_unique<HoleyXy>(t));
  const DuatoReport d = expect_agreement(t, r);
  EXPECT_FALSE(d.connected());
  EXPECT_FALSE(d.holds());
  EXPECT_NE(d.disconnected.find("(1,1)"), std::string::npos) << d.disconnected;
}

TEST(DuatoCondition, HoldsForEveryDuatoRoutingOfTheFactory) {
  for (const char* spec : {"honeycomb:2", "honeycomb:3", "honeycomb-torus:2", "honeycomb-rect:4x4",
                           "torus:4x4", "torus:5x3", "torus:2x3x4", "mesh:3x4"}) {
    const auto c = test::make_case(spec, "duato");
    SCOPED_TRACE(c.label());
    EXPECT_TRUE(plain_cdg_cyclic(*c.topo, *c.routing));
    EXPECT_TRUE(expect_agreement(*c.topo, *c.routing).holds());
  }
}

}  // namespace
}  // namespace wormnet
