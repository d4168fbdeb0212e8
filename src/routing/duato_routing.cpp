#include "wormnet/routing/duato_routing.hpp"

#include "wormnet/core/error.hpp"
#include "wormnet/routing/minimal_adaptive_routing.hpp"

namespace wormnet {

DuatoRouting::DuatoRouting(const Topology& topo, std::unique_ptr<RoutingFunction> escape)
    : topo_(topo), escape_(std::move(escape)), escape_vcs_(escape_->vcs_required()) {
  if (escape_vcs_ + 1 > kMaxVcs) {
    throw InputError("--routing", "duato",
                     "needs " + std::to_string(escape_vcs_ + 1) + " VCs on " + topo.spec() +
                         " (escape routing " + escape_->name() + ": " +
                         std::to_string(escape_vcs_) + "), more than the " +
                         std::to_string(kMaxVcs) + " a channel may have");
  }
}

std::string DuatoRouting::description() const {
  return "Duato: fully adaptive minimal on VC " + std::to_string(escape_vcs_) +
         ", escape routing " + escape_->name() + " on VCs 0-" + std::to_string(escape_vcs_ - 1) +
         " (" + std::to_string(escape_vcs_ + 1) + " VCs)";
}

void DuatoRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const auto adaptive = static_cast<VcMask>(1U << escape_vcs_);
  const int first = out.size();
  PortId ports[kMaxPorts];
  const int n = minimal_ports(topo_, request.node, request.dest, ports);
  for (int i = 0; i < n; ++i) out.add(ports[i], adaptive, request.state);
  RouteRequest escape_request = request;
  if (request.in_port != kInjectionPort && request.in_vc >= escape_vcs_) escape_request.in_vc = 0;
  RouteOptions escape;
  escape_->route(escape_request, escape);
  for (const RouteOption& e : escape) {
    // An escape step joins the adaptive option of its port when the packet state after it is
    // the same: one option per port keeps the load analysis' even split over ports.
    int joined = -1;
    for (int i = first; i < first + n && joined < 0; ++i) {
      if (out[i].port == e.port && out[i].next_state == e.next_state) joined = i;
    }
    if (joined >= 0) {
      out.add_vcs(joined, e.vcs);
    } else {
      out.add(e.port, e.vcs, e.next_state);
    }
  }
}

}  // namespace wormnet
