#include "wormnet/routing/destination_dateline_routing.hpp"

#include "wormnet/routing/dimension_order_routing.hpp"

namespace wormnet {

void DestinationDatelineRouting::route(const RouteRequest& request, RouteOptions& out) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int c = topo_.coord(request.node, d);
    const int target = topo_.coord(request.dest, d);
    const int dir = minimal_direction(topo_, d, c, target);
    if (dir == 0) continue;
    // Going + the way ahead passes k-1 -> 0 iff the target lies below c; going -, above.
    const bool wraps_ahead = topo_.is_ring(d) && (dir > 0 ? target < c : target > c);
    out.add(Topology::port_of(d, dir), wraps_ahead ? 1 : 2);
    return;
  }
}

}  // namespace wormnet
