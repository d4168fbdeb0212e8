// Torus dimension-order routings whose VC class is chosen when a packet enters a ring and kept
// for the whole ring traversal (BookSim's dim_order_torus and Cray's balanced partition), 2 VCs.
// The direction is the minimal one; a half-ring tie goes + or, with drawn ties, the way the
// packet drew (state 1 = -). Class c travels on VC c. Three policies:
//
//   dor-ring-class  class 1 if the route round the ring crosses the wrap link (between k-1 and
//                   0), else class 0, in both directions.
//   dor-booksim     BookSim's fixed dateline: in the + direction as dor-ring-class; in the -
//                   direction mirrored, class 1 if the route does NOT cross the wrap link and
//                   class 0 if it does (BookSim tests dest < cur for both directions).
//   dor-balanced    Cray's partition with two datelines, the wrap link and the middle link
//                   (between m = (k-1)/2 and m+1): class 1 if the route crosses the wrap link,
//                   class 0 if it crosses the middle link, either class otherwise, drawn per
//                   packet as BookSim does: the packet's state bit (so this routing always has
//                   two initial choices); with drawn ties the same bit also picks the tie's
//                   direction, which never clashes, since a half-ring route always crosses
//                   exactly one of the two datelines.
//
// Deadlock freedom (the verifier proves it per topology): dimension order makes the
// dimensions acyclic, and each ring direction splits into two classes that each leave one
// link of the ring unused or one node never passed through, so no class can close a cycle
// round its ring. Minimal routes cover at most floor(k/2) links. dor-ring-class: class 0 never
// uses the wrap link; a class-1 route contains the wrap link, so within floor(k/2) links of it
// on both sides, and never passes through the node opposite the wrap (k/2 for even k; for odd
// k the links beside it are out of reach), so the dependency chain breaks there. dor-booksim:
// in the + direction as above; in the - direction class 1 never uses the wrap link and class 0
// is the set of routes through it, broken opposite the wrap as above. dor-balanced: class 0
// never uses the wrap link and class 1 never uses the middle link; no minimal route crosses
// both, since they are more than floor(k/2) - 1 links apart on both sides.
#pragma once

#include <cstdint>
#include <string>

#include "wormnet/routing/dimension_order_routing.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

enum class RingClassPolicy : std::uint8_t { kWrap, kBookSim, kBalanced };

class RingClassRouting final : public RoutingFunction {
 public:
  RingClassRouting(const Torus& topo, RingClassPolicy policy, bool drawn_ties = false)
      : topo_(topo), policy_(policy), ties_(drawn_ties) {}
  [[nodiscard]] std::string name() const override;
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] int state_count() const override { return draws() ? 2 : 1; }
  [[nodiscard]] int initial_choices() const override { return draws() ? 2 : 1; }
  [[nodiscard]] RouteState chosen_initial_state(NodeId, NodeId, int choice) const override {
    return static_cast<RouteState>(choice);
  }
  [[nodiscard]] std::string description() const override;
  void route(const RouteRequest& request, RouteOptions& out) const override;
  /// The ports depend on the node, the destination and the state only; the VC also on the
  /// arrival, but only through its dimension (inside a ring the class is kept) and its VC.
  [[nodiscard]] int arrival_class(ArrivalScope scope, PortId in_port, VcId in_vc) const override {
    if (scope == ArrivalScope::kPorts || in_port == kInjectionPort) return 0;
    return 1 + Topology::port_dim(in_port) * kMaxVcs + in_vc;
  }
  /// The ports follow the ring offsets; the classes depend on where the datelines are.
  [[nodiscard]] Translation translation_invariance() const override { return Translation::kPorts; }

  /// VC class (mask: bit 0 = class 0, bit 1 = class 1) of a route entering the ring of
  /// dimension `dim` at coordinate c, bound for coordinate e, going `dir` (+1/-1), for a
  /// packet in routing state `state` (dor-balanced's free class is the state bit).
  [[nodiscard]] VcMask entry_classes(int dim, int c, int e, int dir, RouteState state) const;

 private:
  /// True when a packet draws a bit: for its ties, or for dor-balanced's free class.
  [[nodiscard]] bool draws() const {
    return ties_.drawn() || policy_ == RingClassPolicy::kBalanced;
  }

  const Torus& topo_;
  RingClassPolicy policy_;
  RingTies ties_;
};

}  // namespace wormnet
