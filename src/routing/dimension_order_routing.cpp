#include "wormnet/routing/dimension_order_routing.hpp"

namespace wormnet {

int ring_direction(const Torus& topo, int dim, int a, int b, bool minus_on_tie) {
  if (a == b) return 0;
  if (!topo.is_ring(dim)) return b > a ? 1 : -1;
  const int fwd = topo.hops_in_direction(dim, a, b, 1);
  const int bwd = topo.size(dim) - fwd;
  if (fwd == bwd) return minus_on_tie ? -1 : 1;
  return fwd < bwd ? 1 : -1;
}

int minimal_direction(const Torus& topo, int dim, int a, int b) {
  return ring_direction(topo, dim, a, b, false);
}

void DimensionOrderRouting::route(const RouteRequest& request, RouteOptions& out) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int dir = ring_direction(topo_, d, topo_.coord(request.node, d),
                                   topo_.coord(request.dest, d), RingTies::minus(request.state));
    if (dir != 0) {
      out.add(Topology::port_of(d, dir), 1, request.state);
      return;
    }
  }
}

}  // namespace wormnet
