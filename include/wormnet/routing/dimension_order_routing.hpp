// Dimension-order routing on meshes (`xy`) and tori (`dor`): correct dimension 0 first, then
// 1, ...; in a ring take the shorter way, + on a tie (offset exactly k/2). One VC. On a torus
// its CDG is cyclic wherever a ring has 4 or more nodes; with bubble flow control in the
// rings it is deadlock-free (`--flow-control bubble`).
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

/// Direction (+1/-1) of a minimal step from coordinate a to b in dimension d, 0 when equal;
/// + on a tie. Shared by the torus routings.
int minimal_direction(const Torus& topo, int dim, int a, int b);

class DimensionOrderRouting final : public RoutingFunction {
 public:
  DimensionOrderRouting(const Torus& topo, bool bubble) : topo_(topo), bubble_(bubble) {}
  [[nodiscard]] std::string name() const override { return topo_.wrap() ? "dor" : "xy"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] bool needs_bubble() const override { return bubble_; }
  [[nodiscard]] std::string description() const override {
    return "dimension-order routing, shortest way round each ring (+ on ties), 1 VC";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const Torus& topo_;
  bool bubble_;
};

}  // namespace wormnet
