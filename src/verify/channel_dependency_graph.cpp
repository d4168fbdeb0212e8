#include "wormnet/verify/channel_dependency_graph.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "wormnet/core/error.hpp"

namespace wormnet {

ChannelDependencyGraph::ChannelDependencyGraph(const Topology& topo, int vcs)
    : topo_(&topo), vcs_(vcs) {
  require(topo.num_ports() * vcs <= 64, "CDG: ports x VCs must fit a 64-bit mask");
  adj_.assign(static_cast<std::size_t>(topo.num_channels()) * static_cast<std::size_t>(vcs), 0);
}

template <class F>
void ChannelDependencyGraph::for_each_successor(std::uint32_t v, F&& f) const {
  const auto vcs = static_cast<std::uint32_t>(vcs_);
  const ChannelId c(v / vcs);
  const PortId in_port = topo_->channel_port(c);
  const NodeId head = topo_->channel_dest(c);
  std::uint64_t bits = adj_[v];
  while (bits) {
    const auto b = static_cast<std::uint32_t>(std::countr_zero(bits));
    bits &= bits - 1;
    const auto port = static_cast<PortId>(b / vcs);
    if (set_aside_rings_ && port == in_port) continue;
    f(topo_->channel(head, port).value() * vcs + b % vcs);
  }
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

// Iterative Tarjan: returns the component of every vertex; `components` = how many.
std::vector<std::uint32_t> ChannelDependencyGraph::strongly_connected_components(
    std::uint32_t& components, bool all_edges) const {
  const bool skip_rings = set_aside_rings_ && !all_edges;
  constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
  const auto n = static_cast<std::uint32_t>(adj_.size());
  std::vector<std::uint32_t> index(n, kUnset);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint32_t> comp(n, kUnset);
  std::vector<std::uint32_t> stack;
  std::vector<std::uint8_t> on_stack(n, 0);
  struct Frame {
    std::uint32_t v;
    std::uint64_t remaining;  // successor bits not yet visited
  };
  std::vector<Frame> call;
  std::uint32_t next = 0;
  components = 0;
  const auto vcs = static_cast<std::uint32_t>(vcs_);
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kUnset) continue;
    call.push_back({root, adj_[root]});
    index[root] = low[root] = next++;
    stack.push_back(root);
    on_stack[root] = 1;
    while (!call.empty()) {
      Frame& f = call.back();
      const ChannelId c(f.v / vcs);
      const PortId in_port = topo_->channel_port(c);
      bool descended = false;
      while (f.remaining) {
        const auto b = static_cast<std::uint32_t>(std::countr_zero(f.remaining));
        f.remaining &= f.remaining - 1;
        const auto port = static_cast<PortId>(b / vcs);
        if (skip_rings && port == in_port) continue;
        const std::uint32_t w =
            topo_->channel(topo_->channel_dest(c), port).value() * vcs + b % vcs;
        if (index[w] == kUnset) {
          index[w] = low[w] = next++;
          stack.push_back(w);
          on_stack[w] = 1;
          call.push_back({w, adj_[w]});
          descended = true;
          break;
        }
        if (on_stack[w]) low[f.v] = std::min(low[f.v], index[w]);
      }
      if (descended) continue;
      const std::uint32_t v = f.v;
      call.pop_back();
      if (!call.empty()) low[call.back().v] = std::min(low[call.back().v], low[v]);
      if (low[v] == index[v]) {
        while (true) {
          const std::uint32_t w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          comp[w] = components;
          if (w == v) break;
        }
        ++components;
      }
    }
  }
  return comp;
}

std::uint64_t ChannelDependencyGraph::vertices_on_cycles() const {
  std::uint32_t count = 0;
  const auto comp = strongly_connected_components(count);
  std::vector<std::uint32_t> size(count, 0);
  for (std::uint32_t c : comp) ++size[c];
  std::uint64_t n = 0;
  for (std::uint32_t v = 0; v < comp.size(); ++v) {
    bool self = false;
    for_each_successor(v, [&](std::uint32_t w) { self = self || w == v; });
    if (size[comp[v]] > 1 || self) ++n;
  }
  return n;
}

std::vector<ChannelDependencyGraph::Vertex> ChannelDependencyGraph::cycle_through_turn() const {
  std::uint32_t count = 0;
  const auto comp = strongly_connected_components(count, true);
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
  std::uint32_t count = 0;
  const auto comp = strongly_connected_components(count);
  std::vector<std::uint32_t> size(count, 0);
  for (std::uint32_t c : comp) ++size[c];

  const auto n = static_cast<std::uint32_t>(adj_.size());
  std::vector<std::uint32_t> best;
  std::vector<std::uint32_t> stamp(n, 0);
  std::vector<std::uint32_t> parent(n, 0);
  std::vector<std::uint32_t> depth(n, 0);
  std::vector<std::uint32_t> frontier;
  std::uint32_t epoch = 0;
  // Breadth-first search from every vertex on a cycle, within its component and no deeper
  // than the best cycle so far: exact, and cheap when the shortest cycle is short.
  for (std::uint32_t start = 0; start < n; ++start) {
    if (size[comp[start]] < 2) {
      bool self = false;
      for_each_successor(start, [&](std::uint32_t w) { self = self || w == start; });
      if (self)
        return {Vertex{ChannelId(start / static_cast<std::uint32_t>(vcs_)),
                       static_cast<VcId>(start % static_cast<std::uint32_t>(vcs_))}};
      continue;
    }
    if (!best.empty() && best.size() <= 2) break;
    ++epoch;
    frontier.assign(1, start);
    stamp[start] = epoch;
    depth[start] = 0;
    std::uint32_t found_from = std::numeric_limits<std::uint32_t>::max();
    const std::size_t limit = best.empty() ? n : best.size() - 1;  // deeper cannot improve
    for (std::size_t head = 0;
         head < frontier.size() && found_from == std::numeric_limits<std::uint32_t>::max();
         ++head) {
      const std::uint32_t v = frontier[head];
      if (depth[v] >= limit) break;
      for_each_successor(v, [&](std::uint32_t w) {
        if (found_from != std::numeric_limits<std::uint32_t>::max()) return;
        if (w == start) {
          found_from = v;
          return;
        }
        if (comp[w] != comp[start] || stamp[w] == epoch) return;
        stamp[w] = epoch;
        parent[w] = v;
        depth[w] = depth[v] + 1;
        frontier.push_back(w);
      });
    }
    if (found_from == std::numeric_limits<std::uint32_t>::max()) continue;
    std::vector<std::uint32_t> cycle;
    for (std::uint32_t v = found_from; v != start; v = parent[v]) cycle.push_back(v);
    cycle.push_back(start);
    std::reverse(cycle.begin(), cycle.end());
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  std::vector<Vertex> out;
  for (std::uint32_t v : best) {
    out.push_back(Vertex{ChannelId(v / static_cast<std::uint32_t>(vcs_)),
                         static_cast<VcId>(v % static_cast<std::uint32_t>(vcs_))});
  }
  return out;
}

std::string ChannelDependencyGraph::describe(const Vertex& v) const {
  return topo_->channel_label(v.channel) + " vc" + std::to_string(v.vc);
}

}  // namespace wormnet
