// One router of mesh:2x2 (node 0, xy routing) alone, its flits and credits put in by hand:
// the hand-worked cases of the congestion counts (tests/unit/router/congestion_test.cpp,
// channel_blocked_test.cpp).
#pragma once

#include <cstdint>
#include <memory>

#include "wormnet/router/router_bank.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet::test {

// Ports of a 2-D mesh: 0 = X+, 1 = X-, 2 = Y+, 3 = Y-, 4 = the terminal.
inline constexpr int kXPlus = 0;
inline constexpr int kXMinus = 1;
inline constexpr int kYPlus = 2;
inline constexpr int kTerminal = 4;

/// A mesh router's parameters (every delay 0) counting where packets wait over the
/// measurement window [begin, end); `series`: with the per-window readings too.
inline RouterParams counting(int vcs, int depth, Cycle begin, Cycle end, bool series = false) {
  RouterParams p;
  p.ports = 4;
  p.vcs = vcs;
  p.depth = depth;
  p.congestion = true;
  p.congestion_series = series;
  p.measure_begin = begin;
  p.measure_end = end;
  return p;
}

/// Node 0 of mesh:2x2 (xy routing) alone.
struct OneRouter {
  explicit OneRouter(const RouterParams& p)
      : topo(make_topology("mesh:2x2")),
        routing(make_routing("xy", *topo, FlowControl::kCredit)),
        bank(p, *topo, *routing, {0}, packets) {}
  /// A whole packet of `length` flits to `dest` into input VC local_vc at cycle t.
  void packet(int local_vc, std::uint64_t id, int length, std::uint32_t dest, Cycle t) {
    Packet pk;
    pk.id = id;
    pk.dest = dest;
    pk.length = static_cast<std::uint32_t>(length);
    const std::uint32_t slot = packets.allocate(pk);
    for (int k = 0; k < length; ++k)
      bank.deposit(0, local_vc, Flit(slot, k == 0, k == length - 1), t);
  }
  /// Cycle t at the router; the flits that crossed its switch.
  int step(Cycle t) {
    int moved = 0;
    bank.step(0, t, source, [&](int, int, int, int, Flit) { ++moved; });
    return moved;
  }
  std::unique_ptr<Topology> topo;
  std::unique_ptr<RoutingFunction> routing;
  PacketTable packets;
  SourceQueue source;
  RouterBank bank;
};

}  // namespace wormnet::test
