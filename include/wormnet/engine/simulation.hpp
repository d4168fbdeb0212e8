// Drives one rank's model through a load point: warm-up, a measurement window whose packets
// are labelled, and a drain until every labelled packet is delivered (or the drain limit
// declares saturation). Windows of at most `lookahead` cycles alternate with exchanges
// through the transport; collectives happen only at statistics windows and control checks.
// Watches for deadlock: flits in flight and none moving for deadlock_threshold cycles.
#pragma once

#include <functional>
#include <optional>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/rank_model.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/stats/result_sink.hpp"
#include "wormnet/stats/run_summary.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/destination_pattern.hpp"

namespace wormnet {

/// Throughput references for normalizing accepted traffic (flits/node/cycle; 0 = unknown).
struct ThroughputBounds {
  double saturation_rate = 0.0;  ///< (N-1)/pi of the routing, uniform traffic
  double bisection = 0.0;        ///< topology's uniform-traffic bisection bound
};

class Simulation {
 public:
  /// A run over comm.size() ranks with `partition` (one part per rank); flits crossing ranks
  /// travel through an MpiTransport, or nowhere on one rank.
  Simulation(const SimConfig& config, const Topology& topo, const RoutingFunction& routing,
             const Partition& partition, const Communicator& comm, ThroughputBounds bounds);

  /// Simulates one load point at `rate` flits/node/cycle and reports it to `sink`.
  RunSummary run(double rate, ResultSink& sink, int point_index = 0);

  /// Called at every control check with the current cycle; returning true stops the run
  /// early (interrupts). Collective: must give the same answer on every rank.
  void set_interrupt(std::function<bool(Cycle)> check) { interrupt_ = std::move(check); }

 private:
  std::vector<DeadlockHop> describe_deadlock(const RankModel& model) const;

  const SimConfig& config_;
  const Topology& topo_;
  const RoutingFunction& routing_;
  const Partition& partition_;
  Communicator comm_;
  ThroughputBounds bounds_;
  DestinationPattern pattern_;
  std::function<bool(Cycle)> interrupt_;
};

}  // namespace wormnet
