#include "wormnet/routing/table_routing.hpp"

#include <algorithm>

namespace wormnet {

TableRouting::TableRouting(std::shared_ptr<const RouteTable> table) : table_(std::move(table)) {
  const Torus& topo = table_->topology();
  const std::uint32_t n = topo.num_nodes();
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t d = 0; d < n; ++d) {
      const ExpandedRoute plan = table_->plan(NodeId(s), NodeId(d));
      if (!plan.ok) continue;
      max_hops_ = std::max(max_hops_, plan.hops);
      minimal_ = minimal_ && plan.hops == topo.distance(NodeId(s), NodeId(d));
    }
  }
}

void TableRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const ExpandedRoute plan = table_->plan(request.source, request.dest);
  if (!plan.ok || static_cast<int>(request.state) >= plan.hops) return;
  out.add(plan.port_at(static_cast<int>(request.state)), 1, request.state + 1);
}

}  // namespace wormnet
