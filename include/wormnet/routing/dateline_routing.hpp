// Dimension-order routing on a torus with two dateline VCs per channel (Dally & Seitz): a
// packet enters each dimension on VC 0 and moves to VC 1 when it crosses that ring's
// dateline (the wrap-around link between coordinates k-1 and 0); it stays on VC 1 until it
// leaves the dimension. Deadlock-free by the CDG alone. The VC is derived from the input
// channel (same dimension and VC 1, or this hop crosses the wrap), so no packet state.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

class DatelineRouting final : public RoutingFunction {
 public:
  explicit DatelineRouting(const Torus& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return "dor-dateline"; }
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override {
    return "dimension-order routing with dateline VCs (VC 1 after the wrap link), 2 VCs";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

 private:
  const Torus& topo_;
};

}  // namespace wormnet
