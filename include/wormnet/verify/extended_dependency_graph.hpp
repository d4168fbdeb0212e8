// Duato's condition for an adaptive routing with escape channels (RoutingFunction::
// escape_vcs() != 0): the routing is deadlock-free when
//  (1) the escape sub-function is connected: from every state a packet can reach (at its
//      source, or with its head behind any channel, escape or adaptive), the routing offers
//      at least one step on an escape VC; together with the delivery check (every choice
//      arrives, no livelock) every escape-only path then reaches the destination; and
//  (2) its extended channel dependency graph is acyclic: vertices are the escape (channel,
//      VC) pairs, with an edge e -> e' when a packet bound for some destination can hold e
//      and request e' next (direct dependency) or after a run of adaptive channels (indirect
//      dependency; Duato, IEEE TPDS 4(12) 1993, extended to routing functions of the input
//      channel and the packet state as in TPDS 6(10) 1995, so cross dependencies are in).
// Built on the routing state graph (route_state_graph.hpp), over every destination and
// every state a packet can reach under the whole routing. The indirect dependencies are kept
// compact: the adaptive states of destination d that can follow an escape channel are
// vertices of their own (one copy per destination), so a path e -> a1 -> ... -> ak -> e' in
// this graph is exactly an indirect dependency, and a cycle in it is a cycle of the extended
// CDG (the adaptive states of one destination form no cycle when delivery holds).
// docs/duato.md has the argument and the assumptions (a queue never holds two packets).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

struct DuatoReport {
  /// One vertex of a reported cycle: an escape channel, or an adaptive channel that a packet
  /// bound for `dest` takes between two escape channels (an indirect dependency).
  struct Step {
    ChannelId channel;
    VcId vc = 0;
    bool escape = true;
    NodeId dest;  ///< for adaptive steps
  };

  VcMask escape_vcs = 0;  ///< the routing's escape VC classes
  /// (1): the first reachable state with no escape step, empty when connected.
  std::string disconnected;
  std::uint64_t escape_vertices = 0;  ///< escape (channel, VC) pairs used by some route
  std::uint64_t direct = 0;           ///< distinct direct dependencies between them
  std::uint64_t adaptive_states = 0;  ///< (adaptive channel, VC, state, destination) vertices
  std::uint64_t indirect_edges = 0;   ///< edges into or out of those vertices
  /// (2): a cycle of the extended CDG (escape vertices, with the adaptive channels of the
  /// indirect dependencies between them), empty when acyclic.
  std::vector<Step> cycle;
  /// False when the cycle search stopped early (large cyclic graphs): a cycle, maybe not the
  /// shortest.
  bool shortest = true;

  [[nodiscard]] bool connected() const { return disconnected.empty(); }
  [[nodiscard]] bool holds() const { return connected() && cycle.empty(); }
};

/// Checks Duato's condition for `routing` on `topo` with `vcs` VCs per channel (0 = the
/// routing's vcs_required()). The routing must have escape VCs. With `faults`: over the
/// working pairs, steps over failed channels never taken (docs/faults.md).
DuatoReport check_duato(const Topology& topo, const RoutingFunction& routing, int vcs = 0,
                        const FaultSet* faults = nullptr);

/// "(1,0,0) X+ vc2" for an adaptive step, with " toward (x,y,z)" for its destination.
std::string describe_step(const Topology& topo, const DuatoReport::Step& s);

}  // namespace wormnet
