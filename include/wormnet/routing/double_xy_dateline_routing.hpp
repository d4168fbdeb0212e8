// Double XY carried over to the honeycomb tori, with dateline VCs.
//
// Double XY (Zhang & Yang, Alg. 2) splits the packets of H_t into two virtual networks by the
// sign of their Z offset: network 0 takes Z+ only, network 1 Z- only, and each has its own VC
// on X and Y. In a network a cycle of dependencies inside H_t would need as many Z+ as Z-
// hops, so it has none, and an X/Y zig-zag never closes: each network is acyclic. On a torus
// the zig-zags and the Z direction close round the torus; the dateline levels of
// HoneycombTorusWays cut those cycles: a dependency cycle within one level cannot go round
// the torus, so it lies in one copy of the plane, where the Double XY argument holds.
//
// Here the packet heads for any nearest image whose Z offset has its network's sign (network
// 0: Z offset >= 0, network 1: <= 0); a packet that could go either way picks its network at
// its first hop (state kEither), as Double XY does when dZ = 0. VC of a hop = 2 * level + net;
// Z+ is used by network 0 only, Z- by network 1 only. 2 * levels VCs (6 on every HT_T).
#pragma once

#include "wormnet/routing/honeycomb_torus_ways.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"

namespace wormnet {

class DoubleXyDatelineRouting final : public RoutingFunction {
 public:
  enum State : RouteState { kNet0 = 0, kNet1 = 1, kEither = 2 };

  /// Throws InputError naming --routing when the torus needs more than kMaxVcs VCs.
  explicit DoubleXyDatelineRouting(const HoneycombTorus& topo);
  [[nodiscard]] std::string name() const override { return routing_name::kDoubleXyDateline; }
  [[nodiscard]] int vcs_required() const override { return 2 * ways_.levels(); }
  [[nodiscard]] int state_count() const override { return 3; }
  /// Network 0 when every nearest image lies at Z offset > 0, network 1 when every one lies
  /// at < 0, kEither otherwise (the first hop decides).
  [[nodiscard]] RouteState initial_state(NodeId src, NodeId dst) const override;
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override;
  /// A packet in a network with no nearest image of its sign left (possible only after hops
  /// that another routing chose, e.g. Duato's adaptive ones) routes as kEither.
  void route(const RouteRequest& request, RouteOptions& out) const override;
  [[nodiscard]] const HoneycombTorusWays& ways() const { return ways_; }

  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  /// A translation moves every nearest image along, so the networks and the ports; the
  /// dateline levels (the VCs) stay only under translations by multiples of the periods of
  /// the dateline coordinates.
  [[nodiscard]] Translation translation_invariance() const override {
    return Translation::kOptions;
  }
  [[nodiscard]] int translation_step(ArrivalScope scope, int k) const override {
    return scope == ArrivalScope::kOptions ? ways_.level_step(k) : 1;
  }

 private:
  const HoneycombTorus& topo_;
  HoneycombTorusWays ways_;
};

}  // namespace wormnet
