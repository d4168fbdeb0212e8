// Minimal distances for the analyses without a virtual call per pair. The topology's distance
// is separable (Topology::coordinate_distance), so the distances from every node to one
// destination are a sum of row lookups, one row per coordinate (built once per destination),
// and the sum over all ordered pairs is the topology layer's all_pairs_distance_sum().
// Where the distance is not separable (honeycomb tori), the one row is the node id's: the
// distances of every node to the destination, from Topology::distance() (O(N) per destination).
// On a network with faults the one row holds the distances over the working links, from a
// breadth-first search (O(N + links) per destination; -1 where the destination is out of
// reach), and the sum over all pairs is left to the caller (per destination, row_sum()).
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

class CoordinateDistances {
 public:
  /// Checks the separability the rows rely on against Topology::distance() on a spread of
  /// pairs (an InvariantError if it does not hold) when the topology declares it.
  explicit CoordinateDistances(const Topology& topo);
  /// The distances over the working links of `faults` (which must outlive this object) when
  /// it holds any; CoordinateDistances(topo) otherwise.
  CoordinateDistances(const Topology& topo, const FaultSet& faults);

  /// Distances from every node to one destination.
  class To {
   public:
    [[nodiscard]] int operator()(NodeId n) const {
      const std::int32_t* c = coords_ + static_cast<std::size_t>(n.value()) * dims_;
      int d = 0;
      for (std::size_t i = 0; i < dims_; ++i)
        d += rows_[offset_[i] + static_cast<std::size_t>(c[i])];
      return d;
    }

   private:
    friend class CoordinateDistances;
    const std::int32_t* coords_ = nullptr;
    std::size_t dims_ = 0;
    std::size_t offset_[6] = {};      // where coordinate i's row starts in rows_
    std::vector<std::int32_t> rows_;  // [offset_[i] + a]: coordinate distance of a to dest's
  };
  [[nodiscard]] To to(NodeId dest) const;

  /// Sum of distance(s, d) over all ordered pairs, exact. Not on a network with faults
  /// (an InvariantError): sum the rows of the destinations instead.
  [[nodiscard]] std::uint64_t all_pairs_sum() const;
  /// Whether the distances are those of a network with faults (searched per destination).
  [[nodiscard]] bool faulty() const { return faults_ != nullptr; }

 private:
  /// Fills coords_, low_ and range_ (and checks separability).
  void index_nodes();

  const Topology& topo_;
  const FaultSet* faults_ = nullptr;  // set when the network has faults
  bool separable_;  // Topology::distance_separable(); else one row of whole distances
  int dims_;
  std::vector<std::int32_t> coords_;  // [node * dims + i], shifted so that each starts at 0
  std::vector<std::int32_t> low_;     // [i]: smallest coordinate value
  std::vector<std::int32_t> range_;   // [i]: coordinate values are low .. low + range - 1
  std::uint64_t all_pairs_sum_ = 0;
};

}  // namespace wormnet
