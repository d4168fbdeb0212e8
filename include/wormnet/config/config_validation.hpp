// Rules on configuration values. Each broken rule is an InputError naming the option, the
// value and what is allowed; the first one found is thrown (one clear line for the user).
#pragma once

#include "wormnet/config/sim_config.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Rules that need nothing but the values (ranges, orderings).
void validate_values(const SimConfig& config);

/// Rules that need the built network: enough VCs for the routing, bubble buffers that hold
/// two whole packets, hotspot ids inside the network, patterns defined on the topology.
void validate_against(const SimConfig& config, const Topology& topo,
                      const RoutingFunction& routing);

/// VCs per channel the simulation will use (config.network.vcs or the routing's need).
int effective_vcs(const SimConfig& config, const RoutingFunction& routing);

}  // namespace wormnet
