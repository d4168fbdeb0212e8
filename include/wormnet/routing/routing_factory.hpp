// The one place where a routing name becomes a routing function for a topology (the names
// and what they build are the registry's: wormnet/routing/routing_registry.hpp).
#pragma once

#include <memory>
#include <string_view>

#include "wormnet/config/routing_choices.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_registry.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Builds routing `name` for `topo` (which must outlive it). `flow` = kBubble marks a one-VC
/// torus routing (dor) as relying on bubble flow control; angara and table always do.
/// `table` is the routing table for name "table" (loaded from --tables by the caller, see
/// wormnet/tables/table_file.hpp; it must be built for `topo`). Throws InputError naming
/// --routing when the name is unknown or does not fit the topology, and naming --tables
/// when "table" comes without a table. `tie` != kPlus draws half-ring ties per packet (only
/// for takes_ring_tie() routings on a torus; otherwise an InputError naming --ring-tie).
std::unique_ptr<RoutingFunction> make_routing(std::string_view name, const Topology& topo,
                                              FlowControl flow = FlowControl::kCredit,
                                              std::shared_ptr<const RouteTable> table = nullptr,
                                              RingTie tie = RingTie::kPlus);

}  // namespace wormnet
