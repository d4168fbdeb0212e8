// A table-driven turn-model routing on H_t, for the search that reconstructs Zhang & Yang's
// improved Double XY (docs/routing/double-xy-turn.md) and as an independent reference in the
// tests. A packet's class (DoubleXyTurnRouting::route_class, 0 = neighbour) selects a row of
// permissions "previous channel type -> next channel type"; a step is offered when it is
// minimal, permitted, and the destination stays reachable from the next channel by permitted
// minimal steps (a reachability table per destination, built backwards by distance). So any
// permission table yields a minimal routing with no dead ends, and only its channel
// dependency graph and its connectivity (does every source have a route?) remain to judge.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "wormnet/routing/double_xy_turn_routing.hpp"
#include "wormnet/routing/honeycomb_offsets.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet::tools {

/// Channel types under Double XY's VC use: X and Y in each direction on VC 0 or VC 1, and
/// Z+ and Z- on VC 0 (the single Z channel). Index: X0+ X0- X1+ X1- Y0+ Y0- Y1+ Y1- Z+ Z-.
inline constexpr int kChannelTypes = 10;
/// "Previous channel type" of a packet still at its source.
inline constexpr int kInjected = kChannelTypes;
/// Table rows: class 0 (neighbours) and the paper's classes 1..6.
inline constexpr int kRows = 7;

inline int channel_type(int dim, int sign, int vc) {
  return dim < 2 ? dim * 4 + (sign < 0 ? 2 : 0) + vc : 8 + (sign < 0 ? 1 : 0);
}
inline int type_dim(int t) {
  return t < 8 ? t / 4 : 2;
}
inline int type_sign(int t) {
  return t < 8 ? ((t / 2) % 2 != 0 ? -1 : 1) : (t == 8 ? 1 : -1);
}
inline int type_vc(int t) {
  return t < 8 ? t % 2 : 0;
}
/// Double XY network of a channel type: X0, Y0, Z+ -> 0; X1, Y1, Z- -> 1.
inline int type_network(int t) {
  return t < 8 ? type_vc(t) : (t == 8 ? 0 : 1);
}
/// "X0+", "Y1-", "Z+".
inline std::string type_name(int t) {
  std::string s(1, "XYZ"[type_dim(t)]);
  if (t < 8) s += std::to_string(type_vc(t));
  return s + (type_sign(t) > 0 ? "+" : "-");
}
/// True when type b can follow type a on a minimal path: H_t is bipartite (a + channel ends
/// at a node whose links are all -, and vice versa) and a minimal path never reverses.
inline bool is_turn(int a, int b) {
  return type_dim(a) != type_dim(b) && type_sign(a) == -type_sign(b);
}
/// A turn with both channels in the X/Y plane continues the same zig-zag row (a 0-degree
/// turn, as the paper counts them); the others turn onto or off the Z axis.
inline bool is_zero_degree(int a, int b) {
  return type_dim(a) < 2 && type_dim(b) < 2;
}

/// Permissions: allow[row][previous type or kInjected] = mask of next types.
struct TurnTable {
  std::array<std::array<std::uint16_t, kChannelTypes + 1>, kRows> allow{};

  void set(int row, int prev, int next, bool on) {
    auto& m = allow[static_cast<std::size_t>(row)][static_cast<std::size_t>(prev)];
    m = static_cast<std::uint16_t>(on ? (m | (1U << next)) : (m & ~(1U << next)));
  }
  [[nodiscard]] bool allowed(int row, int prev, int next) const {
    return ((allow[static_cast<std::size_t>(row)][static_cast<std::size_t>(prev)] >> next) & 1U) !=
           0;
  }
  /// Every turn and every first channel, in every row.
  static TurnTable all() {
    TurnTable t;
    for (auto& row : t.allow) row.fill(0x3FF);
    return t;
  }
};

/// Mask of the channel types that satisfy `pred`.
inline std::uint16_t types_where(const std::function<bool(int)>& pred) {
  std::uint16_t m = 0;
  for (int t = 0; t < kChannelTypes; ++t) {
    if (pred(t)) m = static_cast<std::uint16_t>(m | 1U << t);
  }
  return m;
}

/// Double XY as a turn table: any first channel, then only turns inside one network (the
/// reachability rule then picks the network by the sign of dZ).
inline TurnTable double_xy_table() {
  TurnTable t;
  for (int row = 0; row < kRows; ++row) {
    t.allow[static_cast<std::size_t>(row)][kInjected] = 0x3FF;
    for (int a = 0; a < kChannelTypes; ++a) {
      t.allow[static_cast<std::size_t>(row)][static_cast<std::size_t>(a)] =
          types_where([a](int b) { return type_network(b) == type_network(a); });
    }
  }
  return t;
}

