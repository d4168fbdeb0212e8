// The network as it works with its faults (fault_set.hpp): breadth-first distances over the
// working links, connectivity of the working nodes, and the distance totals behind `info`'s
// diameter and average distance over the working pairs. Exact, by search: a faulty network
// has neither the closed forms nor the symmetries of the fault-free one.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Hop distances from `from` (a working node) to every node over the working links, -1 for a
/// node it cannot reach (every failed node among them). `queue` is scratch space.
void working_distances(const Topology& topo, const FaultSet& faults, NodeId from,
                       std::vector<std::int32_t>& dist, std::vector<std::uint32_t>& queue);

/// How the working nodes hang together.
struct WorkingConnectivity {
  std::uint32_t components = 0;  ///< connected components of the working nodes
  std::uint32_t largest = 0;     ///< working nodes in the largest one
  /// When not connected: a working pair that cannot reach each other (the lowest working
  /// node, and the lowest working node outside its component); invalid when connected.
  NodeId from;
  NodeId unreachable;
  [[nodiscard]] bool connected() const { return components <= 1; }
};
WorkingConnectivity working_connectivity(const Topology& topo, const FaultSet& faults);

/// Distances over the ordered working pairs (s, d), s != d, that can reach each other, from
/// the sources s with s % parts == part (a share of the work; the shares' sums and maxima
/// give the whole).
struct DistanceTotals {
  std::uint64_t sum = 0;    ///< hops, summed
  std::uint64_t pairs = 0;  ///< ordered pairs counted
  int diameter = 0;         ///< largest distance among them
};
DistanceTotals working_distance_totals(const Topology& topo, const FaultSet& faults,
                                       std::uint32_t part = 0, std::uint32_t parts = 1);

}  // namespace wormnet
