// A deterministic routing table for an Angara torus: one route word per ordered pair
// (source, destination), as the Angara router keeps one routing entry per destination and
// writes it into the packet's header flit (Mukosey, Semenov, Simonov et al.,
// "Optimized Graph Based Routing Algorithm for the Angara Interconnect").
//
// A route under the Angara rules is: an optional first step in a + direction (FS), then
// the direction-order part (+X +Y ... -X -Y ..., one sign per dimension: the direction-bit
// rule), then an optional last step in a - direction (LS). Given the two end nodes, the
// direction-order part is fixed by its sign per dimension, so 16 bits describe any such
// route (see RouteWord). The table only stores and expands routes; which routes obey the
// rules and the routing graph is checked by the tables layer (wormnet/tables).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/topology/torus.hpp"

namespace wormnet {

/// A route in 16 bits. bits 0-2: FS dimension + 1 (0 = no first step); bits 3-5: LS
/// dimension + 1 (0 = no last step); bits 6-11: bit 6 + i set when the direction-order part
/// goes in the - direction of dimension i (clear: + direction, or no steps). The word 0 is
/// the direction-order route with every sign +; kNoRoute marks a missing pair.
using RouteWord = std::uint16_t;
inline constexpr RouteWord kNoRoute = 0xFFFF;

/// A route word taken apart.
struct AngaraRoute {
  int first_step_dim = -1;      ///< FS: one step in + of this dimension first; -1 = none
  int last_step_dim = -1;       ///< LS: one step in - of this dimension last; -1 = none
  std::uint8_t minus_dims = 0;  ///< bit i: the direction-order part goes - in dimension i

  [[nodiscard]] static AngaraRoute decode(RouteWord w);
  /// Packs the fields; dimensions must be < 6.
  [[nodiscard]] RouteWord encode() const;
  bool operator==(const AngaraRoute&) const = default;
};

/// A route expanded against the torus: how many hops it makes in each direction, in the
/// Angara direction order (index o < n: + of dimension o; o >= n: - of dimension o - n).
struct ExpandedRoute {
  bool ok = false;
  const char* defect = "";  ///< why not ok (e.g. "leaves the network"), a static string
  int first_port = -1;      ///< FS port, or -1
  int last_port = -1;       ///< LS port, or -1
  std::array<std::uint16_t, 2 * 6> hops_per_direction{};
  int hops = 0;  ///< total route length
  int dims = 0;

  /// Port taken at hop `h` (0-based, h < hops).
  [[nodiscard]] PortId port_at(int h) const;
  /// Calls f(port) for every hop in order.
  template <class F>
  void for_each_port(F&& f) const {
    if (first_port >= 0) f(static_cast<PortId>(first_port));
    for (int o = 0; o < 2 * dims; ++o) {
      const PortId p = port_of_direction(o, dims);
      for (int k = 0; k < hops_per_direction[static_cast<std::size_t>(o)]; ++k) f(p);
    }
    if (last_port >= 0) f(static_cast<PortId>(last_port));
  }
  /// Port of direction-order index o in an n-dimensional torus.
  static constexpr PortId port_of_direction(int o, int n) {
    return static_cast<PortId>(o < n ? 2 * o : 2 * (o - n) + 1);
  }
};

/// Expands route word `w` from s to d on `topo`. Not ok when a step would leave the
/// network (no link in that direction) or the word is malformed; the plan reaches d when ok.
ExpandedRoute expand_route(const Torus& topo, NodeId s, NodeId d, RouteWord w);

/// Calls f(channel) for every channel of an ok plan that starts at s, in route order.
template <class F>
void for_each_channel(const Topology& topo, NodeId s, const ExpandedRoute& plan, F&& f) {
  NodeId at = s;
  plan.for_each_port([&](PortId p) {
    f(topo.channel(at, p));
    at = topo.neighbor(at, p);
  });
}

/// Route words for every ordered pair of a torus, row = source, column = destination.
class RouteTable {
 public:
  /// Every pair missing (kNoRoute), the diagonal 0 (empty route).
  explicit RouteTable(const Torus& topo);

  [[nodiscard]] const Torus& topology() const { return *topo_; }
  [[nodiscard]] std::uint32_t num_nodes() const { return n_; }
  [[nodiscard]] RouteWord word(NodeId s, NodeId d) const {
    return words_[static_cast<std::size_t>(s.value()) * n_ + d.value()];
  }
  void set(NodeId s, NodeId d, RouteWord w) {
    words_[static_cast<std::size_t>(s.value()) * n_ + d.value()] = w;
  }
  [[nodiscard]] std::span<const RouteWord> words() const { return words_; }
  [[nodiscard]] std::span<RouteWord> words() { return words_; }
  [[nodiscard]] ExpandedRoute plan(NodeId s, NodeId d) const {
    return expand_route(*topo_, s, d, word(s, d));
  }

 private:
  const Torus* topo_;
  std::uint32_t n_;
  std::vector<RouteWord> words_;  // [s * N + d]
};

}  // namespace wormnet
