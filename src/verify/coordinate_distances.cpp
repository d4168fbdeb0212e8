#include "wormnet/verify/coordinate_distances.hpp"

#include <algorithm>
#include <limits>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

namespace {

/// Sum over ordered pairs of coordinate values of one torus dimension of their ring (or line)
/// distance: every value is held by the same number of nodes, and the distance depends only
/// on the difference (mod k on a ring), so O(k) instead of O(k^2).
std::uint64_t torus_dimension_pairs(const Torus& t, int dim) {
  const int k = t.size(dim);
  std::uint64_t sum = 0;
  for (int delta = 1; delta < k; ++delta) {
    const auto d = static_cast<std::uint64_t>(t.coordinate_distance(dim, 0, delta));
    // Pairs (a, b) with b - a = delta (mod k on a ring; as integers, either order, on a line).
    const auto pairs =
        t.is_ring(dim) ? static_cast<std::uint64_t>(k) : 2 * static_cast<std::uint64_t>(k - delta);
    sum += pairs * d;
  }
  const std::uint64_t per_value = t.num_nodes() / static_cast<std::uint32_t>(k);
  return sum * per_value * per_value;
}

}  // namespace

CoordinateDistances::CoordinateDistances(const Topology& topo)
    : topo_(topo),
      separable_(topo.distance_separable()),
      dims_(separable_ ? topo.coords(NodeId(0)).n : 1) {
  const std::uint32_t n = topo.num_nodes();
  if (!separable_) {
    // One "coordinate", the node id, whose row toward a destination holds the distances of
    // every node (O(N) distance calls per destination, as without rows).
    coords_.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) coords_[v] = static_cast<std::int32_t>(v);
    low_.assign(1, 0);
    range_.assign(1, static_cast<std::int32_t>(n));
    // The sum over all ordered pairs: from one node times N when every node sees the same
    // distances, else every pair.
    const std::uint32_t from = topo.vertex_transitive() ? 1 : n;
    for (std::uint32_t a = 0; a < from; ++a) {
      for (std::uint32_t b = 0; b < n; ++b) {
        all_pairs_sum_ += static_cast<std::uint64_t>(topo.distance(NodeId(a), NodeId(b)));
      }
    }
    if (from == 1) all_pairs_sum_ *= n;
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

  if (const auto* t = dynamic_cast<const Torus*>(&topo)) {
    for (int i = 0; i < dims_; ++i) all_pairs_sum_ += torus_dimension_pairs(*t, i);
  } else {
    for (std::size_t i = 0; i < dims; ++i) {
      const auto r = static_cast<std::size_t>(range_[i]);
      std::vector<std::uint64_t> histogram(r, 0);
      for (std::uint32_t v = 0; v < n; ++v)
        ++histogram[static_cast<std::size_t>(coords_[v * dims + i])];
      for (std::size_t a = 0; a < r; ++a) {
        if (histogram[a] == 0) continue;
        for (std::size_t b = 0; b < r; ++b) {
          if (histogram[b] == 0) continue;
          const int d = topo.coordinate_distance(static_cast<int>(i), static_cast<int>(a) + low_[i],
                                                 static_cast<int>(b) + low_[i]);
          all_pairs_sum_ += histogram[a] * histogram[b] * static_cast<std::uint64_t>(d);
        }
      }
    }
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

CoordinateDistances::To CoordinateDistances::to(NodeId dest) const {
  To t;
  t.coords_ = coords_.data();
  t.dims_ = static_cast<std::size_t>(dims_);
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
