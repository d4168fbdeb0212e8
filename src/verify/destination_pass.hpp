// The per-destination pass of the routing analyses (private to src/verify). It explores every
// routing state of the packets bound for one destination, where a state is (node, class of
// the arrival, packet state) and the arrival classes are the routing's own declaration
// (RoutingFunction::arrival_class()): states the routing cannot tell apart are one state, so
// a routing that reads only the node and the destination has one state per node (one in-tree
// per destination) instead of one per input channel and VC. Each state is routed once, in
// the order the states are found; Kahn's algorithm then orders them topologically (states
// left over lie on a cycle: a livelock), and flows, loads, path lengths and channel
// dependencies follow along that order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"
#include "wormnet/verify/coordinate_distances.hpp"
#include "wormnet/verify/exact_sum.hpp"

namespace wormnet::detail {

/// What the passes of one process add up (combined over processes by routing_analysis.cpp).
struct PartialAnalysis {
  std::vector<ExactSum> loads;  ///< [channel]: flow over the explored destinations (if loads)
  /// Sum over explored pairs of the expected route length: every step's flow added in fixed
  /// point, so the total is exact up to the terms' 2^-63 cut and independent of the order.
  ExactSum hops;
  /// Whether the passes follow the flows (loads, path lengths, minimality). Off: only the
  /// states, their dependencies and the defects (a dead end, an illegal step, a livelock).
  bool flows = true;
  /// Known free of livelocks (every step of every route brings the packet one hop closer, so
  /// no state can be reached twice): a pass without flows then skips Kahn's order.
  bool acyclic = false;
  std::uint64_t states = 0;  ///< routing states explored (each routed once)
  int max_path = 0;
  bool all_minimal = true;
  /// Position in the plan of the destination whose defect is kept (the first), or none.
  std::uint64_t defect_at = ~std::uint64_t{0};
  std::string defect;
  ChannelDependencyGraph* cdg = nullptr;  ///< dependencies are added here when not null
  /// On a network with faults: the sum of the working distances of the explored pairs (the
  /// closed forms do not hold there), 0 otherwise.
  std::uint64_t minimal_sum = 0;
  std::uint64_t unclaimed = 0;  // working pairs the routing does not claim (not checked)
};

class DestinationPass {
 public:
  /// On a network with `faults` (which must outlive the pass): packets start at working
  /// nodes only, and a step over a failed channel is a defect naming a pair and the channel.
  DestinationPass(const Topology& topo, const RoutingFunction& routing, int vcs, ArrivalScope scope,
                  const CoordinateDistances& distances, const FaultSet& faults);

  /// Explores the states bound for `dest` from every source (or from `source` only, when
  /// valid) and adds their loads, dependencies and path figures to `out`; `index` is the
  /// destination's position in the plan (orders the defects). With faults, `dest` and
  /// `source` are working nodes and the failed sources send nothing.
  void run(NodeId dest, NodeId source, std::uint64_t index, PartialAnalysis& out);

  /// A source of a weighted pass and its weight: the flow it injects toward the destination
  /// (a traffic pattern's share of its messages bound there).
  struct WeightedSource {
    NodeId source;
    double weight;
  };
  /// As run(), from the given sources only, each injecting its weight instead of a unit: the
  /// loads of a traffic pattern's pairs (pattern_loads.hpp). A source-dependent routing reads
  /// the source: then exactly one source per call, which route() is told.
  void run_weighted(NodeId dest, std::span<const WeightedSource> sources, std::uint64_t index,
                    PartialAnalysis& out);

 private:
  /// A step from one state to the next, over a channel.
  struct Edge {
    double share;      ///< fraction of the state's flow that takes it (then: the flow itself)
    std::uint32_t to;  ///< the next state (its position in the order found)
    std::uint32_t channel;
  };
  /// A routing state toward the current destination, with what the pass derives for it.
  /// Stored densely in the order the states are found (a breadth-first order from the
  /// sources, so neighbouring states lie close); slots_ finds a state's place from its key.
  struct Entry {
    double flow;               ///< packets (fractions of) that reach this state
    std::uint32_t key;         ///< node, arrival class and packet state (see key())
    std::uint32_t pending;     ///< steps into it not yet taken (Kahn's topological order)
    std::int32_t hops;         ///< longest path from a source to this state
    std::int32_t distance;     ///< to the destination (while minimality is checked)
    std::uint32_t first_edge;  ///< its steps are edges_[first_edge, first_edge + edges)
    std::uint8_t edges;
    PortId in_port;  ///< the first arrival seen: the one route() is asked with
    VcId in_vc;
  };
  static_assert(sizeof(Entry) == 32);

