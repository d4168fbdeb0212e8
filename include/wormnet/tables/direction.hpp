// Angara directions in their routing order +X +Y +Z +K ... -X -Y -Z -K ... (Mukosey et al.,
// "Optimized Graph Based Routing Algorithm for the Angara Interconnect"). A direction is
// its index in that order: o < n is the + direction of dimension o, o >= n the - direction
// of dimension o - n. Ports are the topology's: 2d is + of dimension d, 2d + 1 is -.
#pragma once

#include <string>

#include "wormnet/topology/topology.hpp"

namespace wormnet::tables {

/// Index in the Angara direction order (0 .. 2n-1).
using Direction = int;

constexpr bool is_plus(Direction o, int n) {
  return o < n;
}
constexpr int dim_of(Direction o, int n) {
  return o < n ? o : o - n;
}
/// The other direction of the same dimension.
constexpr Direction opposite(Direction o, int n) {
  return o < n ? o + n : o - n;
}
constexpr PortId port_of(Direction o, int n) {
  return static_cast<PortId>(o < n ? 2 * o : 2 * (o - n) + 1);
}
constexpr Direction direction_of(PortId p, int n) {
  return (p & 1U) ? n + p / 2 : p / 2;
}
/// "+X", "-K", ...
inline std::string direction_label(Direction o, int n) {
  return std::string(is_plus(o, n) ? "+" : "-") + Topology::dim_name(dim_of(o, n));
}

}  // namespace wormnet::tables
