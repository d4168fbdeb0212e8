// West-first turn-model routing on a 2-D mesh (Glass & Ni, ISCA 1992): a packet that must go
// west (X-) does all its X- hops first; otherwise it routes adaptively among the minimal
// directions X+, Y+, Y-. One VC, deadlock-free. The honeycomb paper's 16x16 mesh reference.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

class WestFirstRouting final : public RoutingFunction {
 public:
  explicit WestFirstRouting(const Torus& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kWestFirst; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  [[nodiscard]] std::string description() const override {
    return "west-first turn model (Glass & Ni): X- first, then adaptive minimal; 1 VC";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const Torus& topo_;
};

}  // namespace wormnet
