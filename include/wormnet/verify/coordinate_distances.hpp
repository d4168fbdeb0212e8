// Minimal distances for the analyses without a virtual call per pair. The topology's distance
// is separable (Topology::coordinate_distance), so the distances from every node to one
// destination are a sum of row lookups, one row per coordinate (built once per destination),
// and the sum over all ordered pairs is the topology layer's all_pairs_distance_sum().
// Where the distance is not separable (honeycomb tori), the one row is the node id's: the
// distances of every node to the destination, from Topology::distance() (O(N) per destination).
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

class CoordinateDistances {
 public:
  /// Checks the separability the rows rely on against Topology::distance() on a spread of
  /// pairs (an InvariantError if it does not hold) when the topology declares it.
  explicit CoordinateDistances(const Topology& topo);

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

  /// Sum of distance(s, d) over all ordered pairs, exact.
  [[nodiscard]] std::uint64_t all_pairs_sum() const { return all_pairs_sum_; }

 private:
  const Topology& topo_;
  bool separable_;  // Topology::distance_separable(); else one row of whole distances
  int dims_;
  std::vector<std::int32_t> coords_;  // [node * dims + i], shifted so that each starts at 0
  std::vector<std::int32_t> low_;     // [i]: smallest coordinate value
  std::vector<std::int32_t> range_;   // [i]: coordinate values are low .. low + range - 1
  std::uint64_t all_pairs_sum_ = 0;
};

}  // namespace wormnet
