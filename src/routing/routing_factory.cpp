#include "wormnet/routing/routing_factory.hpp"

#include "wormnet/core/error.hpp"
#include "wormnet/routing/angara_routing.hpp"
#include "wormnet/routing/dateline_routing.hpp"
#include "wormnet/routing/destination_dateline_routing.hpp"
#include "wormnet/routing/dimension_order_routing.hpp"
#include "wormnet/routing/double_xy_dateline_routing.hpp"
#include "wormnet/routing/double_xy_routing.hpp"
#include "wormnet/routing/double_xy_turn_routing.hpp"
#include "wormnet/routing/duato_routing.hpp"
#include "wormnet/routing/minimal_adaptive_routing.hpp"
#include "wormnet/routing/ring_class_routing.hpp"
#include "wormnet/routing/stojmenovic_routing.hpp"
#include "wormnet/routing/table_routing.hpp"
#include "wormnet/routing/torus_stojmenovic_routing.hpp"
#include "wormnet/routing/west_first_routing.hpp"
#include "wormnet/routing/xy_first_routing.hpp"

namespace wormnet {

bool takes_ring_tie(std::string_view routing) {
  return routing == "dor" || routing == "dor-dateline" || routing == "dor-ring-class" ||
         routing == "dor-booksim" || routing == "dor-balanced";
}

std::vector<std::string> routing_names(const Topology& topo) {
  return routing_names(topo.kind());
}

std::string routing_catalog() {
  std::string s;
  for (const auto& [kind, label] :
       {std::pair{TopologyKind::kHoneycomb, "honeycomb"}, std::pair{TopologyKind::kMesh, "mesh"},
        std::pair{TopologyKind::kTorus, "torus"},
        std::pair{TopologyKind::kHoneycombTorus, "honeycomb tori"}}) {
    s += std::string(s.empty() ? "" : "; ") + label + ":";
    const auto names = routing_names(kind);
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : " ") + names[i];
  }
  return s;
}

std::vector<std::string> routing_names(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::kHoneycomb:
      return {"stojmenovic",    "xy-first",         "double-xy",
              "double-xy-turn", "minimal-adaptive", "duato"};
    case TopologyKind::kMesh:
      return {"xy", "west-first", "duato"};
    case TopologyKind::kTorus:
      return {"dor",
              "dor-dateline",
              "dor-dateline-dest",
              "dor-ring-class",
              "dor-booksim",
              "dor-balanced",
              "angara",
              "table",
              "duato"};
    case TopologyKind::kHoneycombTorus:
      return {"stojmenovic", "stojmenovic-dateline", "double-xy-dateline", "minimal-adaptive",
              "duato"};
  }
  return {};
}

namespace {

/// The routings of `topo` other than `name` (a routing is no alternative to itself).
std::string alternatives(std::string_view name, const Topology& topo) {
  std::string s;
  for (const auto& n : routing_names(topo)) {
    if (n != name && !(n == "west-first" && topo.num_dims() != 2)) s += (s.empty() ? "" : ", ") + n;
  }
  return s;
}

[[noreturn]] void does_not_fit(std::string_view name, const Topology& topo, const char* why) {
  throw InputError(
      "--routing", std::string(name),
      std::string(why) + " " + topo.spec() + " (allowed: " + alternatives(name, topo) + ")");
}

}  // namespace

