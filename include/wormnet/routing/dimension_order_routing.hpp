// Dimension-order routing on meshes (`xy`) and tori (`dor`): correct dimension 0 first, then
// 1, ...; in a ring take the shorter way. A destination exactly half a ring away (a tie) is
// reached in the + direction, or, with drawn ties (--ring-tie random / alternating), in the
// direction the packet drew at injection: its routing state (0 = +, 1 = -) holds the draw. One
// VC. On a torus its CDG is cyclic wherever a ring has 4 or more nodes; with bubble flow
// control in the rings it is deadlock-free (`--flow-control bubble`).
#pragma once

#include <string>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

/// Direction (+1/-1) of a minimal step from coordinate a to b in dimension d, 0 when equal;
/// + on a tie. Shared by the torus routings.
int minimal_direction(const Torus& topo, int dim, int a, int b);
/// Whether the way from coordinate c to e in direction dir (+1 / -1) round a ring crosses its
/// wrap-around link k-1 <-> 0: going + iff e lies below c, going - iff above.
inline bool wraps_ahead(int dir, int c, int e) {
  return dir > 0 ? e < c : e > c;
}

/// The same, but - on a tie when `minus_on_tie` (a packet that drew the - way round).
int ring_direction(const Torus& topo, int dim, int a, int b, bool minus_on_tie);

/// Half-ring ties of the torus dimension-order routings: always + (the packet state is then
/// unused), or drawn per packet (two initial choices, state 1 = - on every tie).
class RingTies {
 public:
  explicit RingTies(bool drawn) : drawn_(drawn) {}
  [[nodiscard]] bool drawn() const { return drawn_; }
  [[nodiscard]] int state_count() const { return drawn_ ? 2 : 1; }
  [[nodiscard]] int choices() const { return drawn_ ? 2 : 1; }
  [[nodiscard]] static bool minus(RouteState state) { return state == 1; }

 private:
  bool drawn_;
};

class DimensionOrderRouting final : public RoutingFunction {
 public:
  DimensionOrderRouting(const Torus& topo, bool bubble, bool drawn_ties = false)
      : topo_(topo), bubble_(bubble), ties_(drawn_ties && topo.wrap()) {}
  [[nodiscard]] std::string name() const override {
    return topo_.wrap() ? routing_name::kDor : routing_name::kXy;
  }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] bool needs_bubble() const override { return bubble_; }
  [[nodiscard]] int state_count() const override { return ties_.state_count(); }
  [[nodiscard]] int initial_choices() const override { return ties_.choices(); }
  [[nodiscard]] RouteState chosen_initial_state(NodeId, NodeId, int choice) const override {
    return static_cast<RouteState>(choice);
  }
  /// route() reads only the node, the destination and the packet state.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  /// The step depends on ring offsets only, and there is one VC.
  [[nodiscard]] Translation translation_invariance() const override {
    return Translation::kOptions;
  }
  [[nodiscard]] std::string description() const override {
    return std::string("dimension-order routing, shortest way round each ring (") +
           (ties_.drawn() ? "ties drawn per packet" : "+ on ties") + "), 1 VC";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const Torus& topo_;
  bool bubble_;
  RingTies ties_;
};

}  // namespace wormnet
