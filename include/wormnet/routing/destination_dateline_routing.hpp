// Dimension-order routing on a torus with two dateline VCs chosen from the destination
// rather than from the input channel: in each ring a hop takes VC 0 while the rest of the way
// in that dimension still includes the wrap link (k-1 -> 0 going +, 0 -> k-1 going -), this
// hop included, and VC 1 once it does not (also in dimensions without a ring). VC 0
// dependencies end at the wrap link and VC 1 never uses it, so each ring is acyclic; the
// dimension order orders the rings (Dally & Seitz). Being a function of (node, destination)
// alone, it is a valid escape sub-function for Duato's adaptive routing: a packet that
// arrives on an adaptive VC finds the same escape channel as one that came by the escape
// network (DuatoRouting). `dor-dateline` picks the VC from the input channel instead.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

class DestinationDatelineRouting final : public RoutingFunction {
 public:
  explicit DestinationDatelineRouting(const Torus& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kDorDatelineDest; }
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override {
    return "dimension-order routing with dateline VCs chosen from the destination (VC 0 "
           "while the way ahead in the ring includes the wrap link), 2 VCs";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const Torus& topo_;
};

}  // namespace wormnet