std::unique_ptr<RoutingFunction> make_routing(std::string_view name, const Topology& topo,
                                              FlowControl flow,
                                              std::shared_ptr<const RouteTable> table,
                                              RingTie tie) {
  bool known = false;
  for (const auto& n : routing_names(topo)) known = known || n == name;
  if (!known) does_not_fit(name, topo, "is not a routing for");
  const bool drawn = tie != RingTie::kPlus;
  if (drawn && (topo.kind() != TopologyKind::kTorus || !takes_ring_tie(name))) {
    throw InputError("--ring-tie", tie == RingTie::kRandom ? "random" : "alternating",
                     "has no half-ring ties to draw with routing " + std::string(name) + " on " +
                         topo.spec() +
                         " (allowed: plus; random and alternating need dor, dor-dateline, "
                         "dor-ring-class, dor-booksim or dor-balanced on a torus)");
  }

  // Duato's routing: the topology's deadlock-free escape routing plus one adaptive VC.
  if (name == "duato") {
    const char* escape = nullptr;
    switch (topo.kind()) {
      case TopologyKind::kHoneycomb:
        escape = "double-xy";
        break;
      case TopologyKind::kMesh:
        escape = "xy";
        break;
      case TopologyKind::kTorus:
        escape = "dor-dateline-dest";
        break;
      case TopologyKind::kHoneycombTorus:
        escape = "double-xy-dateline";
        break;
    }
    return std::make_unique<DuatoRouting>(topo, make_routing(escape, topo, FlowControl::kCredit));
  }
  if (topo.kind() == TopologyKind::kHoneycomb) {
    const auto& h = static_cast<const HoneycombMesh&>(topo);
    if (name == "stojmenovic") return std::make_unique<StojmenovicRouting>(h);
    if (name == "xy-first") return std::make_unique<XyFirstRouting>(h);
    if (name == "double-xy") return std::make_unique<DoubleXyRouting>(h);
    if (name == "double-xy-turn") return std::make_unique<DoubleXyTurnRouting>(h);
    if (name == "minimal-adaptive") return std::make_unique<MinimalAdaptiveRouting>(h);
    does_not_fit(name, topo, "is not implemented yet for");
  }
  if (topo.kind() == TopologyKind::kHoneycombTorus) {
    const auto& h = static_cast<const HoneycombTorus&>(topo);
    if (name == "stojmenovic") return std::make_unique<TorusStojmenovicRouting>(h, false);
    if (name == "stojmenovic-dateline") return std::make_unique<TorusStojmenovicRouting>(h, true);
    if (name == "double-xy-dateline") return std::make_unique<DoubleXyDatelineRouting>(h);
    if (name == "minimal-adaptive") return std::make_unique<MinimalAdaptiveRouting>(h);
    does_not_fit(name, topo, "is not implemented yet for");
  }
  const auto& t = static_cast<const Torus&>(topo);
  if (name == "xy" || name == "dor") {
    return std::make_unique<DimensionOrderRouting>(t, flow == FlowControl::kBubble, drawn);
  }
  if (name == "west-first") {
    if (t.num_dims() != 2) does_not_fit(name, topo, "needs a 2-D mesh, not");
    return std::make_unique<WestFirstRouting>(t);
  }
  if (name == "dor-dateline") return std::make_unique<DatelineRouting>(t, drawn);
  if (name == "dor-ring-class") {
    return std::make_unique<RingClassRouting>(t, RingClassPolicy::kWrap, drawn);
  }
  if (name == "dor-booksim") {
    return std::make_unique<RingClassRouting>(t, RingClassPolicy::kBookSim, drawn);
  }
  if (name == "dor-balanced") {
    return std::make_unique<RingClassRouting>(t, RingClassPolicy::kBalanced, drawn);
  }
  if (name == "dor-dateline-dest") return std::make_unique<DestinationDatelineRouting>(t);
  if (name == "angara") return std::make_unique<AngaraRouting>(t);
  if (name == "table") {
    if (!table) {
      throw InputError("--tables", "",
                       "routing table needs a tables file (wormnet tables -o FILE)");
    }
    if (&table->topology() != &t && table->topology().spec() != t.spec()) {
      throw InputError("--tables", table->topology().spec(),
                       "the routing table was built for another topology than " + t.spec());
    }
    return std::make_unique<TableRouting>(std::move(table));
  }
  does_not_fit(name, topo, "is not a routing for");
}

}  // namespace wormnet
