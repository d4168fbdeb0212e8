// The routing analysis as it was before states were merged and tori explored toward one
// destination: one RouteStateGraph per destination over every (channel, VC, state), Kahn's
// topological order, flows, longest paths and dependencies along it, and O(N^2) distance
// calls. Kept as a second algorithm for medium networks (where route enumeration would take
// too long): the analysis must give the same delivery figures, the same dependencies and the
// same loads (exactly for deterministic routings, to rounding for adaptive ones).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/verify/route_state_graph.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::test {

struct ReferenceAnalysis {
  DeliveryReport delivery;
  ChannelDependencyGraph cdg;
  std::vector<double> gamma;
  LoadReport loads;
};

namespace detail {

class ReferencePass {
 public:
  void run(const RouteStateGraph& g, const Topology& topo, ReferenceAnalysis& out) {
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
        hop_flow += flow_[u];
        out.gamma[g.channel_of(u).value()] += flow_[u];
      }
      for (const auto& e : g.successors(u)) {
        flow_[e.to] += flow_[u] * e.share;
        hops_[e.to] = std::max(hops_[e.to], hops_[u] + 1);
        if (on_channel) {
          out.cdg.add(g.channel_of(u), g.vc_of(u), topo.channel_port(g.channel_of(e.to)),
                      g.vc_of(e.to));
        }
        if (--indegree_[e.to] == 0) order_.push_back(e.to);
      }
    }
    DeliveryReport& d = out.delivery;
    if (order_.size() < n && d.ok) {
      d.ok = false;
      d.defect = "livelock";
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (g.terminal(i)) d.max_path = std::max(d.max_path, hops_[i]);
    }
    for (std::uint32_t i = 0; i < n && d.all_minimal; ++i) {
      const int here = topo.distance(g.state(i).node, g.dest());
      for (const auto& e : g.successors(i)) {
        if (topo.distance(g.state(e.to).node, g.dest()) != here - 1) d.all_minimal = false;
      }
    }
  }
  long double hop_flow = 0;

 private:
  std::vector<std::uint32_t> indegree_;
  std::vector<std::uint32_t> order_;
  std::vector<double> flow_;
  std::vector<int> hops_;
};

}  // namespace detail

inline ReferenceAnalysis reference_analysis(const Topology& topo, const RoutingFunction& routing,
                                            int vcs = 0) {
  if (vcs == 0) vcs = routing.vcs_required();
  ReferenceAnalysis out;
  out.cdg = ChannelDependencyGraph(topo, vcs);
  out.cdg.set_aside_ring_dependencies(routing.needs_bubble());
  out.gamma.assign(topo.num_channels(), 0.0);
  RouteStateGraph graph(topo, routing, vcs);
  detail::ReferencePass pass;
  long double minimal_sum = 0;
  const std::uint32_t n = topo.num_nodes();
  auto visit = [&]() {
    if (!graph.defect().empty() && out.delivery.ok) {
      out.delivery.ok = false;
      out.delivery.defect = graph.defect();
    }
    pass.run(graph, topo, out);
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
  d.average_path = d.pairs ? static_cast<double>(pass.hop_flow / d.pairs) : 0.0;
  LoadReport& l = out.loads;
  l.gamma = out.gamma;
  long double total = 0;
  for (double g : l.gamma) total += g;
  const auto channels = static_cast<long double>(l.gamma.size());
  l.pi = *std::max_element(l.gamma.begin(), l.gamma.end());
  l.min_load = *std::min_element(l.gamma.begin(), l.gamma.end());
  l.mean_load = static_cast<double>(total / channels);
  l.perfect_load = static_cast<double>(minimal_sum / channels);
  l.sigma4 = load_deviation(l.gamma, l.perfect_load, 4);
  l.saturation_rate = l.pi > 0 ? static_cast<double>(n - 1) / l.pi : 0.0;
  return out;
}

}  // namespace wormnet::test
