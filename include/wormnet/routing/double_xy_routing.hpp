// Zhang & Yang's Double XY routing on H_t (Algorithm 2): two virtual networks, each minimal
// and adaptive. Network 0 = Z+ with X0/Y0 (VC 0), network 1 = Z- with X1/Y1 (VC 1); Z channels
// use VC 0 only. The paper's sign of Zsrcoffset is printed reversed; the network is chosen by
// dZ = Zdest - Zsource: dZ > 0 -> network 0, dZ < 0 -> network 1, dZ = 0 -> either (chosen at
// the first hop, then kept: no switching between networks).
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

class DoubleXyRouting final : public RoutingFunction {
 public:
  /// Packet states: network 0, network 1, or not yet chosen (dZ = 0, before the first hop).
  enum State : RouteState { kNet0 = 0, kNet1 = 1, kEither = 2 };

  explicit DoubleXyRouting(const HoneycombMesh& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kDoubleXy; }
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] int state_count() const override { return 3; }
  [[nodiscard]] RouteState initial_state(NodeId src, NodeId dst) const override;
  [[nodiscard]] bool minimal() const override { return true; }
  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  [[nodiscard]] std::string description() const override {
    return "Double XY (Zhang & Yang Alg. 2): two virtual networks by sign of dZ, minimal, "
           "2 VCs on X and Y";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

  [[nodiscard]] std::vector<NetworkSymmetry> symmetries(ArrivalScope scope) const override;

 private:
  const HoneycombMesh& topo_;
};

}  // namespace wormnet
