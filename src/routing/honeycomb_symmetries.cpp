#include "wormnet/routing/honeycomb_symmetries.hpp"

#include <algorithm>

namespace wormnet {

std::vector<HoneycombMotion> honeycomb_motions() {
  std::vector<HoneycombMotion> out;
  for (int invert = 0; invert < 2; ++invert) {
    std::array<int, 3> axis{0, 1, 2};
    do {
      out.push_back(HoneycombMotion{axis, invert == 1});
    } while (std::next_permutation(axis.begin(), axis.end()));
  }
  return out;
}

NetworkSymmetry honeycomb_symmetry(const HoneycombMesh& h, const HoneycombMotion& motion,
                                   bool swap_xy_vcs) {
  NetworkSymmetry g;
  g.node.resize(h.num_nodes());
  for (std::uint32_t n = 0; n < h.num_nodes(); ++n) {
    std::array<int, 3> c{};
    for (int i = 0; i < 3; ++i) {
      const int v = h.coordinate(NodeId(n), i);
      c[static_cast<std::size_t>(motion.axis[static_cast<std::size_t>(i)])] =
          motion.invert ? 1 - v : v;
    }
    g.node[n] = h.node_at(c[0], c[1], c[2]);
  }
  for (int p = 0; p < kMaxPorts; ++p) {
    std::array<VcId, kMaxVcs>& vc = g.vc[static_cast<std::size_t>(p)];
    for (int v = 0; v < kMaxVcs; ++v) vc[static_cast<std::size_t>(v)] = static_cast<VcId>(v);
    if (p >= h.num_ports()) {
      g.port[static_cast<std::size_t>(p)] = static_cast<PortId>(p);
      continue;
    }
    const int dim = Topology::port_dim(static_cast<PortId>(p));
    const int sign = Topology::port_sign(static_cast<PortId>(p));
    g.port[static_cast<std::size_t>(p)] =
        Topology::port_of(motion.axis[static_cast<std::size_t>(dim)], motion.invert ? -sign : sign);
    if (swap_xy_vcs && dim != 2) std::swap(vc[0], vc[1]);
  }
  return g;
}

}  // namespace wormnet
