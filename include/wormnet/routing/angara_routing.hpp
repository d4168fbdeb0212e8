// Angara's deterministic-rule routing on an n-dimensional torus (Mukosey, Semenov, Simonov et
// al.): directions are used in the order +X +Y +Z +K ... -X -Y -Z -K (direction order), and a
// route never uses both the + and the - direction of one dimension (direction-bit rule).
// Routes are minimal; where a ring offset is exactly k/2 both directions are minimal and the
// route may do that dimension in the + phase or in the - phase, so the function is adaptive
// over those choices (the "path diversity" the table generators choose from). One VC: inside
// a ring, deadlock freedom comes from bubble flow control, not from the CDG. FS/LS relaxation
// belongs to the routing tables. The last direction used is the reverse of the input port,
// so no packet state is needed.
#pragma once

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

class AngaraRouting final : public RoutingFunction {
 public:
  explicit AngaraRouting(const Torus& topo) : topo_(topo) {}
  [[nodiscard]] std::string name() const override { return routing_name::kAngara; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] bool needs_bubble() const override { return true; }
  /// route() reads the input port (the last direction used), not the VC (there is one).
  [[nodiscard]] int arrival_class(ArrivalScope, PortId in_port, VcId) const override {
    return in_port == kInjectionPort ? 0 : 1 + in_port;
  }
  /// The steps depend on ring offsets and the input port only, and there is one VC.
  [[nodiscard]] Translation translation_invariance() const override {
    return Translation::kOptions;
  }
  [[nodiscard]] std::string description() const override {
    return "Angara direction order +X+Y+Z+K-X-Y-Z-K with the direction-bit rule, minimal, "
           "1 VC, bubble flow control in rings";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

  /// Position of a direction (port) in the order +X +Y ... -X -Y ...
  [[nodiscard]] int order(PortId p) const {
    return Topology::port_sign(p) > 0 ? Topology::port_dim(p)
                                      : topo_.num_dims() + Topology::port_dim(p);
  }

 private:
  const Torus& topo_;
};

}  // namespace wormnet
