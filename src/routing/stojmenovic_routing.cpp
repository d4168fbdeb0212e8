#include "wormnet/routing/stojmenovic_routing.hpp"

#include <cstdlib>

#include "wormnet/routing/honeycomb_offsets.hpp"

namespace wormnet {

void StojmenovicRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const HoneycombOffsets o = honeycomb_offsets(topo_, request.node, request.dest);
  int best = -1;
  for (int i = 0; i < 3; ++i) {
    if (!o.reduces(i) || !topo_.has_port(request.node, honeycomb_port(i, o.black))) continue;
    if (best < 0 || std::abs(o.d[static_cast<std::size_t>(i)]) >
                        std::abs(o.d[static_cast<std::size_t>(best)])) {
      best = i;
    }
  }
  if (best >= 0) out.add(honeycomb_port(best, o.black), 1);
}

}  // namespace wormnet
