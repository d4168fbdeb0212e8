// Stojmenovic's minimal routing on H_t (IEEE TPDS 1997), as Zhang & Yang restate it: route
// along the coordinate with the largest remaining offset, XYZ priority on ties. One VC. It is
// minimal and deterministic, and it deadlocks: H_t has girth 6, so its CDG is cyclic.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

class StojmenovicRouting final : public RoutingFunction {
 public:
  explicit StojmenovicRouting(const HoneycombMesh& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kStojmenovic; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  [[nodiscard]] std::string description() const override {
    return "Stojmenovic minimal routing: largest offset first, XYZ on ties; 1 VC (deadlocks)";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

  [[nodiscard]] std::vector<NetworkSymmetry> symmetries(ArrivalScope scope) const override;

 private:
  const HoneycombMesh& topo_;
};

}  // namespace wormnet
