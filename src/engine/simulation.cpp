#include "wormnet/engine/simulation.hpp"

#include <algorithm>

#include "point_run.hpp"

namespace wormnet {

Simulation::Simulation(const SimConfig& config, const RunPlan& plan, const Topology& topo,
                       const RoutingFunction& routing, const DestinationPattern& pattern,
                       const Partition& partition, const Communicator& comm,
                       ThroughputBounds bounds)
    : config_(config),
      plan_(plan),
      topo_(topo),
      routing_(routing),
      pattern_(pattern),
      partition_(partition),
      comm_(comm),
      bounds_(bounds) {}

Cycle Simulation::check_interval() const {
  // Checks are cheap (a few integers reduced over the ranks): often enough for a prompt stop
  // on a signal or when the drain completes, rarely enough to cost nothing per cycle.
  constexpr Cycle kControlInterval = 128;
  const MeasureConfig& m = config_.measure;
  return std::max<Cycle>(1, std::min({m.stats_window, std::max<Cycle>(1, m.deadlock_threshold / 2),
                                      kControlInterval}));
}

RunSummary Simulation::run(double rate, ResultSink& sink, int point_index, const Resume* resume) {
  const PointContext context{config_, plan_,    topo_,  routing_, partition_,       comm_,
                             bounds_, pattern_, hooks_, script_,  check_interval(), walk_};
  PointRun point(context, rate, sink, point_index, resume);
  do {
    point.run_to_check();
  } while (!point.control_check());
  return point.finish();
}

}  // namespace wormnet
