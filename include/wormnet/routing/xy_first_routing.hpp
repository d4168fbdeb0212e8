// Zhang & Yang's X-Y+ first routing on H_t (turn model, Algorithm 1), implemented as the
// paper's TEXT describes it rather than its pseudo-code (which, as printed, is minimal and
// whose "X- unusable" branch can never run):
//   phase A, while Xoffset < 0 or Yoffset > 0: walk the X-/Y+ zig-zag (a white node takes
//     X-, a black node takes Y+), even past the destination's x or y (the routing is
//     non-minimal); on the "bottom edge", where the node lacks that port, step along Z
//     (white: Z-, black: Z+) and continue;
//   phase B, once Xoffset >= 0 and Yoffset <= 0: any minimal step (X+, Y-, Z+/Z-).
// Phase B never takes X- or Y+, so the forbidden turns Z -> X- and Z -> Y+ occur only on
// the bottom edge, as in the paper's channel-numbering proof. One VC. The phase is a pure
// function of the offsets, so no packet state is needed.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

class XyFirstRouting final : public RoutingFunction {
 public:
  explicit XyFirstRouting(const HoneycombMesh& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kXyFirst; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return false; }
  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  [[nodiscard]] std::string description() const override {
    return "X-Y+ first turn-model routing (Zhang & Yang Alg. 1, as the text describes it), "
           "non-minimal, 1 VC";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

  [[nodiscard]] std::vector<NetworkSymmetry> symmetries(ArrivalScope scope) const override;

 private:
  const HoneycombMesh& topo_;
};

}  // namespace wormnet
