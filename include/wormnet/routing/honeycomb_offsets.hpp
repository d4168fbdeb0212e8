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
  const int x = h.coordinate(node, 0);
  const int y = h.coordinate(node, 1);
  const int z = h.coordinate(node, 2);
  HoneycombOffsets o;
  o.d = {h.coordinate(dest, 0) - x, h.coordinate(dest, 1) - y, h.coordinate(dest, 2) - z};
  o.black = x + y + z == 1;
  return o;
}

/// Port for coordinate i (0 = X, 1 = Y, 2 = Z) in the node's link direction.
inline PortId honeycomb_port(int i, bool black) {
  return Topology::port_of(i, black ? 1 : -1);
}

}  // namespace wormnet
