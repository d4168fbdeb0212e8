#include "wormnet/routing/fault_avoiding_routing.hpp"

namespace wormnet {

FaultAvoidingRouting::FaultAvoidingRouting(std::unique_ptr<RoutingFunction> inner,
                                           const FaultSet& faults)
    : inner_(std::move(inner)), faults_(faults) {}

void FaultAvoidingRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const int first = out.size();
  inner_->route(request, out);
  const unsigned failed = faults_.failed_ports(request.node);
  if (failed == 0) return;
  // A port outside the mask (an illegal step) is left for the analyses to name.
  const auto is_failed = [&](const RouteOption& o) {
    return o.port < kMaxPorts && ((failed >> o.port) & 1U) != 0;
  };
  int working = 0;
  for (int i = first; i < out.size(); ++i) working += is_failed(out[i]) ? 0 : 1;
  // Nothing to drop, or nothing would be left: the options as the routing gave them.
  if (working == 0 || working == out.size() - first) return;
  const RouteOptions all = out;
  out.clear();
  for (int i = 0; i < all.size(); ++i) {
    if (i < first || !is_failed(all[i])) out.add(all[i].port, all[i].vcs, all[i].next_state);
  }
}

}  // namespace wormnet
