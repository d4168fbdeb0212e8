// The routing a command runs, from its name (and a tables file for routing "table"): the
// one place where an option's routing name becomes a RoutingFunction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "wormnet/config/routing_choices.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

struct LoadedRouting {
  std::unique_ptr<RoutingFunction> routing;
  /// (N-1)/pi of a loaded table (its loads are known from the table check); 0 otherwise.
  double table_saturation_rate = 0.0;
  /// gamma_c of a loaded table, per channel id (routes over all ordered pairs); empty otherwise.
  std::vector<double> table_loads;
};

/// Builds routing `name` for `topo`. For "table", loads the table file `tables` (collective
/// over `comm`) and checks it; `tables` given with another routing is bad input (InputError
/// naming --tables). On a network with `faults` (which must outlive the routing) the routing
/// is wrapped in FaultAvoidingRouting, and a table must have been made for the same faults
/// (its file records them; InputError naming --tables otherwise).
LoadedRouting load_routing(const std::string& name, const std::string& tables, const Topology& topo,
                           FlowControl flow, const Communicator& comm, RingTie tie = RingTie::kPlus,
                           const FaultSet* faults = nullptr);

}  // namespace wormnet
