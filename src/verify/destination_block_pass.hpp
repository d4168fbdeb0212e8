// The dependency pass over blocks of destinations (private to src/verify): the routing states
// of the packets bound for up to 64 destinations at once, each state carrying a bit mask of the
// destinations that reach it, for a routing that declares destination classes
// (RoutingFunction::destination_classes()): route() is then asked once per (node, arrival
// class, packet state, destination class) for the whole run instead of once per state and
// destination, and a step moves the bits of every destination that takes it in one OR.
//
// It finds what DestinationPass finds without flows (PartialAnalysis::flows = false): the same
// reachable states for every destination (their number is the same), the same channel
// dependencies, and whether there is a defect (a dead end, an illegal step, an initial state
// out of range), but not which: the caller reruns the per-destination analysis to name it.
// It looks for no livelock, so it is only for routings whose every route is known minimal
// (PartialAnalysis::acyclic).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"
#include "wormnet/verify/coordinate_distances.hpp"

namespace wormnet::detail {

class DestinationBlockPass {
 public:
  /// Destinations per block: the bits of one mask.
  static constexpr int kBlock = 64;

  /// Whether the routing declares destination classes and its table of routes (nodes x
  /// arrival classes x packet states x destination classes) stays small enough.
  [[nodiscard]] static bool applies(const Topology& topo, const RoutingFunction& routing);

  DestinationBlockPass(const Topology& topo, const RoutingFunction& routing, int vcs,
                       const CoordinateDistances& distances);

  /// The destinations in blocks of at most kBlock, nearby ones together (each block grown
  /// breadth-first from its lowest node not yet taken), so that their routes run alike.
  [[nodiscard]] std::vector<std::vector<NodeId>> blocks() const;

  /// Explores the states bound for the destinations of `block`, adds their dependencies to
  /// `cdg` and their number to `states`. False when a route toward one of them has a defect
  /// (the dependencies are then incomplete).
  bool run(std::span<const NodeId> block, ChannelDependencyGraph& cdg, std::uint64_t& states);

 private:
  /// A step of a route: to `neighbor` over `channel`, arriving by port `arrival`.
  struct Step {
    std::uint32_t neighbor;
    std::uint32_t channel;
    std::uint32_t next_state;
    PortId arrival;
    VcMask vcs;
  };
  /// The route of one (node, arrival class, packet state, destination class), asked once.
  struct Route {
    std::uint64_t successors = 0;  ///< CDG bits (port * vcs + vc) of its options
    std::uint32_t first = 0;       ///< its steps are steps_[first, first + count)
    std::uint8_t count = 0;
    std::uint8_t known = 0;  ///< 0: not asked yet, 1: asked, 2: asked and defective
  };
  static_assert(sizeof(Route) == 16);
  /// A routing state toward the block: which destinations reach it, which of them it has
  /// passed on, and the first arrival seen (the one route() is asked with).
  struct State {
    std::uint64_t reached = 0;
    std::uint64_t done = 0;
    PortId in_port = kInjectionPort;
    VcId in_vc = 0;
    bool queued = false;
  };

  [[nodiscard]] std::uint32_t state_index(std::uint32_t node, int cls, RouteState st) const {
    return (node * static_cast<std::uint32_t>(classes_) + static_cast<std::uint32_t>(cls)) *
               state_count_ +
           st;
  }
  [[nodiscard]] int arrival_class(PortId port, VcId vc) const {
    const std::size_t p = port == kInjectionPort ? static_cast<std::size_t>(ports_) : port;
    return class_[p * static_cast<std::size_t>(vcs_) + vc];
  }
  /// The route of state u toward destinations of class `dc` at its node (`dest` one of them),
  /// asked of the routing the first time; nullptr when it is defective.
  const Route* route(std::uint32_t u, int dc, NodeId dest) {
    Route& r = routes_[static_cast<std::size_t>(u) * static_cast<std::size_t>(dest_classes_) +
                       static_cast<std::size_t>(dc)];
    if (r.known == 0) [[unlikely]]
      ask(r, u, dest);
    return r.known == 1 ? &r : nullptr;
  }
  [[gnu::noinline]] void ask(Route& r, std::uint32_t u, NodeId dest);
  /// Adds `bits` to state u at `node` (reached by arrival port, vc), queued if they are new.
  void reach(std::uint32_t u, std::uint32_t node, std::uint64_t bits, PortId port, VcId vc) {
    State& s = states_[u];
    if ((bits & ~s.reached) == 0) return;
    if (s.reached == 0) {
      s.in_port = port;
      s.in_vc = vc;
    }
    s.reached |= bits;
    if (!s.queued) {
      s.queued = true;
      const int p = priority_[node];
      buckets_[static_cast<std::size_t>(p)].push_back(u);
      top_ = std::max(top_, p);
    }
  }

  const Topology& topo_;
  const RoutingFunction& routing_;
  const CoordinateDistances& distances_;
  int vcs_;
  int ports_;
  std::uint32_t state_count_;
  int classes_ = 0;                  // arrival classes (kOptions), numbered densely
  int dest_classes_;                 // routing.destination_classes()
  std::vector<std::uint8_t> class_;  // [(port, or ports_ at injection) * vcs + vc] -> class
  std::vector<Route> routes_;        // [state index * dest classes + destination class]
  std::vector<Step> steps_;
  RouteOptions options_;

  // Per block.
  std::vector<NodeId> block_;
  std::vector<State> states_;  // [state index]
  /// [node * dest classes + class]: the block's destinations of that class at the node.
  std::vector<std::uint64_t> by_class_;
  std::vector<std::uint8_t> present_;        // [node * dest classes + i]: the classes present
  std::vector<std::uint8_t> present_count_;  // [node]
  std::vector<std::uint64_t> self_;          // [node]: its own bit, when it is in the block
  std::vector<int> priority_;                // [node]: distance to the block's first node
  std::vector<std::vector<std::uint32_t>> buckets_;  // queued states, by their node's priority
  int top_ = -1;                                     // highest bucket that may hold states
};

}  // namespace wormnet::detail
