// Every routing function the simulator knows, declared once: its name, the topology kinds it
// is defined on, the VCs it needs, a one-line description and how to build it. The factory
// (make_routing), --help, `wormnet info` and the README's routing table all read this list.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wormnet/routing/route_table.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// What a routing is built from besides its name.
struct RoutingBuild {
  const Topology& topo;
  bool bubble = false;  ///< a one-VC torus routing (dor) relies on bubble flow control
  bool drawn = false;   ///< half-ring ties drawn per packet (RingTie other than kPlus)
  std::shared_ptr<const RouteTable> table;  ///< the routing table of routing "table"
};

/// One routing function of the registry.
struct RoutingEntry {
  std::string_view name;
  std::vector<TopologyKind> kinds;  ///< the topology kinds it is defined on
  int dims = 0;                     ///< the only dimension count it accepts (0: any)
  bool ring_tie = false;            ///< takes --ring-tie (torus dimension-order routings)
  std::string_view vcs;             ///< VCs per channel it needs (text: a number or a rule)
  std::string_view description;     ///< one line, as the README's routing table shows it
  /// Builds it for b.topo (of one of `kinds`, with `dims` when set; the topology outlives it).
  std::unique_ptr<RoutingFunction> (*make)(const RoutingBuild& b);

  [[nodiscard]] bool fits(TopologyKind kind) const;
};

/// Every routing, in documentation order (each kind's routings in the order they list).
std::span<const RoutingEntry> routing_registry();

/// The routing called `name`, or nullptr.
const RoutingEntry* find_routing(std::string_view name);

/// True for the routings that --ring-tie applies to (torus dimension-order routings).
bool takes_ring_tie(std::string_view routing);

/// Routing names that fit a topology kind, in documentation order.
std::vector<std::string> routing_names(TopologyKind kind);
std::vector<std::string> routing_names(const Topology& topo);
/// Every routing by topology kind ("honeycomb: stojmenovic, ...; mesh: ..."), for --help.
std::string routing_catalog();

}  // namespace wormnet
