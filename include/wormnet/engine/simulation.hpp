// Drives one rank's model through a load point: warm-up, a measurement window whose packets
// are labelled, and a drain until every labelled packet is delivered (or the drain limit
// declares saturation). Windows of at most `lookahead` cycles alternate with exchanges
// through the transport; collectives happen only at statistics windows and control checks.
// Watches for deadlock: input VCs that hold flits, have moved none for deadlock_threshold cycles
// and wait only for each other (however much the rest of the network moves).
#pragma once

#include <functional>
#include <optional>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/rank_model.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/plan/run_plan.hpp"
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

/// The driver's loop state at a control check: with a ModelSnapshot, what a checkpoint holds.
struct LoopState {
  Cycle cycle = 0;         ///< next cycle to simulate
  Cycle window_start = 0;  ///< first cycle of the open statistics window
  Cycle next_window = 0;
  Cycle next_check = 0;
  std::uint64_t flit_hops = 0;  ///< flit hops of the closed windows
};

/// A run to continue from a checkpoint.
struct Resume {
  LoopState loop;
  ModelSnapshot model;  ///< this rank's rows, every list entry, global counters
};

/// Batch-job control, consulted at every control check (collectively). Implemented above the
/// engine (the command line decides about signals, wall time and checkpoint files).
class RunHooks {
 public:
  enum class Action { kContinue, kCheckpoint, kCheckpointAndStop };
  /// What a control check found, reduced over the ranks (the same on every rank): for the
  /// progress line (how many labelled packets or workload messages are still to come).
  struct CheckStatus {
    Cycle cycle = 0;
    std::uint64_t labelled_created = 0;    ///< labelled packets created so far
    std::uint64_t labelled_delivered = 0;  ///< of those, delivered
    Cycle window_end = 0;                  ///< first cycle after the measurement window
    Cycle drain_end = 0;                   ///< the drain limit's cycle
    bool scripted = false;                 ///< a closed-loop workload: the messages below
    std::uint64_t messages_delivered = 0;
    std::uint64_t messages_total = 0;
  };
  virtual ~RunHooks() = default;
  /// Told at every control check before at_check (collectively); the default ignores it.
  virtual void check_status(const CheckStatus& /*status*/) {}
  /// Must return the same action on every rank.
  virtual Action at_check(Cycle t) = 0;
  /// Saves a checkpoint (collective): the loop state and this rank's snapshot.
  virtual void save(const LoopState& loop, const ModelSnapshot& mine) = 0;
};

class Simulation {
 public:
  /// A run over comm.size() ranks with `partition` (one part per rank); flits crossing ranks
  /// travel through an MpiTransport, or nowhere on one rank. `plan` is the one derived from
  /// `config` on this network; every argument must outlive the simulation.
  Simulation(const SimConfig& config, const RunPlan& plan, const Topology& topo,
             const RoutingFunction& routing, const DestinationPattern& pattern,
             const Partition& partition, const Communicator& comm, ThroughputBounds bounds);

  /// Simulates one load point at `rate` flits/node/cycle and reports it to `sink`; continues
  /// from `resume` when given (the sink then continues its point too).
  RunSummary run(double rate, ResultSink& sink, int point_index = 0,
                 const Resume* resume = nullptr);

  /// Closed-loop traffic instead of the load point's (application workloads; none by
  /// default): every packet is labelled from cycle 0, the point ends when the script's
  /// messages are all delivered, or at --drain-limit cycles, flagged saturated.
  void set_script(MessageScript* script) { script_ = script; }

  /// Batch-job control (checkpoints, stops); none by default.
  void set_hooks(RunHooks* hooks) { hooks_ = hooks; }

  /// How each rank walks its routers (rank_model.hpp; the default suits today's caches).
  /// Never changes a result: tests take small blocks to bring the skewed walk to small
  /// networks.
  void set_walk_layout(const WalkLayout& walk) { walk_ = walk; }

  /// Cycles between control checks (deadlock, drain, hooks): a pure function of the
  /// configuration, so every rank and every restart checks at the same cycles.
  [[nodiscard]] Cycle check_interval() const;

 private:
  const SimConfig& config_;
  const RunPlan& plan_;
  const Topology& topo_;
  const RoutingFunction& routing_;
  const DestinationPattern& pattern_;
  const Partition& partition_;
  Communicator comm_;
  ThroughputBounds bounds_;
  RunHooks* hooks_ = nullptr;
  MessageScript* script_ = nullptr;
  WalkLayout walk_;
};

}  // namespace wormnet
