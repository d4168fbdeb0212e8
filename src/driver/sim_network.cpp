#include "wormnet/driver/sim_network.hpp"

#include "wormnet/driver/network_faults.hpp"
#include "wormnet/driver/routing_choice.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {

namespace {

Partition partition_of(const Topology& topo, PartitionMethod method, int parts) {
  switch (method) {
    case PartitionMethod::kMetis:
      return Partition::metis(topo, parts);
    case PartitionMethod::kBlocks:
      return Partition::blocks(topo, parts);
    case PartitionMethod::kGeometric:
      break;
  }
  return Partition::geometric(topo, parts);
}

}  // namespace

SimNetwork build_network(const SimConfig& config, const Communicator& comm,
                         const MessageLengthsOf& lengths_of) {
  const NetworkConfig& n = config.network;
  SimNetwork s;
  s.topology = make_topology(n.topology);
  s.faults = build_faults(*s.topology, n.faults, comm);
  LoadedRouting routing = load_routing(n.routing, n.tables, *s.topology, n.flow_control, comm,
                                       n.ring_tie, s.faults.get());
  s.routing = std::move(routing.routing);
  s.table_saturation_rate = routing.table_saturation_rate;
  s.table_loads = std::move(routing.table_loads);
  const MessageLengths lengths =
      lengths_of ? lengths_of(*s.topology) : traffic_lengths(config.traffic);
  s.plan = make_run_plan(config, *s.topology, *s.routing, lengths, s.faults.get());
  // InputError when the pattern is undefined on this topology (or a hotspot failed).
  s.pattern = std::make_unique<DestinationPattern>(*s.topology, config.traffic, s.faults.get());
  s.partition = partition_of(*s.topology, s.plan.partition, comm.size());
  return s;
}

Simulation make_simulation(const SimConfig& config, const SimNetwork& network,
                           const Communicator& comm, ThroughputBounds bounds) {
  Simulation sim(config, network.plan, *network.topology, *network.routing, *network.pattern,
                 network.partition, comm, bounds);
  sim.set_walk_layout(network.walk);
  return sim;
}

RankModel make_rank_model(const SimConfig& config, const SimNetwork& network, int rank,
                          double rate) {
  return RankModel(config, network.plan, *network.topology, *network.routing, *network.pattern,
                   network.partition, rank, rate, network.walk);
}

}  // namespace wormnet
