// Dimension-order routing on a torus with two dateline VCs per channel (Dally & Seitz): a
// packet enters each dimension on VC 0 and moves to VC 1 when it crosses that ring's
// dateline (the wrap-around link between coordinates k-1 and 0); it stays on VC 1 until it
// leaves the dimension. Deadlock-free by the CDG alone. The VC is derived from the input
// channel (same dimension and VC 1, or this hop crosses the wrap), so no packet state unless
// half-ring ties are drawn per packet (state 1 = - on ties, as in DimensionOrderRouting).
#pragma once

#include "wormnet/routing/dimension_order_routing.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

class DatelineRouting final : public RoutingFunction {
 public:
  explicit DatelineRouting(const Torus& topo, bool drawn_ties = false)
      : topo_(topo), ties_(drawn_ties) {}
  [[nodiscard]] std::string name() const override { return routing_name::kDorDateline; }
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] int state_count() const override { return ties_.state_count(); }
  [[nodiscard]] int initial_choices() const override { return ties_.choices(); }
  [[nodiscard]] RouteState chosen_initial_state(NodeId, NodeId, int choice) const override {
    return static_cast<RouteState>(choice);
  }
  /// The port depends on the node and destination only (dimension order). The VC also reads
  /// the arrival, but only as "arrived on VC 1, in dimension d": an arrival on VC 0, from
  /// any direction, is routed as a fresh injection.
  [[nodiscard]] int arrival_class(ArrivalScope scope, PortId in_port, VcId in_vc) const override {
    if (scope == ArrivalScope::kPorts || in_port == kInjectionPort || in_vc == 0) return 0;
    return 1 + Topology::port_dim(in_port);
  }
  /// The ports are dimension order's; the VC depends on where the dateline is.
  [[nodiscard]] Translation translation_invariance() const override { return Translation::kPorts; }
  [[nodiscard]] std::string description() const override {
    return std::string("dimension-order routing with dateline VCs (VC 1 after the wrap link)") +
           (ties_.drawn() ? ", half-ring ties drawn per packet" : "") + ", 2 VCs";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const Torus& topo_;
  RingTies ties_;
};

}  // namespace wormnet