/// The paper's text read literally: classes 1 and 3 use VC0 X/Y (phase A), then VC1 X/Y and
/// Z (phase B); classes 4 and 6 use VC1 X/Y and Z, then VC0 X/Y; classes 2 and 5 are Double XY
/// (networks 1 and 0). Switching is one way, A -> B.
inline TurnTable literal_table() {
  TurnTable t = TurnTable::all();
  const std::uint16_t vc0 = types_where([](int b) { return b < 8 && type_vc(b) == 0; });
  const std::uint16_t vc1z = static_cast<std::uint16_t>(~vc0 & 0x3FF);
  auto phased = [&t](int row, std::uint16_t a, std::uint16_t b) {
    auto& r = t.allow[static_cast<std::size_t>(row)];
    r[kInjected] = static_cast<std::uint16_t>(a | b);
    for (int x = 0; x < kChannelTypes; ++x) {
      r[static_cast<std::size_t>(x)] = ((a >> x) & 1U) != 0 ? static_cast<std::uint16_t>(a | b) : b;
    }
  };
  phased(1, vc0, vc1z);
  phased(3, vc0, vc1z);
  phased(4, vc1z, vc0);
  phased(6, vc1z, vc0);
  const TurnTable dxy = double_xy_table();
  for (int row : {2, 5}) {
    t.allow[static_cast<std::size_t>(row)] = dxy.allow[static_cast<std::size_t>(row)];
    t.allow[static_cast<std::size_t>(row)][kInjected] =
        types_where([row](int b) { return type_network(b) == (row == 2 ? 1 : 0); });
  }
  return t;
}

class TurnTableRouting final : public RoutingFunction {
 public:
  TurnTableRouting(const HoneycombMesh& topo, const TurnTable& table) : topo_(topo), table_(table) {
    const std::uint32_t n = topo.num_nodes();
    reach_.assign(static_cast<std::size_t>(kRows) * n * n, 0);
    std::vector<std::vector<std::uint32_t>> by_distance;
    for (std::uint32_t d = 0; d < n; ++d) {
      by_distance.assign(static_cast<std::size_t>(topo.diameter()) + 1, {});
      for (std::uint32_t v = 0; v < n; ++v) {
        by_distance[static_cast<std::size_t>(topo.distance(NodeId(v), NodeId(d)))].push_back(v);
      }
      for (int row = 0; row < kRows; ++row) {
        for (const auto& layer : by_distance) {
          for (std::uint32_t v : layer) {
            std::uint16_t mask = 0;
            for (int prev = 0; prev <= kInjected; ++prev) {
              if (v == d || steps(row, NodeId(v), NodeId(d), prev, nullptr) > 0) {
                mask = static_cast<std::uint16_t>(mask | (1U << prev));
              }
            }
            reach_[index(row, v, d)] = mask;
          }
        }
      }
    }
  }

  [[nodiscard]] std::string name() const override { return "turn-table"; }
  [[nodiscard]] int vcs_required() const override { return 2; }
  [[nodiscard]] int state_count() const override { return kRows; }
  [[nodiscard]] RouteState initial_state(NodeId src, NodeId dst) const override {
    const Coord s = topo_.coords(src);
    const Coord d = topo_.coords(dst);
    return static_cast<RouteState>(
        DoubleXyTurnRouting::route_class(d[0] - s[0], d[1] - s[1], d[2] - s[2]));
  }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override {
    return "table-driven turn-model routing (search and test reference)";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override {
    int prev = kInjected;
    if (request.in_port != kInjectionPort) {
      const PortId travelled = Topology::reverse_port(request.in_port);
      prev = channel_type(Topology::port_dim(travelled), Topology::port_sign(travelled),
                          request.in_vc);
    }
    steps(static_cast<int>(request.state), request.node, request.dest, prev, &out);
  }

 private:
  /// Offers (when `out` is set) and counts the permitted minimal steps that keep the
  /// destination reachable.
  int steps(int row, NodeId v, NodeId dest, int prev, RouteOptions* out) const {
    const HoneycombOffsets o = honeycomb_offsets(topo_, v, dest);
    int count = 0;
    for (int i = 0; i < 3; ++i) {
      const PortId p = honeycomb_port(i, o.black);
      if (!o.reduces(i) || !topo_.has_port(v, p)) continue;
      const NodeId w = topo_.neighbor(v, p);
      VcMask vcs = 0;
      for (int vc = 0; vc < (i == 2 ? 1 : 2); ++vc) {
        const int next = channel_type(i, o.sign(), vc);
        if (!table_.allowed(row, prev, next)) continue;
        if (((reach_[index(row, w.value(), dest.value())] >> next) & 1U) == 0) continue;
        vcs = static_cast<VcMask>(vcs | (1U << vc));
        ++count;
      }
      if (out != nullptr && vcs != 0) out->add(p, vcs, static_cast<RouteState>(row));
    }
    return count;
  }
  [[nodiscard]] std::size_t index(int row, std::uint32_t v, std::uint32_t d) const {
    const std::size_t n = topo_.num_nodes();
    return (static_cast<std::size_t>(row) * n + v) * n + d;
  }

  const HoneycombMesh& topo_;
  TurnTable table_;
  std::vector<std::uint16_t> reach_;  // [row][node][dest]: bit prev set when dest is reachable
};

}  // namespace wormnet::tools
