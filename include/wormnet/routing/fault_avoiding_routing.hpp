// Any routing on a network with faults (topology/fault_set.hpp), in one place: where the
// routing offers several steps and some of them leave by a failed channel, those are dropped
// and the packet takes the others, as an adaptive router would; where every step it offers
// is failed (a deterministic routing's one step, say), they are kept, so that the delivery
// check names the pair and the failed channel and the run is refused (docs/faults.md). The
// analyses then judge what is left: the delivery check that every working pair still
// arrives, the channel dependency graph (a sub-function of a deadlock-free routing is
// deadlock-free), and for Duato's routing its condition on the faulty network, which fails
// when a dropped step was the escape one.
//
// The filter reads only the node, so the routing's arrival and destination classes still
// hold; its translations and symmetries do not (faults break them), so none are claimed.
#pragma once

#include <memory>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"

namespace wormnet {

class FaultAvoidingRouting final : public RoutingFunction {
 public:
  /// `faults` (of the routing's topology) must outlive this routing.
  FaultAvoidingRouting(std::unique_ptr<RoutingFunction> inner, const FaultSet& faults);

  [[nodiscard]] std::string name() const override { return inner_->name(); }
  [[nodiscard]] int vcs_required() const override { return inner_->vcs_required(); }
  [[nodiscard]] int state_count() const override { return inner_->state_count(); }
  [[nodiscard]] RouteState initial_state(NodeId src, NodeId dst) const override {
    return inner_->initial_state(src, dst);
  }
  [[nodiscard]] int initial_choices() const override { return inner_->initial_choices(); }
  [[nodiscard]] RouteState chosen_initial_state(NodeId src, NodeId dst, int choice) const override {
    return inner_->chosen_initial_state(src, dst, choice);
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;
  [[nodiscard]] bool source_dependent() const override { return inner_->source_dependent(); }
  [[nodiscard]] bool claims(NodeId src, NodeId dst) const override {
    return inner_->claims(src, dst);
  }
  [[nodiscard]] bool needs_bubble() const override { return inner_->needs_bubble(); }
  [[nodiscard]] VcMask escape_vcs() const override { return inner_->escape_vcs(); }
  [[nodiscard]] bool minimal() const override { return inner_->minimal(); }
  [[nodiscard]] std::string description() const override { return inner_->description(); }
  [[nodiscard]] int arrival_class(ArrivalScope scope, PortId in_port, VcId in_vc) const override {
    return inner_->arrival_class(scope, in_port, in_vc);
  }
  [[nodiscard]] int destination_classes() const override { return inner_->destination_classes(); }
  [[nodiscard]] int destination_class(NodeId node, NodeId dest) const override {
    return inner_->destination_class(node, dest);
  }
  // translation_invariance() and symmetries(): the defaults (none).

  [[nodiscard]] const RoutingFunction& inner() const { return *inner_; }

 private:
  std::unique_ptr<RoutingFunction> inner_;
  const FaultSet& faults_;
};

}  // namespace wormnet
