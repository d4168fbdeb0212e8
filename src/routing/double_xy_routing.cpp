#include "wormnet/routing/double_xy_routing.hpp"

#include "wormnet/routing/honeycomb_offsets.hpp"
#include "wormnet/routing/honeycomb_symmetries.hpp"

namespace wormnet {

RouteState DoubleXyRouting::initial_state(NodeId src, NodeId dst) const {
  const int dz = topo_.coordinate(dst, 2) - topo_.coordinate(src, 2);
  return dz > 0 ? kNet0 : (dz < 0 ? kNet1 : kEither);
}

void DoubleXyRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const HoneycombOffsets o = honeycomb_offsets(topo_, request.node, request.dest);
  for (int i = 0; i < 3; ++i) {
    const PortId p = honeycomb_port(i, o.black);
    if (!o.reduces(i) || !topo_.has_port(request.node, p)) continue;
    if (i == 2) {
      // Z has one channel; a minimal path of network 0 only goes Z+, of network 1 only Z-.
      out.add(p, 1, request.state == kEither ? (o.black ? kNet0 : kNet1) : request.state);
    } else if (request.state == kEither) {
      out.add(p, 1, kNet0);  // X0/Y0
      out.add(p, 2, kNet1);  // X1/Y1
    } else {
      out.add(p, static_cast<VcMask>(1U << request.state), request.state);
    }
  }
}

std::vector<NetworkSymmetry> DoubleXyRouting::symmetries(ArrivalScope /*scope*/) const {
  // Z picks the network, so only motions that keep the Z axis: swapping X and Y (both carry
  // the same two VCs), and the inversion, which turns dZ around and so trades the networks
  // (VC 0 and VC 1 on X and Y; the Z channel is VC 0 in both).
  std::vector<NetworkSymmetry> out;
  for (const HoneycombMotion& m : honeycomb_motions()) {
    if (m.axis[2] == 2) out.push_back(honeycomb_symmetry(topo_, m, m.invert));
  }
  return out;
}

}  // namespace wormnet
