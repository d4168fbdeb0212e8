#include "wormnet/routing/destination_dateline_routing.hpp"

#include "wormnet/routing/dimension_order_routing.hpp"

namespace wormnet {

void DestinationDatelineRouting::route(const RouteRequest& request, RouteOptions& out) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int c = topo_.coord(request.node, d);
    const int target = topo_.coord(request.dest, d);
    const int dir = minimal_direction(topo_, d, c, target);
    if (dir == 0) continue;
    const bool wraps = topo_.is_ring(d) && wraps_ahead(dir, c, target);
    out.add(Topology::port_of(d, dir), wraps ? 1 : 2);
    return;
  }
}

}  // namespace wormnet