  /// The key of a state: arrival class, packet state and node packed in bit fields, the node
  /// lowest: the states of one class and packet state at consecutive nodes lie side by side,
  /// so the pass (which reaches every node's few states, the roots in node order, and steps to
  /// neighbours) reads whole cache lines instead of one line per node.
  [[nodiscard]] std::uint32_t key(NodeId node, PortId in_port, VcId in_vc, RouteState st) const {
    const std::size_t p = in_port == kInjectionPort ? static_cast<std::size_t>(ports_) : in_port;
    return class_key_[p * static_cast<std::size_t>(vcs_) + in_vc] | (st << node_bits_) |
           node.value();
  }
  [[nodiscard]] NodeId key_node(std::uint32_t k) const { return NodeId(k & node_mask_); }
  [[nodiscard]] RouteState key_state(std::uint32_t k) const {
    return (k >> node_bits_) & ((1U << state_bits_) - 1U);
  }
  /// The place of a state in the order found; a new state is added at the end.
  std::uint32_t reach(NodeId node, PortId in_port, VcId in_vc, RouteState st) {
    const std::uint32_t k = key(node, in_port, in_vc, st);
    Slot& slot = slots_[k];
    if (slot.epoch != epoch_) {
      slot = Slot{epoch_, found_count_};
      entries_[found_count_] =
          Entry{0.0, k, 0, 0, check_minimal_ ? distance_(node) : 0, 0, 0, in_port, in_vc};
      return found_count_++;
    }
    return slot.at;
  }
  /// Starts a pass toward `dest` (its stamps, counters and distances); with faults and
  /// `sum_minimal`, adds the minimal distances of its sources to out.minimal_sum.
  void begin(NodeId dest, NodeId source, std::uint64_t index, PartialAnalysis& out,
             bool sum_minimal = true);
  /// The roots of `s`: one injection per initial choice, `weight` split evenly over them.
  /// False after an initial state out of range (noted).
  bool seed(NodeId s, double weight, PartialAnalysis& out);
  /// Routes every state found, orders them, and adds the flows to `out`.
  void explore(PartialAnalysis& out);
  template <bool kFlows>
  void order_states(PartialAnalysis& out);
  template <bool kCdg, bool kOneVc>
  [[gnu::always_inline]] inline void expand(std::uint32_t i, PartialAnalysis& out);
  // Defects: rare, kept out of the hot code.
  [[gnu::cold, gnu::noinline]] void note(std::string text, PartialAnalysis& out);
  [[gnu::cold, gnu::noinline]] void illegal_step(std::uint32_t i, const RouteOption& o,
                                                 PartialAnalysis& out);
  [[nodiscard]] std::string describe(std::uint32_t i) const;
  /// A step over a failed channel from state i: the first working source (in id order)
  /// whose packets to the destination take such a step, named with the channel.
  [[nodiscard]] std::string failed_step(std::uint32_t i, const RouteOption& o) const;
  [[nodiscard]] ChannelId channel(NodeId n, PortId p) const {
    const unsigned below = topo_.port_mask(n) & ((1U << p) - 1U);
    return ChannelId(topo_.first_channel(n) + bits_[below]);
  }

  const Topology& topo_;
  const RoutingFunction& routing_;
  const CoordinateDistances& distances_;
  const FaultSet& faults_;
  int vcs_;
  int ports_;
  std::uint32_t state_count_;  // routing.state_count()
  int classes_ = 0;
  unsigned state_bits_ = 0;               // key bits of the packet state
  unsigned node_bits_ = 0;                // key bits of the node (the lowest)
  std::uint32_t node_mask_ = 0;           // (1 << node_bits_) - 1
  std::vector<std::uint8_t> class_;       // [(port, or ports_ at injection) * vcs + vc] -> class
  std::vector<std::uint32_t> class_key_;  // the same, as key bits: class << (state + node bits)
  /// [node * ports + port]: the neighbour and the channel to it (one load for both).
  struct Link {
    std::uint32_t neighbor;
    std::uint32_t channel;
  };
  std::vector<Link> links_;
  std::vector<std::uint8_t> bits_;  // [mask]: number of set bits (port and VC masks)
  /// [node]: the ports a step may take, the working ones (Topology::port_mask() without
  /// faults); a step on another port is a defect.
  std::vector<std::uint16_t> port_masks_;
  /// [options * (kMaxVcs + 1) + VCs]: (1 / options) / VCs, a step's share of the flow.
  std::vector<double> share_;

  // Per destination.
  NodeId dest_;
  NodeId source_;
  std::uint64_t index_ = 0;
  CoordinateDistances::To distance_;
  bool check_minimal_ = true;
  bool cdg_ = false;  // this pass records dependencies
  /// Where the state of a key lies in entries_, when `epoch` is the current pass's.
  struct Slot {
    std::uint32_t epoch = 0;  ///< the pass that reached the state
    std::uint32_t at;
  };
  std::uint32_t epoch_ = 0;
  std::vector<Slot> slots_;  // [key]
  // Arrays sized once (entries_, successors_, order_: every key; edges_: grown before a state
  // is routed), so that the hot loops store without capacity checks.
  std::vector<Entry> entries_;             // [place]: the states reached, in the order found
  std::vector<std::uint64_t> successors_;  // [place]: CDG bits (port * vcs + vc) of the options
  std::uint32_t found_count_ = 0;
  std::uint32_t edge_count_ = 0;
  std::vector<std::uint32_t> order_;  // places in topological order (Kahn)
  std::vector<Edge> edges_;
  std::vector<VcMask> edge_vcs_;  // [edge]: VCs of the channel the step may use (for the CDG)
  RouteOptions options_;
};

}  // namespace wormnet::detail
