#include "wormnet/routing/minimal_adaptive_routing.hpp"

#include "wormnet/routing/honeycomb_symmetries.hpp"
#include "wormnet/routing/honeycomb_torus_ways.hpp"

namespace wormnet {

int minimal_ports(const Topology& topo, NodeId node, NodeId dest, PortId* ports) {
  if (topo.kind() == TopologyKind::kHoneycombTorus) {
    // One image search instead of one distance per neighbour: a port is minimal when it
    // shortens the way toward a nearest image (same ports, same order).
    const auto& h = static_cast<const HoneycombTorus&>(topo);
    HoneycombTorus::Images images;
    h.nearest_images(node, dest, images);
    const bool black = h.black(node);
    int n = 0;
    for (int k = 0; k < 3; ++k) {
      for (const HoneycombTorus::Run& run : images.runs()) {
        // Coordinate k is linear along a run: some image of it shortens iff an end does.
        if (HoneycombTorusWays::shortens(run.first, k, black) ||
            HoneycombTorusWays::shortens(run.last(), k, black)) {
          ports[n++] = Topology::port_of(k, black ? 1 : -1);
          break;
        }
      }
    }
    return n;
  }
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

std::vector<NetworkSymmetry> MinimalAdaptiveRouting::symmetries(ArrivalScope /*scope*/) const {
  // Every minimal step, evenly: any automorphism keeps that. Declared on H_t (its 12).
  std::vector<NetworkSymmetry> out;
  if (topo_.kind() == TopologyKind::kHoneycomb) {
    const auto& h = static_cast<const HoneycombMesh&>(topo_);
    for (const HoneycombMotion& m : honeycomb_motions()) out.push_back(honeycomb_symmetry(h, m));
  }
  return out;
}

}  // namespace wormnet
