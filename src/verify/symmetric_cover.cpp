#include "symmetric_cover.hpp"

#include <bit>

#include "wormnet/core/error.hpp"

namespace wormnet::detail {

std::vector<NodeId> orbit_representatives(const std::vector<NetworkSymmetry>& group,
                                          std::uint32_t nodes) {
  std::vector<NodeId> out;
  for (std::uint32_t v = 0; v < nodes; ++v) {
    bool smallest = true;
    for (const NetworkSymmetry& g : group) smallest = smallest && g.node[v].value() >= v;
    if (smallest) out.push_back(NodeId(v));
  }
  return out;
}

std::uint32_t stabilizer(const std::vector<NetworkSymmetry>& group, NodeId d) {
  require(group.size() <= 32, "routing analysis: more than 32 symmetries");
  std::uint32_t mask = 0;
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (group[i].node[d.value()] == d) mask |= 1U << i;
  }
  return mask;
}

std::vector<std::size_t> orbit_movers(const std::vector<NetworkSymmetry>& group, NodeId d) {
  std::vector<std::size_t> out;
  std::vector<NodeId> seen;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const NodeId image = group[i].node[d.value()];
    bool fresh = true;
    for (NodeId s : seen) fresh = fresh && s != image;
    if (!fresh) continue;
    seen.push_back(image);
    out.push_back(i);
  }
  return out;
}

namespace {

/// The image of channel c under g.
ChannelId image(const Topology& topo, const NetworkSymmetry& g, ChannelId c) {
  const PortId p = topo.channel_port(c);
  return topo.channel(g.node[topo.channel_source(c).value()], g.port[p]);
}

}  // namespace

void add_images(const Topology& topo, const NetworkSymmetry& g, std::span<const ExactSum> in,
                std::span<ExactSum> out) {
  for (std::uint32_t c = 0; c < in.size(); ++c) {
    out[image(topo, g, ChannelId(c)).value()].add(in[c]);
  }
}

void add_dependency_images(const Topology& topo, const std::vector<NetworkSymmetry>& group, int vcs,
                           std::span<std::uint64_t> words) {
  const auto v = static_cast<std::size_t>(vcs);
  const std::vector<std::uint64_t> seen(words.begin(), words.end());
  for (const NetworkSymmetry& g : group) {
    for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
      const PortId p = topo.channel_port(ChannelId(c));
      const std::size_t to = image(topo, g, ChannelId(c)).value();
      for (std::size_t x = 0; x < v; ++x) {
        std::uint64_t mapped = 0;
        for (std::uint64_t bits = seen[c * v + x]; bits != 0; bits &= bits - 1) {
          const auto b = static_cast<std::size_t>(std::countr_zero(bits));
          const auto q = static_cast<std::size_t>(b / v);
          mapped |= std::uint64_t{1} << (g.port[q] * v + g.vc[q][b % v]);
        }
        words[to * v + g.vc[p][x]] |= mapped;
      }
    }
  }
}

}  // namespace wormnet::detail
