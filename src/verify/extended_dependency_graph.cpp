#include "wormnet/verify/extended_dependency_graph.hpp"

#include <algorithm>
#include <limits>

#include "wormnet/core/error.hpp"
#include "wormnet/verify/route_state_graph.hpp"

namespace wormnet {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// A directed graph in compressed rows.
struct Csr {
  std::vector<std::uint32_t> offsets;  // size V + 1
  std::vector<std::uint32_t> targets;
  [[nodiscard]] std::uint32_t size() const {
    return static_cast<std::uint32_t>(offsets.size() - 1);
  }
};

Csr to_csr(std::uint32_t vertices, std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  Csr g;
  g.offsets.assign(static_cast<std::size_t>(vertices) + 1, 0);
  for (const auto& e : edges) ++g.offsets[e.first + 1];
  for (std::uint32_t v = 0; v < vertices; ++v) g.offsets[v + 1] += g.offsets[v];
  g.targets.reserve(edges.size());
  for (const auto& e : edges) g.targets.push_back(e.second);
  return g;
}

/// Iterative Tarjan: component of every vertex.
std::vector<std::uint32_t> components(const Csr& g, std::uint32_t& count) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> index(n, kNone);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint32_t> comp(n, kNone);
  std::vector<std::uint32_t> stack;
  std::vector<std::uint8_t> on_stack(n, 0);
  struct Frame {
    std::uint32_t v;
    std::uint32_t next;  // next edge to look at
  };
  std::vector<Frame> call;
  std::uint32_t counter = 0;
  count = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    call.push_back({root, g.offsets[root]});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = 1;
    while (!call.empty()) {
      Frame& f = call.back();
      bool descended = false;
      while (f.next < g.offsets[f.v + 1]) {
        const std::uint32_t w = g.targets[f.next++];
        if (index[w] == kNone) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = 1;
          call.push_back({w, g.offsets[w]});
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
          comp[w] = count;
          if (w == v) break;
        }
        ++count;
      }
    }
  }
  return comp;
}

/// A shortest cycle through one of the `starts` (breadth-first within its component, no
/// deeper than the best so far), at most `budget` searches; empty when there is none.
std::vector<std::uint32_t> shortest_cycle(const Csr& g, const std::vector<std::uint32_t>& comp,
                                          const std::vector<std::uint32_t>& starts,
                                          std::uint64_t budget, bool& exhausted) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> stamp(n, 0);
  std::vector<std::uint32_t> parent(n, 0);
  std::vector<std::uint32_t> depth(n, 0);
  std::vector<std::uint32_t> frontier;
  std::vector<std::uint32_t> best;
  std::uint32_t epoch = 0;
  exhausted = false;
  for (const std::uint32_t start : starts) {
    if (!best.empty() && best.size() <= 2) break;
    if (budget-- == 0) {
      exhausted = true;
      break;
    }
    ++epoch;
    frontier.assign(1, start);
    stamp[start] = epoch;
    depth[start] = 0;
    std::uint32_t closing = kNone;
    const std::size_t limit = best.empty() ? n : best.size() - 1;
    for (std::size_t head = 0; head < frontier.size() && closing == kNone; ++head) {
      const std::uint32_t v = frontier[head];
      if (depth[v] >= limit) break;
      for (std::uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
        const std::uint32_t w = g.targets[e];
        if (w == start) {
          closing = v;
          break;
        }
        if (comp[w] != comp[start] || stamp[w] == epoch) continue;
        stamp[w] = epoch;
        parent[w] = v;
        depth[w] = depth[v] + 1;
        frontier.push_back(w);
      }
    }
    if (closing == kNone) continue;
    std::vector<std::uint32_t> cycle;
    for (std::uint32_t v = closing; v != start; v = parent[v]) cycle.push_back(v);
    cycle.push_back(start);
    std::reverse(cycle.begin(), cycle.end());
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return best;
}

}  // namespace

