#include "wormnet/topology/working_network.hpp"

#include <algorithm>

namespace wormnet {

void working_distances(const Topology& topo, const FaultSet& faults, NodeId from,
                       std::vector<std::int32_t>& dist, std::vector<std::uint32_t>& queue) {
  dist.assign(topo.num_nodes(), -1);
  queue.clear();
  if (faults.node_failed(from)) return;
  dist[from.value()] = 0;
  queue.push_back(from.value());
  const int ports = topo.num_ports();
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId u(queue[head]);
    const std::int32_t next = dist[u.value()] + 1;
    const unsigned mask = faults.working_ports(topo, u);
    for (int p = 0; p < ports; ++p) {
      if (((mask >> p) & 1U) == 0) continue;
      const std::uint32_t v = topo.neighbor(u, static_cast<PortId>(p)).value();
      if (dist[v] >= 0) continue;
      dist[v] = next;
      queue.push_back(v);
    }
  }
}

WorkingConnectivity working_connectivity(const Topology& topo, const FaultSet& faults) {
  WorkingConnectivity out;
  const std::uint32_t n = topo.num_nodes();
  std::vector<std::uint32_t> component(n, ~std::uint32_t{0});
  std::vector<std::uint32_t> queue;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (faults.node_failed(NodeId(s)) || component[s] != ~std::uint32_t{0}) continue;
    const std::uint32_t id = out.components++;
    if (id == 1) {
      out.unreachable = NodeId(s);
    }
    component[s] = id;
    queue.assign(1, s);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeId u(queue[head]);
      const unsigned mask = faults.working_ports(topo, u);
      for (int p = 0; p < topo.num_ports(); ++p) {
        if (((mask >> p) & 1U) == 0) continue;
        const std::uint32_t v = topo.neighbor(u, static_cast<PortId>(p)).value();
        if (component[v] != ~std::uint32_t{0}) continue;
        component[v] = id;
        queue.push_back(v);
      }
    }
    if (id == 0) out.from = NodeId(s);
    out.largest = std::max(out.largest, static_cast<std::uint32_t>(queue.size()));
  }
  if (out.components <= 1) {
    out.from = NodeId::invalid();
    out.unreachable = NodeId::invalid();
  }
  return out;
}

DistanceTotals working_distance_totals(const Topology& topo, const FaultSet& faults,
                                       std::uint32_t part, std::uint32_t parts) {
  DistanceTotals out;
  std::vector<std::int32_t> dist;
  std::vector<std::uint32_t> queue;
  for (std::uint32_t s = part; s < topo.num_nodes(); s += parts) {
    if (faults.node_failed(NodeId(s))) continue;
    working_distances(topo, faults, NodeId(s), dist, queue);
    // The nodes reached are the queue; the source itself (distance 0) adds nothing.
    for (const std::uint32_t v : queue) {
      out.sum += static_cast<std::uint64_t>(dist[v]);
      out.diameter = std::max(out.diameter, dist[v]);
    }
    out.pairs += queue.size() - 1;
  }
  return out;
}

}  // namespace wormnet
