// The simulation configuration: plain typed structs. The command line (and --config TOML
// files) bind straight into these fields; strings become enums at that boundary, and
// validate() lists every rule a value breaks before anything is built.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/config/batch_config.hpp"
#include "wormnet/config/routing_choices.hpp"
#include "wormnet/config/workload_config.hpp"
#include "wormnet/core/enum_names.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

/// Destination patterns (definitions per topology in docs/traffic.md).
enum class TrafficPattern : std::uint8_t {
  kUniform,
  kTranspose,
  kNeighbor,
  kTornado,
  kBitComplement,
  kHotspot,
  kAllToAll,
};
inline constexpr EnumName<TrafficPattern> kTrafficPatternNames[] = {
    {TrafficPattern::kUniform, "uniform", "every other node alike"},
    {TrafficPattern::kTranspose, "transpose", "coordinates swapped"},
    {TrafficPattern::kNeighbor, "neighbor", "a neighbour of the source"},
    {TrafficPattern::kTornado, "tornado", "half way round each ring, less one"},
    {TrafficPattern::kBitComplement, "bit-complement", "every coordinate mirrored"},
    {TrafficPattern::kHotspot, "hotspot",
     "a share of the messages to a few nodes, the rest uniform"},
    {TrafficPattern::kAllToAll, "all-to-all", "every other node in turn"},
};
constexpr std::span<const EnumName<TrafficPattern>> enum_names(TrafficPattern) {
  return kTrafficPatternNames;
}

/// Message generation process per node.
enum class InjectionProcess : std::uint8_t {
  kPoisson,    ///< exponential gaps (the honeycomb paper)
  kBernoulli,  ///< each cycle a message with probability rate / mean length
};
inline constexpr EnumName<InjectionProcess> kInjectionProcessNames[] = {
    {InjectionProcess::kPoisson, "poisson", "exponential gaps"},
    {InjectionProcess::kBernoulli, "bernoulli",
     "each cycle a message with probability rate / mean length"},
};
constexpr std::span<const EnumName<InjectionProcess>> enum_names(InjectionProcess) {
  return kInjectionProcessNames;
}

/// How an adaptive router picks among the allowed steps that have a free VC.
enum class SelectionPolicy : std::uint8_t {
  kPriority,  ///< the routing's order: XYZ priority for the honeycomb (the paper's default)
  kRandom,    ///< uniformly among the free ones (hash of packet id and hop: deterministic)
  /// The free choice whose output port has the most free buffer slots downstream (credits
  /// summed over its VCs); the routing's order among equals.
  kLeastOccupied,
};
inline constexpr EnumName<SelectionPolicy> kSelectionPolicyNames[] = {
    {SelectionPolicy::kPriority, "priority", "the routing's order"},
    {SelectionPolicy::kRandom, "random", "uniformly among the free steps"},
    {SelectionPolicy::kLeastOccupied, "least-occupied",
     "the free step with the most free slots downstream"},
};
constexpr std::span<const EnumName<SelectionPolicy>> enum_names(SelectionPolicy) {
  return kSelectionPolicyNames;
}

/// How the VCs of one channel share its bandwidth.
enum class VcBandwidth : std::uint8_t {
  kShared,  ///< one flit per cycle per channel, whatever the VC (a real router)
  /// One flit per cycle per VC: every VC acts as a physical channel of its own, as in the
  /// honeycomb paper's simulations ("all channels, virtual ones included, are treated as
  /// physical channels of the same bandwidth"). Changes nothing with one VC.
  kPerVc,
};
inline constexpr EnumName<VcBandwidth> kVcBandwidthNames[] = {
    {VcBandwidth::kShared, "shared", "one flit per cycle per channel"},
    {VcBandwidth::kPerVc, "per-vc", "one flit per cycle per VC"},
};
constexpr std::span<const EnumName<VcBandwidth>> enum_names(VcBandwidth) {
  return kVcBandwidthNames;
}

