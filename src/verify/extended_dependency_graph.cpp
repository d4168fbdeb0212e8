#include "wormnet/verify/extended_dependency_graph.hpp"

#include "graph_search.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/verify/route_state_graph.hpp"

namespace wormnet {

namespace {

constexpr std::uint32_t kNone = graph::kNoVertex;

}  // namespace

DuatoReport check_duato(const Topology& topo, const RoutingFunction& routing, int vcs,
                        const FaultSet* faults) {
  const auto failed = [&](std::uint32_t v) {
    return faults != nullptr && faults->node_failed(NodeId(v));
  };
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

  RouteStateGraph graph(topo, routing, vcs, faults);
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
    if (failed(d)) continue;
    if (routing.source_dependent()) {
      for (std::uint32_t s = 0; s < n; ++s) {
        if (s == d || failed(s)) continue;
        graph.explore(NodeId(d), NodeId(s));
        explore_dest(NodeId(d));
      }
    } else {
      graph.explore(NodeId(d));
      explore_dest(NodeId(d));
    }
  }

  const auto vertices = static_cast<std::uint32_t>(escape_ids + adaptive.size());
  const graph::Csr g = graph::csr_from_edges(vertices, edges);
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
  const std::vector<std::uint32_t> comp = graph::strongly_connected_components(g, count);
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
  // At most 20000 searches (each breadth-first within the start's component); stop at a cycle
  // of two.
  const graph::CycleSearch found = graph::shortest_cycle(g, comp, starts, 2, 20000);
  report.shortest = !found.exhausted;
  for (const std::uint32_t v : found.cycle) {
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
