// What one simulated load point reports, independent of the output format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/core/ids.hpp"

namespace wormnet {

/// Latency quantiles in cycles (quantiles are histogram bucket lower bounds: exact below
/// 1024 cycles, within 1.6% above).
struct LatencySummary {
  double mean = 0.0;
  std::uint64_t p50 = 0;
  std::uint64_t p95 = 0;
  std::uint64_t p99 = 0;
  std::uint64_t max = 0;
};

/// One input VC of the run-time deadlock cycle, described for people.
struct DeadlockHop {
  std::string channel;  ///< e.g. "(1,2,-1) Y- -> (1,1,-1)" or "injection at (0,0,1)"
  int vc = 0;
};

/// Wall-clock split of a point's main loop, for the parallel engine's overhead figures. Each
/// figure is the largest over the ranks, in seconds; `windows` counts the exchange windows
/// (one per lookahead of simulated cycles, or fewer cycles where a statistics window or a
/// control check ends earlier).
struct SyncTimes {
  std::uint64_t windows = 0;
  double compute_seconds = 0.0;     ///< stepping routers
  double exchange_seconds = 0.0;    ///< packing, neighbour exchange (incl. waiting), unpacking
  double collective_seconds = 0.0;  ///< statistics windows and control checks (reductions)
  /// The cycle loop alone (without building the model and merging the results), and the
  /// cycles it ran (fewer than RunSummary::cycles after a restart): the simulation speed.
  double loop_seconds = 0.0;
  std::uint64_t loop_cycles = 0;
  std::uint64_t loop_flit_hops = 0;
  /// The neighbour exchanges of the loop, summed over the ranks (NeighborExchange's
  /// ExchangeVolume), and the largest rank's bytes sent: per-rank work of a weak-scaling
  /// comparison that does not depend on how busy the machine is.
  std::uint64_t exchange_messages = 0;
  std::uint64_t exchange_payload_bytes = 0;
  std::uint64_t exchange_wire_bytes = 0;
  std::uint64_t exchange_wire_bytes_rank_max = 0;
};

struct RunSummary {
  double offered_load = 0.0;  ///< configured, flits/node/cycle
  /// Cycles the per-cycle rates below are averaged over: --measure, or a workload's
  /// completion (its last delivery), at least 1.
  Cycle window_cycles = 1;
  double offered_measured = 0.0;  ///< generated during the measurement window, flits/node/cycle
  double accepted = 0.0;          ///< ejected during the measurement window, flits/node/cycle
  /// accepted / ((N-1)/pi): against the routing's own uniform saturation rate (0 if unknown)
  double accepted_vs_saturation = 0.0;
  /// accepted / bisection bound: against the topology's uniform-traffic bound
  double accepted_vs_bisection = 0.0;
  LatencySummary latency;   ///< creation -> tail ejection
  LatencySummary network;   ///< head injection -> tail ejection
  LatencySummary queueing;  ///< creation -> head injection
  double average_hops = 0.0;
  std::uint64_t measured_packets = 0;   ///< labelled packets generated
  std::uint64_t delivered_packets = 0;  ///< labelled packets delivered
  /// Messages dropped at their sources, whole run (--drop-unroutable: to a working pair the
  /// table does not route).
  std::uint64_t dropped_messages = 0;
  bool saturated = false;
  std::string saturation_reason;
  /// Stopped by the early stop of a saturated point (--stop-backlog, --stop-latency) before
  /// its labelled packets were delivered; window_cycles ends there when it came inside the
  /// measurement window.
  bool stopped_early = false;
  bool deadlock = false;
  bool interrupted = false;  ///< stopped early by a batch-job hook (checkpoint written)
  Cycle deadlock_cycle = 0;
  std::vector<DeadlockHop> deadlock_cycle_hops;
  Cycle cycles = 0;                 ///< simulated cycles
  std::uint64_t flit_hops = 0;      ///< flits that crossed a network channel, whole run
  std::uint64_t router_cycles = 0;  ///< routers x cycles simulated
  double wall_seconds = 0.0;
  std::uint64_t model_bytes = 0;     ///< model state over all ranks (buffers, tables, queues)
  std::uint64_t peak_rss_bytes = 0;  ///< peak resident memory, summed over ranks
  /// Memory in transparent huge pages at the end of the point, summed over ranks (bytes; the
  /// per-router arrays ask for them: core/huge_page_allocator.hpp).
  std::uint64_t huge_page_bytes = 0;
  std::uint64_t peak_rss_rank_min = 0;  ///< the smallest rank's peak resident memory (bytes)
  std::uint64_t peak_rss_rank_max = 0;  ///< the largest rank's (what one node must hold)
  double flit_rate = 20.0;              ///< flits/us, to convert cycles to microseconds
  SyncTimes sync;  ///< where the wall-clock time went (stdout only, never in HDF5)
};

}  // namespace wormnet
