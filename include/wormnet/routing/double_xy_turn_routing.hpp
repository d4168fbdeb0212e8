// Zhang & Yang's improved Double XY on H_t (the turn-model improvement described after their
// Algorithm 2; the paper gives no pseudo-code and its figure of forbidden turns is missing), as
// reconstructed and proven in docs/routing/double-xy-turn.md.
//
// Channels form Double XY's two virtual networks: network 0 = X0, Y0 and Z+, network 1 = X1,
// Y1 and Z- (X and Y carry two VCs; the single Z channel uses VC 0). A packet's class comes from
// the offsets destination - source, as the paper's six classes (class 5 corrected, see
// route_class()):
//   classes 2 and 5 route by Double XY: network 1 (class 2, dZ < 0) or network 0 (class 5,
//     dZ > 0) for the whole route;
//   classes 1, 3, 4 and 6 start in network 0 and may switch to network 1 at any hop once no
//     Z+ hop remains (dZ <= 0 at the current node), by taking X1/Y1 or Z-; they never return
//     to network 0. For classes 1 and 3 this is the paper's text ("first X0/Y0, then VC1 and
//     Z, never VC0 again"); for classes 4 and 6 the text names the VCs the other way round
//     ("first VC1 and Z, then VC0"), which closes channel dependency cycles even on H_1.
// The forbidden turns are exactly those from network 1 back to network 0 (X1->Y0, Y1->X0,
// Z-->X0/Y0, X1/Y1->Z+): a mechanical search over all turn prohibitions that keep Double XY
// found that switching one way only is the largest deadlock-free choice, and that the
// abstract-cycle count of six forbidden turns is not enough. Minimal and fully adaptive on
// physical paths, like Double XY, with more VC choice.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

class DoubleXyTurnRouting final : public RoutingFunction {
 public:
  /// Packet states, fixed at the source. kOpen: classes 1, 3, 4, 6 and neighbours; the
  /// packet's current network is read from the channel it arrived on (network 0 at the
  /// source), so switching needs no state change. kNet0 / kNet1: Double XY classes 5 / 2.
  enum State : RouteState { kOpen = 0, kNet0 = 1, kNet1 = 2 };

  explicit DoubleXyTurnRouting(const HoneycombMesh& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kDoubleXyTurn; }
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] int state_count() const override { return 3; }
  [[nodiscard]] RouteState initial_state(NodeId src, NodeId dst) const override;
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override {
    return "improved Double XY (Zhang & Yang, turn model): Double XY networks, classes 1/3/4/6 "
           "may switch once from network 0 to network 1; minimal, 2 VCs on X and Y";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;
  /// route() reads the arrival only through the virtual network it arrived in.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId in_port, VcId in_vc) const override {
    return arrival_network(in_port, in_vc);
  }

  /// route() reads the destination through which coordinates a hop along this node's links
  /// reduces (3 bits) and whether a Z+ hop remains (dZ > 0): 16 classes.
  [[nodiscard]] int destination_classes() const override { return 16; }
  [[nodiscard]] int destination_class(NodeId node, NodeId dest) const override;

  /// Virtual network (0 or 1) of the channel a head arrived on (in_port at this node, VC);
  /// network 0 at the source.
  [[nodiscard]] static int arrival_network(PortId in_port, VcId in_vc);

  /// The paper's class (1..6) of the offsets dx, dy, dz = destination - source, or 0 for a
  /// neighbour (one nonzero offset), which no class covers. As printed, class 5 reads
  /// "Z > 0, X <= 0, Y > 0"; it overlaps class 4 and leaves dZ > 0, dY < 0, dX <= 0 uncovered,
  /// so it is read as "Z > 0, X <= 0, Y < 0" (one sign). On H_t, dx + dy + dz is -1, 0 or 1.
  [[nodiscard]] static int route_class(int dx, int dy, int dz);

  [[nodiscard]] std::vector<NetworkSymmetry> symmetries(ArrivalScope scope) const override;

 private:
  const HoneycombMesh& topo_;
};

}  // namespace wormnet
