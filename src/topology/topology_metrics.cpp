#include "wormnet/topology/topology_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

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

}  // namespace

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

  // Sum of distances over ordered pairs: one coordinate at a time when the distance is
  // separable; otherwise from one node times N when all nodes are alike, else pair by pair.
  long double total = 0;
  if (!topo.distance_separable()) {
    const std::uint32_t sources = topo.vertex_transitive() ? std::min<std::uint32_t>(n, 1) : n;
    for (std::uint32_t s = 0; s < sources; ++s) {
      for (std::uint32_t d = 0; d < n; ++d) total += topo.distance(NodeId(s), NodeId(d));
    }
    if (sources == 1) total *= n;
  }
  for (int i = 0; i < ncoords && topo.distance_separable(); ++i) {
    std::map<int, std::uint64_t> hist;
    for (int v : values[static_cast<std::size_t>(i)]) ++hist[v];
    for (const auto& [a, ca] : hist) {
      for (const auto& [b, cb] : hist) {
        total += static_cast<long double>(ca) * static_cast<long double>(cb) *
                 topo.coordinate_distance(i, a, b);
      }
    }
  }
  m.average_distance =
      n > 1 ? static_cast<double>(total / (static_cast<long double>(n) * (n - 1))) : 0.0;

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
