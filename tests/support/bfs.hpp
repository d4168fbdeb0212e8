// Independent reference for tests: hop distances by breadth-first search over the neighbour
// table, sharing no code with the closed-form distance functions under test.
#pragma once

#include <deque>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet::test {

inline std::vector<int> bfs_distances(const Topology& topo, NodeId from) {
  std::vector<int> dist(topo.num_nodes(), -1);
  std::deque<std::uint32_t> queue{from.value()};
  dist[from.value()] = 0;
  while (!queue.empty()) {
    const std::uint32_t u = queue.front();
    queue.pop_front();
    for (int p = 0; p < topo.num_ports(); ++p) {
      const NodeId v = topo.neighbor(NodeId(u), static_cast<PortId>(p));
      if (v.valid() && dist[v.value()] < 0) {
        dist[v.value()] = dist[u] + 1;
        queue.push_back(v.value());
      }
    }
  }
  return dist;
}

}  // namespace wormnet::test
