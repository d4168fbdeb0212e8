#include "wormnet/routing/dateline_routing.hpp"

namespace wormnet {

void DatelineRouting::route(const RouteRequest& request, RouteOptions& out) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int c = topo_.coord(request.node, d);
    const int dir =
        ring_direction(topo_, d, c, topo_.coord(request.dest, d), RingTies::minus(request.state));
    if (dir == 0) continue;
    const bool same_dim =
        request.in_port != kInjectionPort && Topology::port_dim(request.in_port) == d;
    const bool wraps =
        topo_.is_ring(d) && ((dir > 0 && c == topo_.size(d) - 1) || (dir < 0 && c == 0));
    const bool vc1 = wraps || (same_dim && request.in_vc == 1);
    out.add(Topology::port_of(d, dir), vc1 ? 2 : 1, request.state);
    return;
  }
}

}  // namespace wormnet
