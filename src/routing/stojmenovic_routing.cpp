#include "wormnet/routing/stojmenovic_routing.hpp"

#include <cstdlib>

#include "wormnet/routing/honeycomb_offsets.hpp"
#include "wormnet/routing/honeycomb_symmetries.hpp"

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

std::vector<NetworkSymmetry> StojmenovicRouting::symmetries(ArrivalScope /*scope*/) const {
  // The largest offset wins, ties to the lower coordinate: the inversion keeps both (it
  // turns every offset and every link around together), a permutation of the coordinates
  // would reorder the ties.
  std::vector<NetworkSymmetry> out;
  for (const HoneycombMotion& m : honeycomb_motions()) {
    if (m.axis == std::array<int, 3>{0, 1, 2}) out.push_back(honeycomb_symmetry(topo_, m));
  }
  return out;
}

}  // namespace wormnet
