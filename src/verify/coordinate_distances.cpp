#include "wormnet/verify/coordinate_distances.hpp"

#include <algorithm>
#include <limits>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/topology_metrics.hpp"
#include "wormnet/topology/working_network.hpp"

namespace wormnet {

CoordinateDistances::CoordinateDistances(const Topology& topo)
    : topo_(topo),
      separable_(topo.distance_separable()),
      dims_(separable_ ? topo.coords(NodeId(0)).n : 1),
      all_pairs_sum_(all_pairs_distance_sum(topo)) {
  index_nodes();
}

void CoordinateDistances::index_nodes() {
  const Topology& topo = topo_;
  const std::uint32_t n = topo.num_nodes();
  if (!separable_) {
    // One "coordinate", the node id, whose row toward a destination holds the distances of
    // every node (O(N) distance calls per destination, as without rows).
    coords_.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) coords_[v] = static_cast<std::int32_t>(v);
    low_.assign(1, 0);
    range_.assign(1, static_cast<std::int32_t>(n));
    return;
  }
  const auto dims = static_cast<std::size_t>(dims_);
  coords_.resize(static_cast<std::size_t>(n) * dims);
  low_.assign(dims, std::numeric_limits<std::int32_t>::max());
  range_.assign(dims, 0);
  std::vector<std::int32_t> high(dims, std::numeric_limits<std::int32_t>::min());
  for (std::uint32_t v = 0; v < n; ++v) {
    const Coord c = topo.coords(NodeId(v));
    require(c.n == dims_, "coordinate distances: nodes with different numbers of coordinates");
    for (std::size_t i = 0; i < dims; ++i) {
      coords_[v * dims + i] = c[static_cast<int>(i)];
      low_[i] = std::min(low_[i], c[static_cast<int>(i)]);
      high[i] = std::max(high[i], c[static_cast<int>(i)]);
    }
  }
  for (std::size_t i = 0; i < dims; ++i) range_[i] = high[i] - low_[i] + 1;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < dims; ++i) coords_[v * dims + i] -= low_[i];
  }

  // The contract the rows rely on, checked on pairs spread over the ids.
  for (std::uint32_t j = 0; j < 64 && n > 0; ++j) {
    const NodeId a(static_cast<std::uint32_t>(static_cast<std::uint64_t>(j) * n / 64));
    const NodeId b(static_cast<std::uint32_t>((static_cast<std::uint64_t>(j) * 7919 + 13) % n));
    require(to(b)(a) == topo.distance(a, b),
            "coordinate distances: the topology's distance is not the sum of its coordinate "
            "distances");
  }
}

CoordinateDistances::CoordinateDistances(const Topology& topo, const FaultSet& faults)
    : topo_(topo),
      faults_(faults.empty() ? nullptr : &faults),
      separable_(faults.empty() && topo.distance_separable()),
      dims_(separable_ ? topo.coords(NodeId(0)).n : 1),
      all_pairs_sum_(faults.empty() ? all_pairs_distance_sum(topo) : 0) {
  // With faults: one "coordinate", the node id, as for the honeycomb tori (not separable);
  // its rows come from a search.
  index_nodes();
}

std::uint64_t CoordinateDistances::all_pairs_sum() const {
  require(faults_ == nullptr,
          "coordinate distances: no closed-form pair sum on a network with faults");
  return all_pairs_sum_;
}

CoordinateDistances::To CoordinateDistances::to(NodeId dest) const {
  To t;
  t.coords_ = coords_.data();
  t.dims_ = static_cast<std::size_t>(dims_);
  if (faults_ != nullptr) {
    std::vector<std::uint32_t> queue;
    working_distances(topo_, *faults_, dest, t.rows_, queue);
    return t;
  }
  if (!separable_) {
    t.rows_.resize(static_cast<std::size_t>(topo_.num_nodes()));
    for (std::uint32_t v = 0; v < topo_.num_nodes(); ++v)
      t.rows_[v] = topo_.distance(NodeId(v), dest);
    return t;
  }
  const std::int32_t* d = coords_.data() + static_cast<std::size_t>(dest.value()) * t.dims_;
  for (std::size_t i = 0; i < t.dims_; ++i) {
    t.offset_[i] = t.rows_.size();
    for (std::int32_t a = 0; a < range_[i]; ++a) {
      t.rows_.push_back(
          topo_.coordinate_distance(static_cast<int>(i), a + low_[i], d[i] + low_[i]));
    }
  }
  return t;
}

}  // namespace wormnet
