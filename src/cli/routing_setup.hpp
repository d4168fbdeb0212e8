// The routing a command runs, from --routing (and --tables for routing "table"): the one
// place where the command line turns a routing name into a RoutingFunction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet::cli {

struct CliRouting {
  std::unique_ptr<RoutingFunction> routing;
  /// (N-1)/pi of a loaded table (its loads are known from the table check); 0 otherwise.
  double table_saturation_rate = 0.0;
  /// gamma_c of a loaded table, per channel id (routes over all ordered pairs); empty otherwise.
  std::vector<double> table_loads;
};

/// Builds routing `name` for `topo`. For "table", loads the table file `tables` (collective
/// over `comm`) and checks it; `tables` given with another routing is bad input.
CliRouting make_cli_routing(const std::string& name, const std::string& tables,
                            const Topology& topo, FlowControl flow, const Communicator& comm,
                            RingTie tie = RingTie::kPlus);

}  // namespace wormnet::cli