/// What the routers count of where packets wait (`--congestion`; docs/simulator.md,
/// "Congestion statistics").
enum class CongestionMode : std::uint8_t {
  kOff,     ///< nothing (no counters are allocated)
  kTotals,  ///< per channel and VC, over the measurement window
  /// kTotals, and per statistics window of the whole run the flits each channel carried
  /// (the channel view over time; at most kMaxChannelSeriesWindows windows a point)
  kSeries,
};
inline constexpr EnumName<CongestionMode> kCongestionModeNames[] = {
    {CongestionMode::kOff, "off", "no congestion counters"},
    {CongestionMode::kTotals, "totals", "per channel and VC, over the measurement window"},
    {CongestionMode::kSeries, "series",
     "totals, and the flits per channel in every statistics window"},
};
constexpr std::span<const EnumName<CongestionMode>> enum_names(CongestionMode) {
  return kCongestionModeNames;
}

/// The most statistics windows a point's channel series may hold (`--congestion series`):
/// a run whose ceil((warm-up + measurement + drain limit) / --stats-window) exceeds it is
/// refused before it starts. The series is then at most 8 x channels x this bytes a point.
inline constexpr std::uint64_t kMaxChannelSeriesWindows = 4096;

/// How routers are spread over ranks (docs/scaling.md).
enum class PartitionMethod : std::uint8_t {
  kGeometric,  ///< boxes of a torus or mesh, stripes of the honeycombs (the default)
  kBlocks,     ///< contiguous blocks of node ids
  kMetis,      ///< a METIS k-way graph partition (when built with libmetis-dev)
};
inline constexpr EnumName<PartitionMethod> kPartitionMethodNames[] = {
    {PartitionMethod::kGeometric, "geometric",
     "boxes of a torus or mesh, stripes of the honeycombs"},
    {PartitionMethod::kBlocks, "blocks", "contiguous blocks of node ids"},
    {PartitionMethod::kMetis, "metis", "a METIS k-way graph partition"},
};
constexpr std::span<const EnumName<PartitionMethod>> enum_names(PartitionMethod) {
  return kPartitionMethodNames;
}

/// Failed links and nodes (docs/faults.md): listed in a file, drawn at random, or both (the
/// file's first, then the random nodes, then the random links).
struct FaultConfig {
  std::string file;         ///< --faults: a fault file; empty = none
  std::uint64_t links = 0;  ///< --fail-links: working links to fail at random
  std::uint64_t nodes = 0;  ///< --fail-nodes: working nodes to fail at random
  std::uint64_t seed = 1;   ///< --fault-seed: the random draw's seed (not --seed's)
  /// --allow-disconnected: the working nodes may fall apart (random draws may split them, a
  /// fault file that splits them is accepted).
  bool allow_disconnected = false;
  /// Whether any fault is asked for.
  [[nodiscard]] bool any() const { return !file.empty() || links > 0 || nodes > 0; }
};

struct NetworkConfig {
  std::string topology = "honeycomb:4";
  std::string routing = "double-xy";
  std::string tables;          ///< routing table file for routing = table
  int vcs = 0;                 ///< VCs per channel; 0 = what the routing needs
  int buffer_depth = 4;        ///< flits per VC buffer (B >= 1; the honeycomb paper uses 1)
  int link_latency = 1;        ///< cycles for a flit to cross a link (L >= 1)
  int credit_latency = 1;      ///< cycles for a credit to travel back (>= 1)
  int routing_delay = 1;       ///< cycles from head at buffer front to route known
  int vc_alloc_delay = 1;      ///< cycles from VC granted to switch allocation
  int switch_alloc_delay = 1;  ///< cycles from switch granted to leaving the router
  int switch_delay = 1;        ///< crossbar traversal cycles (added before the link)
  /// Terminal channels (BookSim models them as 1-cycle channels): cycles between a message's
  /// creation and the earliest cycle its head may enter the router, and cycles added to a
  /// packet's delivery after its tail leaves the router on the ejection port. Pure delays:
  /// they never limit bandwidth.
  int injection_latency = 0;
  int ejection_latency = 0;
  RingTie ring_tie = RingTie::kPlus;  ///< half-ring ties of the torus DOR routings
  FlowControl flow_control = FlowControl::kCredit;
  SelectionPolicy selection = SelectionPolicy::kPriority;
  VcBandwidth vc_bandwidth = VcBandwidth::kShared;
  /// Which rank simulates which router: never changes the results, only the speed.
  PartitionMethod partition = PartitionMethod::kGeometric;
  FaultConfig faults;
};

