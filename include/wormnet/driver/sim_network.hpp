// The network a simulation runs on, wired from a validated configuration: topology, routing,
// run plan, destination pattern and partition. `wormnet run`, `wormnet sweep` and the tools
// that simulate build it here, so that none of them wires the model by hand.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/rank_model.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/destination_pattern.hpp"

namespace wormnet {

struct SimNetwork {
  std::unique_ptr<Topology> topology;
  /// The failed links and nodes (--faults, --fail-links, --fail-nodes; empty: none). The
  /// routing and the pattern refer to it: it stays where it is when the network moves.
  std::unique_ptr<FaultSet> faults;
  /// The routing, wrapped in FaultAvoidingRouting when the network has faults.
  std::unique_ptr<RoutingFunction> routing;
  RunPlan plan;                                 ///< settings derived once from the configuration
  std::unique_ptr<DestinationPattern> pattern;  ///< the traffic's destinations on this network
  Partition partition;                          ///< one part per rank of the communicator
  /// (N-1)/pi and gamma_c per channel of a routing table (routing "table"); 0 and empty else.
  double table_saturation_rate = 0.0;
  std::vector<double> table_loads;
  /// How each rank walks its routers (rank_model.hpp): the default, unless a test asks for
  /// small blocks. Never changes a result.
  WalkLayout walk;
};

/// The packet lengths of a run whose messages are known only once its topology is built (a
/// closed-loop workload: a motif placed on the nodes, a trace checked against them). Called
/// once, after the topology and the routing, before the run plan is derived.
using MessageLengthsOf = std::function<MessageLengths(const Topology&)>;

/// Builds the network of `config` (whose values passed validate_values()) split over
/// comm.size() ranks; the rules that need the network are checked on the way (InputError
/// naming the option). The packets' lengths are `lengths_of`'s, or without it the open-loop
/// traffic's (--length-min, --length-max). Collective when it loads a routing table.
SimNetwork build_network(const SimConfig& config, const Communicator& comm,
                         const MessageLengthsOf& lengths_of = {});

/// The simulation of `config` on `network` (both must outlive it).
Simulation make_simulation(const SimConfig& config, const SimNetwork& network,
                           const Communicator& comm, ThroughputBounds bounds = {});

/// The bare model of part `rank` of `network`, its sources generating `rate`
/// flits/node/cycle (both must outlive it): for stepping cycles without the engine's loop.
RankModel make_rank_model(const SimConfig& config, const SimNetwork& network, int rank,
                          double rate);

}  // namespace wormnet
