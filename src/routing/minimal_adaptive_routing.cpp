#include "wormnet/routing/minimal_adaptive_routing.hpp"

#include "wormnet/routing/honeycomb_offsets.hpp"

namespace wormnet {

void MinimalAdaptiveRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const HoneycombOffsets o = honeycomb_offsets(topo_, request.node, request.dest);
  for (int i = 0; i < 3; ++i) {
    const PortId p = honeycomb_port(i, o.black);
    if (o.reduces(i) && topo_.has_port(request.node, p)) out.add(p, 1);
  }
}

}  // namespace wormnet