struct TrafficConfig {
  TrafficPattern pattern = TrafficPattern::kUniform;
  InjectionProcess process = InjectionProcess::kPoisson;
  double load = 0.1;           ///< offered load, flits/node/cycle
  double load_fraction = 0.0;  ///< if > 0: offered load as a fraction of (N-1)/pi instead
  int length_min = 20;         ///< message length in flits, uniform in [min, max]
  int length_max = 20;
  /// Uniform destinations include the source itself (BookSim's uniform traffic): a packet to
  /// itself crosses its router from the injection to the ejection port.
  bool self_traffic = false;
  /// --drop-unroutable: a message to a working pair the table routing does not claim (a table
  /// made around faults, docs/tables.md section 8) is dropped at its source and counted,
  /// instead of the run being refused.
  bool drop_unroutable = false;
  double hotspot_fraction = 0.1;   ///< share of messages sent to a hotspot node
  std::vector<int> hotspot_nodes;  ///< node ids; empty = node 0
};

/// The largest cycle count any option may give, and the largest run (warm-up + measurement +
/// drain limit): 2^62 cycles, millennia of simulated time at any speed, and far enough from
/// 2^64 that the engine's sums of a few such counts (a window end plus a check interval)
/// cannot wrap around.
inline constexpr std::uint64_t kMaxCycles = std::uint64_t{1} << 62;

struct MeasureConfig {
  Cycle warmup = 2000;    ///< cycles before packets are labelled
  Cycle measure = 10000;  ///< cycles during which created packets are labelled
  /// Total cycles before the drain (warm-up + measurement); 0 = warmup + measure. When given,
  /// the measurement window is cycles - warmup.
  Cycle cycles = 0;
  Cycle drain_limit = 100000;  ///< extra cycles allowed to deliver labelled packets
  Cycle stats_window = 1000;   ///< cycles per time-series row
  /// Cycles an input VC may hold flits without moving one before the deadlock detector looks
  /// at what it waits for (more than a credit round trip through a router).
  Cycle deadlock_threshold = 2000;
  double flit_rate = 20.0;  ///< flits per microsecond per channel (for us units)
  std::uint64_t seed = 1;
  /// Early stop of a saturated point (0 = off; docs/simulator.md, "Measurement"): at the end
  /// of a statistics window after the warm-up, the point stops, flagged saturated, when the
  /// sources hold more than stop_backlog flits per node (--stop-backlog) ...
  double stop_backlog = 0.0;
  /// ... or when the packets ejected in that window took more than stop_latency cycles on
  /// average, creation to tail ejection (--stop-latency; BookSim's latency_thres).
  Cycle stop_latency = 0;
  /// Where packets wait, per channel and VC (--congestion).
  CongestionMode congestion = CongestionMode::kOff;
  [[nodiscard]] bool early_stop() const { return stop_backlog > 0.0 || stop_latency > 0; }
};

struct SimConfig {
  NetworkConfig network;
  TrafficConfig traffic;
  MeasureConfig measure;
  /// How a batch job operates the run; never part of the stored configuration (batch_config.hpp).
  BatchConfig batch;
  WorkloadConfig workload;  ///< a closed-loop workload instead of the traffic (run only)
};

}  // namespace wormnet
