#include "wormnet/routing/double_xy_turn_routing.hpp"

#include "wormnet/routing/honeycomb_offsets.hpp"
#include "wormnet/routing/honeycomb_symmetries.hpp"

namespace wormnet {

namespace {

constexpr int kX = 0;
constexpr int kY = 1;
constexpr int kZ = 2;
constexpr VcMask kVc0 = 1;
constexpr VcMask kVc1 = 2;

}  // namespace

int DoubleXyTurnRouting::arrival_network(PortId in_port, VcId in_vc) {
  if (in_port == kInjectionPort) return 0;
  // in_port is the port at this node; the packet travelled in the reverse direction.
  const PortId travelled = Topology::reverse_port(in_port);
  if (Topology::port_dim(travelled) == kZ) return Topology::port_sign(travelled) > 0 ? 0 : 1;
  return in_vc == 0 ? 0 : 1;
}

int DoubleXyTurnRouting::route_class(int dx, int dy, int dz) {
  if (dz < 0 && dx > 0 && dy <= 0) return 1;
  if (dz < 0 && dx >= 0 && dy > 0) return 2;
  if (dz <= 0 && dx < 0 && dy > 0) return 3;
  if (dz > 0 && dx < 0 && dy >= 0) return 4;
  if (dz > 0 && dx <= 0 && dy < 0) return 5;  // printed "Y > 0": see the header
  if (dz >= 0 && dx > 0 && dy < 0) return 6;
  return 0;
}

RouteState DoubleXyTurnRouting::initial_state(NodeId src, NodeId dst) const {
  const int c = route_class(topo_.coordinate(dst, 0) - topo_.coordinate(src, 0),
                            topo_.coordinate(dst, 1) - topo_.coordinate(src, 1),
                            topo_.coordinate(dst, 2) - topo_.coordinate(src, 2));
  return c == 2 ? kNet1 : (c == 5 ? kNet0 : kOpen);
}

int DoubleXyTurnRouting::destination_class(NodeId node, NodeId dest) const {
  const HoneycombOffsets o = honeycomb_offsets(topo_, node, dest);
  return (o.reduces(kX) ? 1 : 0) | (o.reduces(kY) ? 2 : 0) | (o.reduces(kZ) ? 4 : 0) |
         (o.d[kZ] <= 0 ? 8 : 0);
}

void DoubleXyTurnRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const HoneycombOffsets o = honeycomb_offsets(topo_, request.node, request.dest);
  // Network 0 may still be left for network 1 only when no Z+ hop remains.
  const int network = request.state == kOpen   ? arrival_network(request.in_port, request.in_vc)
                      : request.state == kNet0 ? 0
                                               : 1;
  const bool may_switch = request.state == kOpen && network == 0 && o.d[kZ] <= 0;
  for (int i = kX; i <= kZ; ++i) {
    const PortId p = honeycomb_port(i, o.black);
    if (!o.reduces(i) || !topo_.has_port(request.node, p)) continue;
    if (i == kZ) {
      // One Z channel (VC 0): Z+ belongs to network 0, Z- to network 1.
      if (o.black ? network == 0 : (network == 1 || may_switch)) out.add(p, kVc0, request.state);
    } else {
      const VcMask own = network == 0 ? kVc0 : kVc1;
      out.add(p, may_switch ? static_cast<VcMask>(kVc0 | kVc1) : own, request.state);
    }
  }
}

std::vector<NetworkSymmetry> DoubleXyTurnRouting::symmetries(ArrivalScope scope) const {
  // The ports: a packet takes every minimal step (one option per port, whatever the network:
  // a Z+ step is left only to packets in network 1, which never have dZ > 0), so the loads
  // are those of minimal adaptive routing, symmetric under all 12 motions. The VCs are not:
  // the classes and the one-way switch from network 0 to network 1 tell the axes and the
  // orientation apart.
  std::vector<NetworkSymmetry> out;
  if (scope == ArrivalScope::kPorts) {
    for (const HoneycombMotion& m : honeycomb_motions())
      out.push_back(honeycomb_symmetry(topo_, m));
  }
  return out;
}

}  // namespace wormnet
