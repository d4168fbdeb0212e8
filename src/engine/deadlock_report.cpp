#include "wormnet/engine/deadlock_report.hpp"

#include <cstring>

#include "wormnet/verify/wait_for_graph.hpp"

namespace wormnet {

namespace {

template <class T>
std::vector<std::uint8_t> to_bytes(const std::vector<T>& v) {
  std::vector<std::uint8_t> bytes(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

template <class T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

}  // namespace

DeadlockHop describe_hop(const Topology& topo, VcKey key) {
  const auto node = static_cast<std::uint32_t>(key >> 16);
  const auto port = static_cast<int>((key >> 8) & 0xFF);
  const auto vc = static_cast<int>(key & 0xFF);
  if (port == topo.num_ports())
    return DeadlockHop{"injection at " + topo.node_label(NodeId(node)), vc};
  const NodeId from = topo.neighbor(NodeId(node), static_cast<PortId>(port));
  return DeadlockHop{topo.node_label(from) + " " +
                         Topology::port_label(Topology::reverse_port(static_cast<PortId>(port))) +
                         " -> " + topo.node_label(NodeId(node)),
                     vc};
}

std::vector<DeadlockHop> find_deadlock(const Communicator& comm, const Topology& topo,
                                       const RankModel& model, Cycle t, Cycle threshold) {
  // The search runs on rank 0 over every rank's edges; the cycle travels back as keys.
  const std::vector<std::uint8_t> all =
      comm.gather(to_bytes(model.state().wait_for_edges(t, threshold)), 0);
  std::vector<std::uint8_t> cycle;
  if (comm.is_root()) cycle = to_bytes(find_deadlock_cycle(from_bytes<WaitEdge>(all)));
  comm.broadcast(cycle, 0);
  std::vector<DeadlockHop> hops;
  for (const VcKey key : from_bytes<VcKey>(cycle)) hops.push_back(describe_hop(topo, key));
  return hops;
}

}  // namespace wormnet
