// Coordinate offsets on the honeycomb: the quantities every H_t routing of Zhang & Yang
// (and Stojmenovic's) is written in.
#pragma once

#include <array>

#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

/// Offsets dest - current per coordinate (x, y, z), the node colour and its link sign.
struct HoneycombOffsets {
  std::array<int, 3> d{};  ///< Xoffset, Yoffset, Zoffset of the paper
  bool black = true;       ///< black = sum 1 = links in + directions
  [[nodiscard]] int sign() const { return black ? 1 : -1; }
  /// True when moving along coordinate i in this node's link direction reduces |offset|.
  [[nodiscard]] bool reduces(int i) const { return d[static_cast<std::size_t>(i)] * sign() > 0; }
};

inline HoneycombOffsets honeycomb_offsets(const HoneycombMesh& h, NodeId node, NodeId dest) {
  const Coord c = h.coords(node);
  const Coord e = h.coords(dest);
  HoneycombOffsets o;
  o.d = {e[0] - c[0], e[1] - c[1], e[2] - c[2]};
  o.black = c[0] + c[1] + c[2] == 1;
  return o;
}

/// Port for coordinate i (0 = X, 1 = Y, 2 = Z) in the node's link direction.
inline PortId honeycomb_port(int i, bool black) {
  return Topology::port_of(i, black ? 1 : -1);
}

}  // namespace wormnet
