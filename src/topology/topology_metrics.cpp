#include "wormnet/topology/topology_metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "wormnet/topology/torus.hpp"
#include "wormnet/topology/working_network.hpp"

namespace wormnet {

namespace {

/// Balanced cut "coordinate i <= m" vs "> m" with m chosen so the sides are as equal as
/// possible; counts the directed channels that cross from A to B.
BisectionCut straight_cut(const Topology& topo, const FaultSet& faults, int coord,
                          const std::vector<int>& values) {
  std::map<int, std::uint64_t> hist;
  for (std::uint32_t u = 0; u < topo.num_nodes(); ++u) {
    if (!faults.node_failed(NodeId(u))) ++hist[values[u]];
  }
  std::uint64_t n = 0;
  for (const auto& [v, count] : hist) n += count;
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
    if (faults.node_failed(NodeId(u))) continue;
    const bool in_a = values[u] <= best_m;
    (in_a ? cut.side_a : cut.side_b) += 1;
    for (int p = 0; p < topo.num_ports(); ++p) {
      const NodeId w = faults.working_neighbor(topo, NodeId(u), static_cast<PortId>(p));
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

/// The best balanced straight cut over the working nodes and channels (the fault-free
/// choice when nothing failed).
BisectionCut best_cut(const Topology& topo, const FaultSet& faults, std::uint64_t nodes) {
  const std::uint32_t n = topo.num_nodes();
  const int ncoords = topo.coords(NodeId(0)).n;
  std::vector<std::vector<int>> values(static_cast<std::size_t>(ncoords), std::vector<int>(n));
  for (std::uint32_t u = 0; u < n; ++u) {
    const Coord c = topo.coords(NodeId(u));
    for (int i = 0; i < ncoords; ++i) values[static_cast<std::size_t>(i)][u] = c[i];
  }
  BisectionCut best;
  bool first = true;
  for (int i = 0; i < ncoords; ++i) {
    if (nodes < 2) break;
    BisectionCut cut = straight_cut(topo, faults, i, values[static_cast<std::size_t>(i)]);
    if (cut.side_a == 0 || cut.side_b == 0) continue;
    if (first || cut.bound < best.bound) best = cut;
    first = false;
  }
  return best;
}

/// The metrics of a network with faults: over its working nodes and links, distances by
/// breadth-first search (when asked).
TopologyMetrics faulty_metrics(const Topology& topo, const FaultSet& faults, bool distances) {
  TopologyMetrics m;
  m.faulty = true;
  m.nodes = faults.working_nodes();
  m.links = faults.working_links();
  m.channels = 2 * m.links;
  m.failed_nodes = faults.failed_nodes().size();
  m.failed_links = faults.failed_links().size();
  for (std::uint32_t u = 0; u < topo.num_nodes(); ++u) {
    if (faults.node_failed(NodeId(u))) continue;
    ++m.degree_histogram[std::popcount(faults.working_ports(topo, NodeId(u)))];
  }
  m.connectivity = working_connectivity(topo, faults);
  m.diameter = -1;
  m.distances_known = false;
  if (distances) {
    const DistanceTotals d = working_distance_totals(topo, faults);
    set_distances(m, d);
  }
  m.bisection = best_cut(topo, faults, m.nodes);
  return m;
}

}  // namespace

void set_distances(TopologyMetrics& m, const DistanceTotals& d) {
  m.distances_known = true;
  m.diameter = d.diameter;
  m.distance_pairs = d.pairs;
  m.average_distance =
      d.pairs > 0 ? static_cast<double>(static_cast<long double>(d.sum) / d.pairs) : 0.0;
}

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
  return compute_metrics(topo, FaultSet());
}

TopologyMetrics compute_metrics(const Topology& topo, const FaultSet& faults, bool distances) {
  if (!faults.empty()) return faulty_metrics(topo, faults, distances);
  TopologyMetrics m;
  const std::uint32_t n = topo.num_nodes();
  m.nodes = n;
  m.channels = topo.num_channels();
  m.links = topo.num_links();
  m.diameter = topo.diameter();
  for (std::uint32_t u = 0; u < n; ++u) ++m.degree_histogram[topo.degree(NodeId(u))];
  m.average_distance =
      n > 1 ? static_cast<double>(static_cast<long double>(all_pairs_distance_sum(topo)) /
                                  (static_cast<long double>(n) * (n - 1)))
            : 0.0;
  m.bisection = best_cut(topo, faults, n);
  return m;
}

}  // namespace wormnet
