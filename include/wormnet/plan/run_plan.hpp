// The settings a run derives from its configuration and the network built from it, decided
// once: how many VCs, whether bubble flow control is on, the lookahead between ranks, the
// measurement window, the partition method and the routing's properties. The engine, the
// results file and the command line read them from here; nothing recomputes them.
#pragma once

#include <string>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// The cycles of a load point (absolute cycle numbers from 0).
struct MeasurementWindow {
  Cycle begin = 0;  ///< first cycle whose new packets are labelled (--warmup)
  /// Cycles whose new packets are labelled: --measure, or --cycles - --warmup.
  Cycle length = 1;
  Cycle drain_limit = 0;  ///< cycles after the window allowed for delivering them
  /// First cycle after the window (= --cycles when given).
  [[nodiscard]] Cycle end() const { return begin + length; }
  /// The cycle at which an undelivered labelled packet makes the point saturated.
  [[nodiscard]] Cycle drain_end() const { return end() + drain_limit; }
};

/// What the simulation and the results file need to know about the routing besides route().
struct RoutingTraits {
  std::string name;
  std::string description;
  int vc_classes = 1;         ///< VCs the routing needs (vcs_required): VC v is of class v mod this
  VcMask escape_classes = 0;  ///< escape VC classes (Duato), 0 for every other routing
  bool minimal = true;
  bool needs_bubble = false;  ///< relies on bubble flow control inside rings by itself
};

/// The shortest and the longest packet a run sends (flits), and where the longest comes
/// from. Bubble flow control reserves room for the longest behind a packet that enters a ring,
/// and so needs buffers of two of them. Open-loop traffic: --length-min and --length-max; a
/// closed-loop workload: its own messages (--message-size, or a trace's), since a workload
/// refuses --length-*.
struct MessageLengths {
  int shortest = 1;  ///< flits
  int longest = 1;   ///< flits
  /// What sets the longest, for a refusal: "--length-max", "--message-size", or "message 7
  /// of --trace t.csv".
  std::string longest_from = "--length-max";
};

/// The open-loop traffic's lengths: [--length-min, --length-max].
MessageLengths traffic_lengths(const TrafficConfig& traffic);

struct RunPlan {
  int vcs = 1;  ///< VCs per channel: --vcs, or what the routing needs
  /// Bubble flow control in the rings: the routing relies on it, or --flow-control bubble.
  bool bubble = false;
  /// The smallest delay of anything that crosses between routers, so between ranks (cycles,
  /// >= 1): a flit's switch allocation, switch and link, or a credit's latency. Ranks run
  /// windows of at most this many cycles between exchanges.
  Cycle lookahead = 1;
  MeasurementWindow window;
  PartitionMethod partition = PartitionMethod::kGeometric;
  RoutingTraits routing;
  /// The packets' lengths: the router's bubble reserve is `lengths.longest`.
  MessageLengths lengths;
  /// The nodes that send and receive traffic: every node, or on a network with faults the
  /// working ones (docs/faults.md). Rates per node (offered, accepted: flits/node/cycle) are
  /// per these nodes.
  std::uint32_t traffic_nodes = 0;

  /// The plan of a closed-loop run (an application workload): every packet labelled from
  /// cycle 0, and the run ends within --drain-limit cycles (the window, with no drain after).
  [[nodiscard]] RunPlan closed_loop() const {
    RunPlan p = *this;
    p.window = MeasurementWindow{0, window.drain_limit, 0};
    return p;
  }
};

/// Derives the plan of `config` (whose values passed validate_values()) on `topo` with
/// `routing` for packets of `lengths`, after checking the rules that need the built network:
/// enough VCs for the routing, bubble buffers that hold two of the longest packets, hotspot
/// ids inside the network, at least two nodes, a run whose router-cycles fit in 64 bits. Each
/// broken rule is an InputError naming the option, the value and what is allowed.
RunPlan make_run_plan(const SimConfig& config, const Topology& topo, const RoutingFunction& routing,
                      const MessageLengths& lengths, const FaultSet* faults = nullptr);

/// The plan for the open-loop traffic's packets: lengths = traffic_lengths(config.traffic).
RunPlan make_run_plan(const SimConfig& config, const Topology& topo,
                      const RoutingFunction& routing);

}  // namespace wormnet
