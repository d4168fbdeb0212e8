#include "wormnet/topology/topology_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "wormnet/topology/torus.hpp"

namespace wormnet {

namespace {

/// Balanced cut "coordinate i <= m" vs "> m" with m chosen so the sides are as equal as
/// possible; counts the directed channels that cross from A to B.
BisectionCut straight_cut(const Topology& topo, int coord, const std::vector<int>& values) {
  std::map<int, std::uint64_t> hist;
  for (int v : values) ++hist[v];
  const std::uint64_t n = values.size();
  std::uint64_t below = 0;
  int best_m = hist.begin()->first;
  std::uint64_t best_gap = std::numeric_limits<std::uint64_t>::max();
  for (const auto& [v, count] : hist) {
    below += count;
    if (below == n) break;
    const std::uint64_t gap = below * 2 > n ? below * 2 - n : n - below * 2;
    if (gap < best_gap) {
      best_gap = gap;
      best_m = v;
    }
  }
  BisectionCut cut;
  const std::string name = Topology::dim_name(coord);
  cut.description =
      name + " <= " + std::to_string(best_m) + " | " + name + " > " + std::to_string(best_m);
  std::uint64_t ab = 0;
  std::uint64_t ba = 0;
  for (std::uint32_t u = 0; u < topo.num_nodes(); ++u) {
    const bool in_a = values[u] <= best_m;
    (in_a ? cut.side_a : cut.side_b) += 1;
    for (int p = 0; p < topo.num_ports(); ++p) {
      const NodeId w = topo.neighbor(NodeId(u), static_cast<PortId>(p));
      if (!w.valid()) continue;
      const bool w_in_a = values[w.value()] <= best_m;
      if (in_a && !w_in_a) ++ab;
      if (!in_a && w_in_a) ++ba;
    }
  }
  cut.channels_ab = std::min(ab, ba);
  if (cut.side_a > 0 && cut.side_b > 0) {
    cut.bound = static_cast<double>(cut.channels_ab) * static_cast<double>(n - 1) /
                (static_cast<double>(cut.side_a) * static_cast<double>(cut.side_b));
  }
  return cut;
}

/// Sum over ordered pairs of coordinate values of one torus dimension of their ring (or line)
/// distance, weighted by the nodes holding them: every value is held by N/k nodes and the
/// distance depends only on the difference (mod k on a ring), so O(k) instead of O(k^2).
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

std::uint64_t all_pairs_distance_sum(const Topology& topo) {
  const std::uint32_t n = topo.num_nodes();
  std::uint64_t total = 0;
  if (!topo.distance_separable()) {
    const std::uint32_t from = topo.vertex_transitive() ? std::min<std::uint32_t>(n, 1) : n;
    for (std::uint32_t a = 0; a < from; ++a) {
      for (std::uint32_t b = 0; b < n; ++b)
        total += static_cast<std::uint64_t>(topo.distance(NodeId(a), NodeId(b)));
    }
    return from == 1 ? total * n : total;
  }
  if (n == 0) return 0;
  const int ncoords = topo.coords(NodeId(0)).n;
  if (const auto* t = dynamic_cast<const Torus*>(&topo)) {
    for (int i = 0; i < ncoords; ++i) total += torus_dimension_pairs(*t, i);
    return total;
  }
  for (int i = 0; i < ncoords; ++i) {
    std::map<int, std::uint64_t> histogram;  // coordinate value -> nodes holding it
    for (std::uint32_t u = 0; u < n; ++u) ++histogram[topo.coords(NodeId(u))[i]];
    for (const auto& [a, ca] : histogram) {
      for (const auto& [b, cb] : histogram)
        total += ca * cb * static_cast<std::uint64_t>(topo.coordinate_distance(i, a, b));
    }
  }
  return total;
}

TopologyMetrics compute_metrics(const Topology& topo) {
  TopologyMetrics m;
  const std::uint32_t n = topo.num_nodes();
  m.nodes = n;
  m.channels = topo.num_channels();
  m.links = topo.num_links();
  m.diameter = topo.diameter();
  for (std::uint32_t u = 0; u < n; ++u) ++m.degree_histogram[topo.degree(NodeId(u))];

  const int ncoords = topo.coords(NodeId(0)).n;
  std::vector<std::vector<int>> values(static_cast<std::size_t>(ncoords), std::vector<int>(n));
  for (std::uint32_t u = 0; u < n; ++u) {
    const Coord c = topo.coords(NodeId(u));
    for (int i = 0; i < ncoords; ++i) values[static_cast<std::size_t>(i)][u] = c[i];
  }

  m.average_distance =
      n > 1 ? static_cast<double>(static_cast<long double>(all_pairs_distance_sum(topo)) /
                                  (static_cast<long double>(n) * (n - 1)))
            : 0.0;

  bool first = true;
  for (int i = 0; i < ncoords; ++i) {
    if (n < 2) break;
    BisectionCut cut = straight_cut(topo, i, values[static_cast<std::size_t>(i)]);
    if (cut.side_a == 0 || cut.side_b == 0) continue;
    if (first || cut.bound < m.bisection.bound) m.bisection = cut;
    first = false;
  }
  return m;
}

}  // namespace wormnet
