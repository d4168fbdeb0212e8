#include "wormnet/routing/xy_first_routing.hpp"

#include "wormnet/routing/honeycomb_offsets.hpp"
#include "wormnet/routing/honeycomb_symmetries.hpp"

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

std::vector<NetworkSymmetry> XyFirstRouting::symmetries(ArrivalScope /*scope*/) const {
  // Phase A (dX < 0 or dY > 0, the X-/Y+ zig-zag) is kept by swapping X and Y and inverting:
  // dX < 0 becomes dY > 0 and the other way round, X- at white nodes becomes Y+ at black ones.
  std::vector<NetworkSymmetry> out;
  for (const HoneycombMotion& m : honeycomb_motions()) {
    const bool identity = m.axis == std::array<int, 3>{0, 1, 2} && !m.invert;
    const bool mirror = m.axis == std::array<int, 3>{1, 0, 2} && m.invert;
    if (identity || mirror) out.push_back(honeycomb_symmetry(topo_, m));
  }
  return out;
}

}  // namespace wormnet
