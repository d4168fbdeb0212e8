// Fully adaptive minimal routing on H_t with one VC: every step that reduces the distance is
// allowed (XYZ priority). The negative control of the verifier: its CDG is cyclic on every H_t.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

class MinimalAdaptiveRouting final : public RoutingFunction {
 public:
  explicit MinimalAdaptiveRouting(const HoneycombMesh& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return "minimal-adaptive"; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override {
    return "fully adaptive minimal routing, 1 VC (negative control: deadlocks)";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const HoneycombMesh& topo_;
};

}  // namespace wormnet
