#include "wormnet/verify/channel_dependency_graph.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "graph_search.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

bool has_self_loop(const graph::Csr& g, std::uint32_t v) {
  for (std::uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
    if (g.targets[e] == v) return true;
  }
  return false;
}

}  // namespace

ChannelDependencyGraph::ChannelDependencyGraph(const Topology& topo, int vcs)
    : topo_(&topo), vcs_(vcs) {
  require(topo.num_ports() * vcs <= 64, "CDG: ports x VCs must fit a 64-bit mask");
  adj_.assign(static_cast<std::size_t>(topo.num_channels()) * static_cast<std::size_t>(vcs), 0);
}

bool ChannelDependencyGraph::has_dependency(ChannelId a, VcId va, ChannelId b, VcId vb) const {
  if (topo_ == nullptr || va >= vcs_ || vb >= vcs_) return false;
  if (topo_->channel_source(b) != topo_->channel_dest(a)) return false;
  const std::uint64_t bit = std::uint64_t{1} << (topo_->channel_port(b) * vcs_ + vb);
  return (adj_[static_cast<std::size_t>(a.value()) * static_cast<std::size_t>(vcs_) + va] & bit) !=
         0;
}

std::uint64_t ChannelDependencyGraph::num_edges() const {
  std::uint64_t n = 0;
  for (std::uint64_t bits : adj_) n += static_cast<std::uint64_t>(std::popcount(bits));
  return n;
}

std::uint64_t ChannelDependencyGraph::num_set_aside() const {
  if (!set_aside_rings_) return 0;
  std::uint64_t n = 0;
  const auto vcs = static_cast<std::uint32_t>(vcs_);
  for (std::uint32_t v = 0; v < adj_.size(); ++v) {
    const PortId in_port = topo_->channel_port(ChannelId(v / vcs));
    const std::uint64_t same = adj_[v] >> (in_port * vcs) & ((std::uint64_t{1} << vcs) - 1);
    n += static_cast<std::uint64_t>(std::popcount(same));
  }
  return n;
}

graph::Csr ChannelDependencyGraph::dependency_csr(bool all_edges) const {
  const bool skip_rings = set_aside_rings_ && !all_edges;
  const auto vcs = static_cast<std::uint32_t>(vcs_);
  // Successors in bit order (port * vcs + vc), as the adjacency words hold them.
  const auto row = [&](std::uint32_t v, auto&& emit) {
    const ChannelId c(v / vcs);
    const PortId in_port = topo_->channel_port(c);
    const NodeId head = topo_->channel_dest(c);
    for (std::uint64_t bits = adj_[v]; bits != 0; bits &= bits - 1) {
      const auto b = static_cast<std::uint32_t>(std::countr_zero(bits));
      const auto port = static_cast<PortId>(b / vcs);
      if (skip_rings && port == in_port) continue;
      emit(topo_->channel(head, port).value() * vcs + b % vcs);
    }
  };
  return graph::csr_from_rows(static_cast<std::uint32_t>(adj_.size()), row);
}

std::uint64_t ChannelDependencyGraph::vertices_on_cycles() const {
  const graph::Csr g = dependency_csr(false);
  std::uint32_t count = 0;
  const auto comp = graph::strongly_connected_components(g, count);
  std::vector<std::uint32_t> size(count, 0);
  for (std::uint32_t c : comp) ++size[c];
  std::uint64_t n = 0;
  for (std::uint32_t v = 0; v < comp.size(); ++v) {
    if (size[comp[v]] > 1 || has_self_loop(g, v)) ++n;
  }
  return n;
}

