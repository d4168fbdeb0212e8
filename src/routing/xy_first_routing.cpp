#include "wormnet/routing/xy_first_routing.hpp"

#include "wormnet/routing/honeycomb_offsets.hpp"

namespace wormnet {

void XyFirstRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const HoneycombOffsets o = honeycomb_offsets(topo_, request.node, request.dest);
  constexpr int kX = 0;
  constexpr int kY = 1;
  constexpr int kZ = 2;
  if (o.d[kX] < 0 || o.d[kY] > 0) {
    // Phase A: the X-/Y+ zig-zag; white nodes own X-, black nodes own Y+.
    const PortId zig = o.black ? Topology::port_of(kY, 1) : Topology::port_of(kX, -1);
    if (topo_.has_port(request.node, zig)) {
      out.add(zig, 1);
    } else {
      // Bottom edge: the zig-zag port is missing, slide along Z (Z+ at black, Z- at white).
      out.add(honeycomb_port(kZ, o.black), 1);
    }
    return;
  }
  // Phase B: minimal steps with X+, Y-, Z+ or Z- (X- and Y+ are no longer needed).
  for (int i = 0; i < 3; ++i) {
    const PortId p = honeycomb_port(i, o.black);
    if (o.reduces(i) && topo_.has_port(request.node, p)) out.add(p, 1);
  }
}

}  // namespace wormnet
