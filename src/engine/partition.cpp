#include "wormnet/engine/partition.hpp"

#include "wormnet/core/error.hpp"

namespace wormnet {

Partition::Partition(std::vector<std::uint16_t> owner, int parts, std::string method)
    : owner_(std::move(owner)), parts_(parts), method_(std::move(method)) {
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(parts), 0);
  for (auto o : owner_) {
    require(o < parts, "partition: owner out of range");
    seen[o] = 1;
  }
  for (auto s : seen) require(s != 0, "partition: a rank owns no node");
}

Partition Partition::blocks(const Topology& topo, int parts) {
  const std::uint64_t n = topo.num_nodes();
  if (parts < 1 || static_cast<std::uint64_t>(parts) > n || parts > 65535) {
    throw InputError("ranks", std::to_string(parts),
                     "need between 1 and min(nodes, 65535) ranks for " + topo.spec());
  }
  std::vector<std::uint16_t> owner(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    owner[i] = static_cast<std::uint16_t>(i * static_cast<std::uint64_t>(parts) / n);
  }
  return Partition(std::move(owner), parts, "blocks");
}

std::vector<std::uint32_t> Partition::nodes_of(int part) const {
  std::vector<std::uint32_t> nodes;
  for (std::uint32_t i = 0; i < owner_.size(); ++i) {
    if (owner_[i] == part) nodes.push_back(i);
  }
  return nodes;
}

std::uint64_t Partition::edge_cut(const Topology& topo) const {
  std::uint64_t cut = 0;
  for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
    const ChannelId ch(c);
    if (owner(topo.channel_source(ch)) != owner(topo.channel_dest(ch))) ++cut;
  }
  return cut / 2;
}

}  // namespace wormnet
