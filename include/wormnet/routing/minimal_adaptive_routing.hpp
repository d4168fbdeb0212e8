// Fully adaptive minimal routing with one VC: every step that shortens the distance to the
// destination is allowed, in port order (XYZ priority on the honeycombs). Written on
// Topology::distance, so it serves any topology: on H_t and the honeycomb tori it is the
// verifier's negative control (its CDG is cyclic: a hexagon, or a 4-cycle on the
// smallest honeycomb tori), and it is the adaptive part of
// Duato's routing (DuatoRouting).
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Ports of `node` whose neighbour is one hop closer to `dest`, in port order; returns how
/// many were written to `ports` (at most kMaxPorts).
int minimal_ports(const Topology& topo, NodeId node, NodeId dest, PortId* ports);

class MinimalAdaptiveRouting final : public RoutingFunction {
 public:
  explicit MinimalAdaptiveRouting(const Topology& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kMinimalAdaptive; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  [[nodiscard]] std::string description() const override {
    return "fully adaptive minimal routing, 1 VC (negative control: deadlocks)";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

  [[nodiscard]] std::vector<NetworkSymmetry> symmetries(ArrivalScope scope) const override;
  /// Every minimal step: any translation of a torus or a honeycomb torus keeps them.
  [[nodiscard]] Translation translation_invariance() const override {
    return Translation::kOptions;
  }

 private:
  const Topology& topo_;
};

}  // namespace wormnet
