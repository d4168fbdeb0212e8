#include "wormnet/verify/routing_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "wormnet/verify/route_state_graph.hpp"

namespace wormnet {

double load_deviation(const std::vector<double>& gamma, double perfect, int k) {
  if (gamma.empty()) return 0.0;
  long double sum = 0;
  for (double g : gamma) sum += std::pow(static_cast<long double>(std::fabs(perfect - g)), k);
  return static_cast<double>(std::pow(sum / static_cast<long double>(gamma.size()), 1.0L / k));
}

namespace {

/// Per-destination pass over one explored state graph: topological order (Kahn), which
/// doubles as the livelock check, then flows and longest paths along that order.
class DestinationPass {
 public:
  void run(const RouteStateGraph& g, const Topology& topo, bool loads, RoutingAnalysis& out,
           ChannelDependencyGraph* cdg) {
    const std::uint32_t n = g.size();
    indegree_.assign(n, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      for (const auto& e : g.successors(i)) ++indegree_[e.to];
    }
    order_.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (indegree_[i] == 0) order_.push_back(i);
    }
    flow_.assign(n, 0.0);
    hops_.assign(n, 0);
    // Roots come first; a source's unit is split over the initial choices it may draw.
    for (std::uint32_t i = 0; i < g.num_roots(); ++i) flow_[i] = g.root_weight(i);
    for (std::size_t head = 0; head < order_.size(); ++head) {
      const std::uint32_t u = order_[head];
      const bool on_channel = !g.is_injection(u);
      if (on_channel) {
        hop_flow_ += flow_[u];  // every channel state entered adds one hop, flow-weighted
        if (loads) out.loads.gamma[g.channel_of(u).value()] += flow_[u];
      }
      for (const auto& e : g.successors(u)) {
        flow_[e.to] += flow_[u] * e.share;
        hops_[e.to] = std::max(hops_[e.to], hops_[u] + 1);
        if (cdg != nullptr && on_channel) {
          cdg->add(g.channel_of(u), g.vc_of(u), topo.channel_port(g.channel_of(e.to)),
                   g.vc_of(e.to));
        }
        if (--indegree_[e.to] == 0) order_.push_back(e.to);
      }
    }
    DeliveryReport& d = out.delivery;
    if (order_.size() < n && d.ok) {
      d.ok = false;
      for (std::uint32_t i = 0; i < n; ++i) {
        if (indegree_[i] > 0) {
          d.defect = "livelock: routing states form a cycle through " + g.describe(i);
          break;
        }
      }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (g.terminal(i)) d.max_path = std::max(d.max_path, hops_[i]);
    }
  }

 private:
  std::vector<std::uint32_t> indegree_;
  std::vector<std::uint32_t> order_;
  std::vector<double> flow_;
  std::vector<int> hops_;

 public:
  long double hop_flow_ = 0;  ///< sum over pairs of the expected hop count
};

/// Whether every route to g.dest() is minimal: the longest path to each terminal state,
/// started from a single root, equals the source's distance. Checked per source for
/// source-dependent routings; for the others, by a shortest/longest comparison per root.
bool routes_minimal(const RouteStateGraph& g, const Topology& topo) {
  // Distance-to-destination must drop by exactly one on every step.
  for (std::uint32_t i = 0; i < g.size(); ++i) {
    const int here = topo.distance(g.state(i).node, g.dest());
    for (const auto& e : g.successors(i)) {
      if (topo.distance(g.state(e.to).node, g.dest()) != here - 1) return false;
    }
  }
  return true;
}

}  // namespace

RoutingAnalysis analyze_routing(const Topology& topo, const RoutingFunction& routing,
                                const AnalysisOptions& options) {
  const int vcs = options.vcs > 0 ? options.vcs : routing.vcs_required();
  RoutingAnalysis out;
  if (options.cdg) {
    out.cdg = ChannelDependencyGraph(topo, vcs);
    out.cdg.set_aside_ring_dependencies(routing.needs_bubble());
  }
  if (options.loads) out.loads.gamma.assign(topo.num_channels(), 0.0);

  RouteStateGraph graph(topo, routing, vcs);
  DestinationPass pass;
  long double minimal_sum = 0;
  const std::uint32_t n = topo.num_nodes();
  auto visit = [&]() {
    if (!graph.defect().empty() && out.delivery.ok) {
      out.delivery.ok = false;
      out.delivery.defect = graph.defect();
    }
    pass.run(graph, topo, options.loads, out, options.cdg ? &out.cdg : nullptr);
    if (out.delivery.all_minimal) out.delivery.all_minimal = routes_minimal(graph, topo);
  };
  for (std::uint32_t d = 0; d < n; ++d) {
    if (routing.source_dependent()) {
      for (std::uint32_t s = 0; s < n; ++s) {
        if (s == d) continue;
        graph.explore(NodeId(d), NodeId(s));
        visit();
      }
    } else {
      graph.explore(NodeId(d));
      visit();
    }
    for (std::uint32_t s = 0; s < n; ++s) minimal_sum += topo.distance(NodeId(s), NodeId(d));
  }

  DeliveryReport& d = out.delivery;
  d.pairs = static_cast<std::uint64_t>(n) * (n - 1);
  d.average_minimal = d.pairs ? static_cast<double>(minimal_sum / d.pairs) : 0.0;

  if (options.loads) {
    LoadReport& l = out.loads;
    long double total = 0;
    for (double g : l.gamma) total += g;
    const auto channels = static_cast<long double>(l.gamma.size());
    l.pi = l.gamma.empty() ? 0.0 : *std::max_element(l.gamma.begin(), l.gamma.end());
    l.min_load = l.gamma.empty() ? 0.0 : *std::min_element(l.gamma.begin(), l.gamma.end());
    l.mean_load = channels > 0 ? static_cast<double>(total / channels) : 0.0;
    l.perfect_load = channels > 0 ? static_cast<double>(minimal_sum / channels) : 0.0;
    l.sigma4 = load_deviation(l.gamma, l.perfect_load, 4);
    l.saturation_rate = l.pi > 0 ? static_cast<double>(n - 1) / l.pi : 0.0;
  }
  d.average_path = d.pairs ? static_cast<double>(pass.hop_flow_ / d.pairs) : 0.0;
  return out;
}

}  // namespace wormnet
