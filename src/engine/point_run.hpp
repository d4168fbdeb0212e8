// One load point of a Simulation, phase by phase: setup (the rank's model, its transport and
// the loop state, continued from a checkpoint when resuming), the window loop (windows of at
// most the lookahead, each followed by its exchange, timed on the wall clock), the control
// check (deadlock, drain complete, drain limit, batch hooks) and the final merge of the
// statistics over the ranks. Private to src/engine: Simulation::run strings the phases.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "wormnet/engine/simulation.hpp"
#include "wormnet/engine/transport.hpp"

namespace wormnet {

/// What a point reads from its Simulation.
struct PointContext {
  const SimConfig& config;
  const RunPlan& plan;  ///< derived from config on this network
  const Topology& topo;
  const RoutingFunction& routing;
  const Partition& partition;
  const Communicator& comm;
  const ThroughputBounds& bounds;
  const DestinationPattern& pattern;
  RunHooks* hooks;
  /// Closed-loop traffic (an application workload) instead of the load point's, or none: it
  /// labels everything from cycle 0 and the point ends when its messages are all delivered.
  MessageScript* script;
  Cycle check_every;  ///< cycles between control checks
  WalkLayout walk;    ///< how the rank walks its routers (never changes a result)
};

class PointRun {
 public:
  /// Setup: the model at `rate` flits/node/cycle, its transport, the loop state (from
  /// `resume` when given); tells `sink` the point begins.
  PointRun(const PointContext& context, double rate, ResultSink& sink, int point_index,
           const Resume* resume);
  /// Simulates windows up to the next control check (statistics windows on the way).
  void run_to_check();
  /// The control check (collective); true when the point stops here.
  bool control_check();
  /// The point's summary; unless it was interrupted, the statistics merged over the ranks
  /// and reported to the sink.
  RunSummary finish();

 private:
  using Clock = std::chrono::steady_clock;
  /// The next control check after cycle c: every check_every cycles, and one exactly at the
  /// drain limit, so that a point never runs past the window's drain_end().
  [[nodiscard]] Cycle check_after(Cycle c) const;
  /// Closes the statistics window ending at `now` (collective) and reports it.
  void flush_window(Cycle now);
  /// The measured statistics of every rank, merged (collective).
  MeasuredStats merge_measured();
  /// The early stop of a saturated point (MeasureConfig::stop_backlog, stop_latency), from a
  /// statistics window's row, which is reduced over the ranks: the same decision on every rank
  /// and after every restart.
  void check_early_stop(const WindowRow& row);

  const PointContext& context_;
  ResultSink& sink_;
  Clock::time_point wall_start_;
  /// The run's plan, or with a script its closed-loop plan (window from cycle 0 to the drain
  /// limit, no drain after it).
  RunPlan plan_;
  RankModel model_;
  std::unique_ptr<Transport> transport_;
  RunSummary summary_;
  LoopState loop_;
  bool stop_early_ = false;  ///< a statistics window asked for the early stop
  std::string stop_reason_;

  // Wall-clock split of the loop (steady clock, seconds): two clock reads per window cost
  // tens of nanoseconds against the microseconds a window of routers takes. The time in
  // reductions is what the loop took beyond computing and exchanging.
  double compute_s_ = 0.0;
  double exchange_s_ = 0.0;
  std::uint64_t windows_ = 0;
  Clock::time_point loop_start_;
  Cycle loop_first_cycle_ = 0;
  std::uint64_t loop_first_hops_ = 0;
};

}  // namespace wormnet
