#include "wormnet/routing/west_first_routing.hpp"

namespace wormnet {

void WestFirstRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const int dx = topo_.coord(request.dest, 0) - topo_.coord(request.node, 0);
  const int dy = topo_.coord(request.dest, 1) - topo_.coord(request.node, 1);
  if (dx < 0) {
    out.add(Topology::port_of(0, -1), 1);
    return;
  }
  if (dx > 0) out.add(Topology::port_of(0, 1), 1);
  if (dy > 0) out.add(Topology::port_of(1, 1), 1);
  if (dy < 0) out.add(Topology::port_of(1, -1), 1);
}

}  // namespace wormnet
