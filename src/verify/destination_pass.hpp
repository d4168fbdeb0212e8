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
  ExactSum hops;                ///< sum over explored pairs of the expected route length
  std::uint64_t states = 0;     ///< routing states explored (each routed once)
  int max_path = 0;
  bool all_minimal = true;
  /// Position in the plan of the destination whose defect is kept (the first), or none.
  std::uint64_t defect_at = ~std::uint64_t{0};
  std::string defect;
  ChannelDependencyGraph* cdg = nullptr;  ///< dependencies are added here when not null
};

class DestinationPass {
 public:
  DestinationPass(const Topology& topo, const RoutingFunction& routing, int vcs, ArrivalScope scope,
                  const CoordinateDistances& distances);

  /// Arrival classes in use (dense), and routing states per node for the keys.
  [[nodiscard]] int classes() const { return classes_; }

  /// Explores the states bound for `dest` from every source (or from `source` only, when
  /// valid) and adds their loads, dependencies and path figures to `out`; `index` is the
  /// destination's position in the plan (orders the defects).
  void run(NodeId dest, NodeId source, std::uint64_t index, PartialAnalysis& out);

 private:
  struct Edge {
    double share;      ///< fraction of the state's flow that takes this step
    std::uint32_t to;  ///< compact index of the next state
    std::uint32_t channel;
    VcMask vcs;  ///< VCs of the channel this step may use
  };
  /// A routing state toward the current destination, with what the pass derives for it.
  struct State {
    double flow = 0.0;  ///< packets (fractions of) that reach this state
    std::uint32_t node;
    std::int32_t hops = 0;      ///< longest path from a source to this state
    std::int32_t distance = 0;  ///< to the destination (while minimality is checked)
    std::uint32_t pending = 0;  ///< steps into this state not yet taken (topological order)
    PortId in_port;             ///< the first arrival seen: the one route() is asked with
    VcId in_vc;
  };
  static_assert(sizeof(State) == 32);

  /// The compact index of a state, added when new.
  [[nodiscard]] std::uint32_t intern(NodeId node, PortId in_port, VcId in_vc, RouteState st) {
    const std::size_t p = in_port == kInjectionPort ? static_cast<std::size_t>(ports_) : in_port;
    const std::uint64_t key =
        (static_cast<std::uint64_t>(node.value()) * static_cast<std::uint64_t>(classes_) +
         class_[p * static_cast<std::size_t>(vcs_) + in_vc]) *
            state_count_ +
        st;
    return stamp_[key] == epoch_ ? slot_[key] : add_state(key, node, in_port, in_vc, st);
  }
  std::uint32_t add_state(std::uint64_t key, NodeId node, PortId in_port, VcId in_vc,
                          RouteState st);
  void expand(std::uint32_t i, PartialAnalysis& out);
  void note(std::string text, PartialAnalysis& out);
  [[nodiscard]] std::string describe(std::uint32_t i) const;
  [[nodiscard]] ChannelId channel(NodeId n, PortId p) const {
    const unsigned below = topo_.port_mask(n) & ((1U << p) - 1U);
    return ChannelId(topo_.first_channel(n) + bits_[below]);
  }

  const Topology& topo_;
  const RoutingFunction& routing_;
  const CoordinateDistances& distances_;
  int vcs_;
  int ports_;
  std::uint64_t state_count_;  // routing.state_count()
  int classes_ = 0;
  std::vector<std::uint8_t> class_;  // [(port, or ports_ at injection) * vcs + vc] -> class
  std::vector<std::uint8_t> bits_;   // [mask below 2^ports]: number of set bits
  /// [options * (kMaxVcs + 1) + VCs]: (1 / options) / VCs, a step's share of the flow.
  std::vector<double> share_;

  // Per destination.
  NodeId dest_;
  NodeId source_;
  std::uint64_t index_ = 0;
  CoordinateDistances::To distance_;
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> stamp_;  // [key]: epoch when interned
  std::vector<std::uint32_t> slot_;   // [key]: compact index when stamped
  bool check_minimal_ = true;
  std::vector<State> states_;              // [compact index], in the order found
  std::vector<RouteState> route_state_;    // [compact index]
  std::vector<std::uint32_t> first_edge_;  // [compact index + 1]: the steps of state i are
                                           // edges_[first_edge_[i], first_edge_[i + 1])
  std::vector<std::uint64_t> successors_;  // [compact index]: CDG bits (port * vcs + vc)
  std::vector<Edge> edges_;
  std::vector<std::uint32_t> order_;  // topological (Kahn)
  RouteOptions options_;
};

}  // namespace wormnet::detail
