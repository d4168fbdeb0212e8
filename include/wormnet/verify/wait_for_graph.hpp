// The run-time deadlock detector's graph: input VCs that have held flits without moving one
// for the deadlock threshold, each with the VCs it waits for (every way on it may take), and
// the part of it that can never move again. A graph utility beside the verifier's dependency
// graphs: it knows VCs by key only, not the simulator that found the edges.
#pragma once

#include <cstdint>
#include <vector>

namespace wormnet {

/// An input VC that waits for another, for the run-time deadlock report.
struct WaitEdge {
  std::uint32_t node;  ///< waiting input VC: router (global), port, vc
  std::uint8_t port;
  std::uint8_t vc;
  std::uint32_t on_node;  ///< input VC it waits for
  std::uint8_t on_port;
  std::uint8_t on_vc;
};

/// An input VC of the network: router (global id) << 16 | port << 8 | vc.
using VcKey = std::uint64_t;
[[nodiscard]] constexpr VcKey vc_key(std::uint32_t node, int port, int vc) {
  return (static_cast<VcKey>(node) << 16) | (static_cast<VcKey>(port) << 8) |
         static_cast<VcKey>(vc);
}

/// A deadlock among `edges` and a shortest cycle through it, or nothing. The waiting VCs are
/// the sources of the edges (each blocked, and stuck for the threshold); a VC that waits for
/// one VC outside that set may still move once that one does, and so may whatever waits for
/// it. What remains when no such VC is left waits only for VCs that wait only for each other
/// (a knot): none of them can ever move. Each VC of a knot waits for another of it, so it
/// holds a cycle: the one reached by following the first waited-for member from the smallest
/// member, shortened to the shortest cycle through one of its vertices (breadth-first), as
/// VcKeys in waiting order. The same edges in any order give the same cycle.
[[nodiscard]] std::vector<VcKey> find_deadlock_cycle(const std::vector<WaitEdge>& edges);

}  // namespace wormnet
