// Duato's fully adaptive routing with escape channels (Duato, IEEE TPDS 4(12) 1993 and 6(10)
// 1995; Dally & Towles, Principles and Practices of Interconnection Networks, sec. 14.3).
//
// The VCs of every channel are split into escape VCs 0 .. E-1, where a deadlock-free
// sub-function (the escape routing) runs, and one adaptive VC E on which any minimal step is
// allowed. The options list the adaptive steps first (the router prefers them) and the
// escape steps after them. It is deadlock-free when the escape sub-function is connected
// from every state a packet can reach and its extended channel dependency graph (direct
// dependencies, and indirect ones through adaptive channels) is acyclic; `verify` checks
// exactly that (verify/extended_dependency_graph.hpp), not the plain CDG, which is cyclic.
//
// The escape routing sees a packet that arrives on the adaptive VC as arriving on VC 0 of
// the same port; the packet keeps the escape routing's state across adaptive hops. Escape
// routings that depend only on (node, destination, state) - dor-dateline-dest, double-xy,
// double-xy-dateline, xy - thus offer the same escape channel whatever way the packet came.
// The engine allocates the adaptive VC only when its downstream buffer is empty (a queue
// never holds two packets), which Duato's theory assumes.
#pragma once

#include <memory>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

class DuatoRouting final : public RoutingFunction {
 public:
  DuatoRouting(const Topology& topo, std::unique_ptr<RoutingFunction> escape);
  [[nodiscard]] std::string name() const override { return routing_name::kDuato; }
  [[nodiscard]] int vcs_required() const override { return escape_vcs_ + 1; }
  [[nodiscard]] int state_count() const override { return escape_->state_count(); }
  [[nodiscard]] RouteState initial_state(NodeId src, NodeId dst) const override {
    return escape_->initial_state(src, dst);
  }
  [[nodiscard]] int initial_choices() const override { return escape_->initial_choices(); }
  [[nodiscard]] RouteState chosen_initial_state(NodeId src, NodeId dst, int choice) const override {
    return escape_->chosen_initial_state(src, dst, choice);
  }
  [[nodiscard]] bool source_dependent() const override { return escape_->source_dependent(); }
  [[nodiscard]] bool minimal() const override { return escape_->minimal(); }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] VcMask escape_vcs() const override { return all_vcs(escape_vcs_); }
  void route(const RouteRequest& request, RouteOptions& out) const override;
  /// The escape routing's: the adaptive steps (every minimal port, one VC) move along with any
  /// translation, and the escape steps as the escape routing declares.
  [[nodiscard]] Translation translation_invariance() const override {
    return escape_->translation_invariance();
  }
  [[nodiscard]] int translation_step(ArrivalScope scope, int k) const override {
    return escape_->translation_step(scope, k);
  }

 private:
  const Topology& topo_;
  std::unique_ptr<RoutingFunction> escape_;
  int escape_vcs_;
};

}  // namespace wormnet
