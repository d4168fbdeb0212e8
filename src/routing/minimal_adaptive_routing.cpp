#include "wormnet/routing/minimal_adaptive_routing.hpp"

namespace wormnet {

int minimal_ports(const Topology& topo, NodeId node, NodeId dest, PortId* ports) {
  const int here = topo.distance(node, dest);
  int n = 0;
  for (int p = 0; p < topo.num_ports(); ++p) {
    const NodeId m = topo.neighbor(node, static_cast<PortId>(p));
    if (m.valid() && topo.distance(m, dest) == here - 1) ports[n++] = static_cast<PortId>(p);
  }
  return n;
}

void MinimalAdaptiveRouting::route(const RouteRequest& request, RouteOptions& out) const {
  PortId ports[kMaxPorts];
  const int n = minimal_ports(topo_, request.node, request.dest, ports);
  for (int i = 0; i < n; ++i) out.add(ports[i], 1);
}

}  // namespace wormnet
