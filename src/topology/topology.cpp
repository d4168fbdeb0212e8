#include "wormnet/topology/topology.hpp"

#include <bit>
#include <limits>

#include "wormnet/core/error.hpp"

namespace wormnet {

Topology::Topology(std::uint32_t num_nodes, int num_ports)
    : num_nodes_(num_nodes), num_ports_(num_ports) {
  // The routings' port buffers (minimal_ports(), the switch stage's per-port arrays,
  // NetworkSymmetry) hold kMaxPorts ports: a topology with more is a bug, refused once here.
  require(num_ports >= 1 && num_ports <= kMaxPorts, "topology: 1 to kMaxPorts ports a router");
}

const char* Topology::dim_name(int dim) {
  static constexpr std::array<const char*, 6> kNames{"X", "Y", "Z", "K", "L", "M"};
  return dim >= 0 && dim < 6 ? kNames[static_cast<std::size_t>(dim)] : "?";
}

std::string Topology::port_label(PortId p) {
  return std::string(dim_name(port_dim(p))) + (port_sign(p) > 0 ? "+" : "-");
}

void Topology::build_adjacency() {
  const auto np = static_cast<std::size_t>(num_ports_);
  neighbor_.assign(static_cast<std::size_t>(num_nodes_) * np,
                   std::numeric_limits<std::uint32_t>::max());
  port_mask_.assign(num_nodes_, 0);
  channel_base_.assign(static_cast<std::size_t>(num_nodes_) + 1, 0);
  std::uint32_t channels = 0;
  for (std::uint32_t n = 0; n < num_nodes_; ++n) {
    channel_base_[n] = channels;
    for (int p = 0; p < num_ports_; ++p) {
      const NodeId m = compute_neighbor(NodeId(n), static_cast<PortId>(p));
      if (!m.valid()) continue;
      neighbor_[n * np + static_cast<std::size_t>(p)] = m.value();
      port_mask_[n] = static_cast<std::uint16_t>(port_mask_[n] | (1U << p));
      ++channels;
    }
  }
  channel_base_[num_nodes_] = channels;
  channel_node_.resize(channels);
  channel_port_.resize(channels);
  for (std::uint32_t n = 0; n < num_nodes_; ++n) {
    std::uint32_t c = channel_base_[n];
    for (int p = 0; p < num_ports_; ++p) {
      if (!((port_mask_[n] >> p) & 1U)) continue;
      channel_node_[c] = n;
      channel_port_[c] = static_cast<std::uint8_t>(p);
      ++c;
    }
  }
  // Every link must be symmetric: the way back from the neighbour is the reverse port.
  for (std::uint32_t n = 0; n < num_nodes_; ++n) {
    for (int p = 0; p < num_ports_; ++p) {
      const NodeId m = neighbor(NodeId(n), static_cast<PortId>(p));
      if (m.valid()) {
        require(neighbor(m, reverse_port(static_cast<PortId>(p))) == NodeId(n),
                "topology: a link is not symmetric");
      }
    }
  }
}

int Topology::degree(NodeId n) const {
  return std::popcount(port_mask_[n.value()]);
}

ChannelId Topology::channel(NodeId n, PortId p) const {
  const std::uint16_t mask = port_mask_[n.value()];
  if (!((mask >> p) & 1U)) return ChannelId::invalid();
  const auto below = static_cast<std::uint16_t>(mask & ((1U << p) - 1U));
  return ChannelId(channel_base_[n.value()] + static_cast<std::uint32_t>(std::popcount(below)));
}

std::string Topology::node_label(NodeId n) const {
  const Coord c = coords(n);
  std::string s = "(";
  for (int i = 0; i < c.n; ++i) {
    if (i) s += ',';
    s += std::to_string(c[i]);
  }
  return s + ")";
}

std::string Topology::channel_label(ChannelId c) const {
  return node_label(channel_source(c)) + " " + port_label(channel_port(c));
}

}  // namespace wormnet
