// Independent reference for tests of faulty networks: the working network rebuilt as plain
// adjacency lists from the topology's neighbour table, with the failed nodes and the failed
// links (given as node pairs) taken out by hand, and breadth-first searches over it. It uses
// none of FaultSet's queries nor the working-network code under test.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
#include <utility>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet::test {

struct ReferenceNetwork {
  std::vector<bool> failed;                      // [node]
  std::vector<std::vector<std::uint32_t>> next;  // [node]: working neighbours
  std::uint64_t links = 0;                       // working links

  /// `failed_nodes` by id, `failed_links` as unordered node pairs.
  ReferenceNetwork(const Topology& topo, const std::vector<std::uint32_t>& failed_nodes,
                   const std::vector<std::pair<std::uint32_t, std::uint32_t>>& failed_links)
      : failed(topo.num_nodes(), false), next(topo.num_nodes()) {
    for (const std::uint32_t n : failed_nodes) failed[n] = true;
    std::set<std::pair<std::uint32_t, std::uint32_t>> cut;
    for (auto [a, b] : failed_links) cut.insert({std::min(a, b), std::max(a, b)});
    for (std::uint32_t u = 0; u < topo.num_nodes(); ++u) {
      for (int p = 0; p < topo.num_ports(); ++p) {
        const NodeId v = topo.neighbor(NodeId(u), static_cast<PortId>(p));
        if (!v.valid() || failed[u] || failed[v.value()]) continue;
        if (cut.count({std::min(u, v.value()), std::max(u, v.value())}) != 0) continue;
        next[u].push_back(v.value());
        if (u < v.value()) ++links;
      }
    }
  }

  [[nodiscard]] std::vector<int> distances(std::uint32_t from) const {
    std::vector<int> dist(next.size(), -1);
    if (failed[from]) return dist;
    dist[from] = 0;
    std::deque<std::uint32_t> queue{from};
    while (!queue.empty()) {
      const std::uint32_t u = queue.front();
      queue.pop_front();
      for (const std::uint32_t v : next[u]) {
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          queue.push_back(v);
        }
      }
    }
    return dist;
  }

  [[nodiscard]] std::uint32_t working() const {
    return static_cast<std::uint32_t>(std::count(failed.begin(), failed.end(), false));
  }

  /// Connected components of the working nodes.
  [[nodiscard]] std::uint32_t components() const {
    std::vector<bool> seen(next.size(), false);
    std::uint32_t count = 0;
    for (std::uint32_t s = 0; s < next.size(); ++s) {
      if (failed[s] || seen[s]) continue;
      ++count;
      const std::vector<int> dist = distances(s);
      for (std::uint32_t v = 0; v < next.size(); ++v) {
        if (dist[v] >= 0) seen[v] = true;
      }
    }
    return count;
  }
};

}  // namespace wormnet::test
