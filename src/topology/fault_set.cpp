#include "wormnet/topology/fault_set.hpp"

#include <algorithm>

#include "wormnet/core/error.hpp"

namespace wormnet {

FaultSet::FaultSet(const Topology& topo)
    : topo_(&topo),
      node_failed_(topo.num_nodes(), 0),
      failed_ports_(topo.num_nodes(), 0),
      working_nodes_(topo.num_nodes()),
      working_links_(topo.num_links()) {}

ChannelId FaultSet::link_of(const Topology& topo, ChannelId c) {
  const PortId p = topo.channel_port(c);
  if (Topology::port_sign(p) > 0) return c;
  return topo.channel(topo.channel_dest(c), Topology::reverse_port(p));
}

void FaultSet::fail_link(ChannelId c) {
  require(topo_ != nullptr, "fault set: no topology to fail a link of");
  const NodeId a = topo_->channel_source(c);
  const PortId p = topo_->channel_port(c);
  const NodeId b = topo_->channel_dest(c);
  require(!port_failed(a, p), "fault set: the link has failed already");
  failed_ports_[a.value()] = static_cast<std::uint16_t>(failed_ports_[a.value()] | (1U << p));
  const PortId back = Topology::reverse_port(p);
  failed_ports_[b.value()] = static_cast<std::uint16_t>(failed_ports_[b.value()] | (1U << back));
  failed_links_.push_back(link_of(*topo_, c));
  --working_links_;
}

void FaultSet::fail_node(NodeId n) {
  require(topo_ != nullptr, "fault set: no topology to fail a node of");
  require(!node_failed(n), "fault set: the node has failed already");
  node_failed_[n.value()] = 1;
  failed_nodes_.insert(std::lower_bound(failed_nodes_.begin(), failed_nodes_.end(), n), n);
  --working_nodes_;
  for (int p = 0; p < topo_->num_ports(); ++p) {
    const auto port = static_cast<PortId>(p);
    if (!topo_->has_port(n, port) || port_failed(n, port)) continue;
    const NodeId m = topo_->neighbor(n, port);
    failed_ports_[n.value()] = static_cast<std::uint16_t>(failed_ports_[n.value()] | (1U << p));
    const PortId back = Topology::reverse_port(port);
    failed_ports_[m.value()] = static_cast<std::uint16_t>(failed_ports_[m.value()] | (1U << back));
    --working_links_;
  }
}

std::vector<ChannelId> FaultSet::failed_channels() const {
  std::vector<ChannelId> out;
  if (failed_ports_.empty()) return out;
  for (std::uint32_t n = 0; n < topo_->num_nodes(); ++n) {
    const std::uint16_t failed = failed_ports_[n];
    if (failed == 0) continue;
    for (int p = 0; p < topo_->num_ports(); ++p) {
      if ((failed >> p) & 1U) out.push_back(topo_->channel(NodeId(n), static_cast<PortId>(p)));
    }
  }
  return out;  // node order, then port order: channel id order
}

bool FaultSet::same_faults(const FaultSet& other) const {
  if (failed_nodes_ != other.failed_nodes_) return false;
  std::vector<ChannelId> a = failed_links_;
  std::vector<ChannelId> b = other.failed_links_;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace wormnet