DuatoReport check_duato(const Topology& topo, const RoutingFunction& routing, int vcs) {
  if (vcs <= 0) vcs = routing.vcs_required();
  DuatoReport report;
  report.escape_vcs = routing.escape_vcs();
  require(report.escape_vcs != 0, "check_duato: the routing has no escape VCs");
  const auto uvcs = static_cast<std::uint32_t>(vcs);
  // Physical VCs of the escape classes (class = VC mod the routing's VC count).
  const int classes = routing.vcs_required();
  std::uint32_t escape_phys = 0;
  for (int v = 0; v < vcs; ++v) {
    if ((report.escape_vcs >> (v % classes)) & 1U) escape_phys |= 1U << v;
  }
  auto is_escape = [&](VcId v) { return ((escape_phys >> v) & 1U) != 0; };

  // Vertices: escape (channel, VC) pairs first, by global id; then adaptive states, appended
  // per destination.
  const std::uint64_t escape_ids = static_cast<std::uint64_t>(topo.num_channels()) * uvcs;
  require(escape_ids < kNone, "check_duato: too many channels");
  std::vector<std::uint8_t> escape_used(escape_ids, 0);
  std::vector<DuatoReport::Step> adaptive;  // meta of appended vertices
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;

  RouteStateGraph graph(topo, routing, vcs);
  std::vector<std::uint32_t> local;  // state -> vertex id of an adaptive state, or kNone
  std::vector<std::uint32_t> queue;
  const std::uint32_t n = topo.num_nodes();
  auto explore_dest = [&](NodeId d) {
    const std::uint32_t size = graph.size();
    // (1) every non-terminal state offers an escape step.
    if (report.disconnected.empty()) {
      for (std::uint32_t i = 0; i < size; ++i) {
        if (graph.terminal(i)) continue;
        bool escape = false;
        for (const auto& e : graph.successors(i)) escape = escape || is_escape(graph.vc_of(e.to));
        if (!escape && !graph.successors(i).empty()) {
          report.disconnected = graph.describe(i);
          break;
        }
      }
    }
    // (2) escape channels and the adaptive states that can follow one.
    local.assign(size, kNone);
    queue.clear();
    auto vertex = [&](std::uint32_t i) -> std::uint32_t {
      if (is_escape(graph.vc_of(i))) {
        const std::uint32_t id = graph.channel_of(i).value() * uvcs + graph.vc_of(i);
        escape_used[id] = 1;
        return id;
      }
      if (local[i] == kNone) {
        local[i] = static_cast<std::uint32_t>(escape_ids + adaptive.size());
        adaptive.push_back(DuatoReport::Step{graph.channel_of(i), graph.vc_of(i), false, d});
        queue.push_back(i);
      }
      return local[i];
    };
    for (std::uint32_t i = 0; i < size; ++i) {
      if (graph.is_injection(i) || !is_escape(graph.vc_of(i))) continue;
      const std::uint32_t from = vertex(i);
      for (const auto& e : graph.successors(i)) edges.emplace_back(from, vertex(e.to));
    }
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::uint32_t i = queue[q];
      const std::uint32_t from = local[i];
      for (const auto& e : graph.successors(i)) edges.emplace_back(from, vertex(e.to));
    }
    require(escape_ids + adaptive.size() < kNone, "check_duato: extended graph too large");
  };
  for (std::uint32_t d = 0; d < n; ++d) {
    if (routing.source_dependent()) {
      for (std::uint32_t s = 0; s < n; ++s) {
        if (s == d) continue;
        graph.explore(NodeId(d), NodeId(s));
        explore_dest(NodeId(d));
      }
    } else {
      graph.explore(NodeId(d));
      explore_dest(NodeId(d));
    }
  }

  const auto vertices = static_cast<std::uint32_t>(escape_ids + adaptive.size());
  const Csr g = to_csr(vertices, edges);
  for (std::uint64_t v = 0; v < escape_ids; ++v) report.escape_vertices += escape_used[v];
  report.adaptive_states = adaptive.size();
  // Distinct direct dependencies are the (de-duplicated) edges between escape vertices; the
  // others bridge indirect dependencies.
  for (std::uint32_t v = 0; v < escape_ids; ++v) {
    for (std::uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      report.direct += g.targets[e] < escape_ids ? 1 : 0;
    }
  }
  report.indirect_edges = g.targets.size() - report.direct;

  std::uint32_t count = 0;
  const std::vector<std::uint32_t> comp = components(g, count);
  std::vector<std::uint32_t> comp_size(count, 0);
  for (const std::uint32_t c : comp) ++comp_size[c];
  std::vector<std::uint32_t> starts;
  for (std::uint32_t v = 0; v < escape_ids; ++v) {
    if (comp_size[comp[v]] > 1) starts.push_back(v);
  }
  if (starts.empty()) {
    // No escape vertex on a cycle; adaptive states alone cannot close one when delivery
    // holds, but look anyway so that a livelocked routing is not called deadlock-free.
    for (std::uint32_t v = static_cast<std::uint32_t>(escape_ids); v < vertices; ++v) {
      if (comp_size[comp[v]] > 1) starts.push_back(v);
    }
  }
  if (starts.empty()) return report;
  bool exhausted = false;
  const std::vector<std::uint32_t> cycle = shortest_cycle(g, comp, starts, 20000, exhausted);
  report.shortest = !exhausted;
  for (const std::uint32_t v : cycle) {
    if (v < escape_ids) {
      report.cycle.push_back(DuatoReport::Step{ChannelId(v / uvcs), static_cast<VcId>(v % uvcs),
                                               true, NodeId::invalid()});
    } else {
      report.cycle.push_back(adaptive[v - escape_ids]);
    }
  }
  return report;
}

std::string describe_step(const Topology& topo, const DuatoReport::Step& s) {
  std::string text = topo.channel_label(s.channel) + " vc" + std::to_string(s.vc);
  if (!s.escape) text += " (adaptive, toward " + topo.node_label(s.dest) + ")";
  return text;
}

}  // namespace wormnet