std::vector<ChannelDependencyGraph::Vertex> ChannelDependencyGraph::cycle_through_turn() const {
  std::uint32_t count = 0;
  const auto comp = graph::strongly_connected_components(dependency_csr(true), count);
  const auto vcs = static_cast<std::uint32_t>(vcs_);
  const auto n = static_cast<std::uint32_t>(adj_.size());
  auto successors = [&](std::uint32_t v, auto&& f) {
    const ChannelId c(v / vcs);
    const NodeId head = topo_->channel_dest(c);
    for (std::uint64_t bits = adj_[v]; bits != 0; bits &= bits - 1) {
      const auto b = static_cast<std::uint32_t>(std::countr_zero(bits));
      const auto port = static_cast<PortId>(b / vcs);
      f(topo_->channel(head, port).value() * vcs + b % vcs, port);
    }
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    const PortId in_port = topo_->channel_port(ChannelId(v / vcs));
    std::uint32_t turn_to = std::numeric_limits<std::uint32_t>::max();
    successors(v, [&](std::uint32_t w, PortId port) {
      if (port != in_port && comp[w] == comp[v]) turn_to = std::min(turn_to, w);
    });
    if (turn_to == std::numeric_limits<std::uint32_t>::max()) continue;
    // The turn v -> turn_to lies on a cycle: close it by a shortest path back to v.
    std::vector<std::uint32_t> parent(n, std::numeric_limits<std::uint32_t>::max());
    std::vector<std::uint32_t> frontier{turn_to};
    parent[turn_to] = turn_to;
    for (std::size_t head = 0;
         head < frontier.size() && parent[v] == std::numeric_limits<std::uint32_t>::max(); ++head) {
      const std::uint32_t x = frontier[head];
      successors(x, [&](std::uint32_t w, PortId) {
        if (comp[w] != comp[v] || parent[w] != std::numeric_limits<std::uint32_t>::max()) return;
        parent[w] = x;
        frontier.push_back(w);
      });
    }
    std::vector<std::uint32_t> back;
    for (std::uint32_t x = v; x != turn_to; x = parent[x]) back.push_back(x);
    back.push_back(turn_to);
    std::reverse(back.begin(), back.end());  // turn_to ... v
    std::vector<Vertex> out;
    out.push_back(Vertex{ChannelId(v / vcs), static_cast<VcId>(v % vcs)});
    for (std::size_t i = 0; i + 1 < back.size(); ++i) {
      out.push_back(Vertex{ChannelId(back[i] / vcs), static_cast<VcId>(back[i] % vcs)});
    }
    return out;
  }
  return {};
}

std::vector<ChannelDependencyGraph::Vertex> ChannelDependencyGraph::shortest_cycle() const {
  const graph::Csr g = dependency_csr(false);
  std::uint32_t count = 0;
  const auto comp = graph::strongly_connected_components(g, count);
  std::vector<std::uint32_t> size(count, 0);
  for (std::uint32_t c : comp) ++size[c];
  // Vertices are taken in ascending order: one alone in its component but with a self-loop
  // is the answer as soon as it is reached. The others are breadth-first search starts, up to
  // the first such self-loop; the search stops early once it holds a cycle of two.
  const std::uint32_t n = g.size();
  std::uint32_t self = n;
  for (std::uint32_t v = 0; v < n && self == n; ++v) {
    if (size[comp[v]] < 2 && has_self_loop(g, v)) self = v;
  }
  std::vector<std::uint32_t> starts;
  for (std::uint32_t v = 0; v < self; ++v) {
    if (size[comp[v]] > 1) starts.push_back(v);
  }
  graph::CycleSearch found = graph::shortest_cycle(g, comp, starts, 2);
  // Searched every start without stopping early: the scan reaches the self-loop.
  if (self < n && found.searched == starts.size()) found.cycle.assign(1, self);
  std::vector<Vertex> out;
  const auto vcs = static_cast<std::uint32_t>(vcs_);
  for (std::uint32_t v : found.cycle) {
    out.push_back(Vertex{ChannelId(v / vcs), static_cast<VcId>(v % vcs)});
  }
  return out;
}

std::string ChannelDependencyGraph::describe(const Vertex& v) const {
  return topo_->channel_label(v.channel) + " vc" + std::to_string(v.vc);
}

}  // namespace wormnet
