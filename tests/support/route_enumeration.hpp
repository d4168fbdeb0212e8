// Independent reference for the routing analyses. It walks the routes of every ordered pair
// (source, destination) by explicit depth-first search, straight from RoutingFunction::route,
// and derives from those walks the channel dependencies, the channel loads (even split) and
// the path lengths. It shares no code with RouteStateGraph, analyze_routing or
// ChannelDependencyGraph: a second algorithm to compare them with, written from the
// definitions rather than from their code.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bfs.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet::test {

/// A CDG vertex: channel * vcs + vc.
using DepVertex = std::uint32_t;
/// A dependency: a packet may hold `first` and request `second` next.
using Dependency = std::pair<DepVertex, DepVertex>;

struct EnumeratedRoutes {
  /// First defect seen ("dead end", "leaves the network", "illegal VC", "livelock"), or empty.
  std::string defect;
  std::set<Dependency> dependencies;
  /// Routes per directed channel, one unit per pair split evenly over the options at each
  /// step and then over the VCs of an option. Filled only by enumerate_paths().
  std::vector<double> gamma;
  std::uint64_t paths = 0;     ///< complete routes walked (enumerate_paths only)
  int max_hops = 0;            ///< longest route (enumerate_paths only)
  double expected_hops = 0.0;  ///< sum over pairs of the even-split mean hops
  bool all_shortest = true;    ///< every route's length equals the BFS distance
};

namespace detail {

/// One routing state of a packet: where its head is, how it got there, and its state.
struct WalkState {
  NodeId node;
  PortId in_port = kInjectionPort;
  VcId in_vc = 0;
  RouteState state = 0;
  bool operator==(const WalkState&) const = default;
  auto operator<=>(const WalkState& o) const {
    return std::tuple(node.value(), in_port, in_vc, state) <=>
           std::tuple(o.node.value(), o.in_port, o.in_vc, o.state);
  }
};

/// One expanded step: the channel and VC taken and the state it leads to, with its share.
struct WalkStep {
  ChannelId channel;
  VcId vc;
  WalkState next;
  double share;
};

/// Expands one state by the routing function, checking every option against the network.
/// Records the first defect in `defect`.
inline std::vector<WalkStep> expand(const Topology& topo, const RoutingFunction& routing, int vcs,
                                    NodeId source, NodeId dest, const WalkState& at,
                                    std::string& defect) {
  RouteRequest request;
  request.node = at.node;
  request.source = source;
  request.dest = dest;
  request.in_port = at.in_port;
  request.in_vc = at.in_vc;
  request.state = at.state;
  RouteOptions options;
  routing.route(request, options);
  std::vector<WalkStep> steps;
  const auto where = [&] {
    return " at node " + topo.node_label(at.node) + " bound for " + topo.node_label(dest);
  };
  if (options.empty() && defect.empty()) defect = "dead end" + where();
  for (const RouteOption& o : options) {
    const NodeId next =
        o.port < topo.num_ports() ? topo.neighbor(at.node, o.port) : NodeId::invalid();
    if (!next.valid()) {
      if (defect.empty()) defect = "leaves the network" + where();
      continue;
    }
    if (o.vcs == 0 || (o.vcs >> vcs) != 0 ||
        o.next_state >= static_cast<RouteState>(routing.state_count())) {
      if (defect.empty()) defect = "illegal VC or state" + where();
      continue;
    }
    const double share = 1.0 / options.size() / std::popcount(static_cast<unsigned>(o.vcs));
    for (int v = 0; v < vcs; ++v) {
      if (((o.vcs >> v) & 1U) == 0) continue;
      steps.push_back(WalkStep{
          topo.channel(at.node, o.port), static_cast<VcId>(v),
          WalkState{next, Topology::reverse_port(o.port), static_cast<VcId>(v), o.next_state},
          share});
    }
  }
  return steps;
}

class PathWalker {
 public:
  PathWalker(const Topology& topo, const RoutingFunction& routing, int vcs, std::uint64_t max_paths,
             EnumeratedRoutes& out)
      : topo_(topo), routing_(routing), vcs_(vcs), max_paths_(max_paths), out_(out) {}

  void pair(NodeId source, NodeId dest, int shortest) {
    source_ = source;
    dest_ = dest;
    shortest_ = shortest;
    // Each initial choice a packet may draw is equally likely.
    const int choices = routing_.initial_choices();
    for (int c = 0; c < choices; ++c) {
      path_.clear();
      walk(WalkState{source, kInjectionPort, 0, routing_.chosen_initial_state(source, dest, c)},
           std::nullopt, 1.0 / choices, 0);
    }
  }

 private:
  void walk(const WalkState& at, std::optional<DepVertex> held, double weight, int hops) {
    if (!out_.defect.empty()) return;
    if (at.node == dest_) {
      ++out_.paths;
      if (out_.paths > max_paths_) out_.defect = "too many paths for the enumeration";
      out_.max_hops = std::max(out_.max_hops, hops);
      out_.expected_hops += weight * hops;
      out_.all_shortest = out_.all_shortest && hops == shortest_;
      return;
    }
    // The routing is a pure function of the state: meeting a state again on the same route
    // means the packet can go round that loop forever.
    if (std::find(path_.begin(), path_.end(), at) != path_.end()) {
      out_.defect = "livelock at node " + topo_.node_label(at.node);
      return;
    }
    path_.push_back(at);
    for (const WalkStep& s : expand(topo_, routing_, vcs_, source_, dest_, at, out_.defect)) {
      const DepVertex v = s.channel.value() * static_cast<DepVertex>(vcs_) + s.vc;
      if (held) out_.dependencies.emplace(*held, v);
      out_.gamma[s.channel.value()] += weight * s.share;
      walk(s.next, v, weight * s.share, hops + 1);
    }
    path_.pop_back();
  }

  const Topology& topo_;
  const RoutingFunction& routing_;
  int vcs_;
  std::uint64_t max_paths_;
  EnumeratedRoutes& out_;
  NodeId source_;
  NodeId dest_;
  int shortest_ = 0;
  std::vector<WalkState> path_;
};

}  // namespace detail

/// Walks every route of every ordered pair s != d, one by one (exponential in general: only
/// for small networks; gives up with a defect past `max_paths` routes).
inline EnumeratedRoutes enumerate_paths(const Topology& topo, const RoutingFunction& routing,
                                        int vcs, std::uint64_t max_paths = 5'000'000) {
  EnumeratedRoutes out;
  out.gamma.assign(topo.num_channels(), 0.0);
  detail::PathWalker walker(topo, routing, vcs, max_paths, out);
  for (std::uint32_t s = 0; s < topo.num_nodes(); ++s) {
    const std::vector<int> dist = bfs_distances(topo, NodeId(s));
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (d != s) walker.pair(NodeId(s), NodeId(d), dist[d]);
    }
  }
  return out;
}

/// The dependencies only, by a depth-first search per pair that visits each routing state
/// once (polynomial: for the medium sizes where enumerating routes would take too long).
/// Defects are reported like enumerate_paths(), except livelock (which needs the paths).
inline EnumeratedRoutes reachable_dependencies(const Topology& topo, const RoutingFunction& routing,
                                               int vcs) {
  EnumeratedRoutes out;
  for (std::uint32_t s = 0; s < topo.num_nodes(); ++s) {
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (d == s) continue;
      const NodeId source(s);
      const NodeId dest(d);
      // Stack of (state, channel-VC vertex held on arrival, or none at injection).
      std::vector<std::pair<detail::WalkState, std::optional<DepVertex>>> stack;
      std::set<detail::WalkState> seen;
      for (int c = 0; c < routing.initial_choices(); ++c) {
        const detail::WalkState start{source, kInjectionPort, 0,
                                      routing.chosen_initial_state(source, dest, c)};
        if (seen.insert(start).second) stack.emplace_back(start, std::nullopt);
      }
      while (!stack.empty()) {
        const auto [at, held] = stack.back();
        stack.pop_back();
        if (at.node == dest) continue;
        for (const auto& step : detail::expand(topo, routing, vcs, source, dest, at, out.defect)) {
          const DepVertex v = step.channel.value() * static_cast<DepVertex>(vcs) + step.vc;
          if (held) out.dependencies.emplace(*held, v);
          if (seen.insert(step.next).second) stack.emplace_back(step.next, v);
        }
      }
    }
  }
  return out;
}

/// Length of a shortest directed cycle, by breadth-first search from every vertex (brute
/// force, O(V E)); nullopt when the graph is acyclic.
inline std::optional<int> shortest_cycle_length(std::uint32_t vertices,
                                                const std::set<Dependency>& edges) {
  std::vector<std::vector<DepVertex>> out(vertices);
  for (const auto& [a, b] : edges) out[a].push_back(b);
  std::optional<int> best;
  std::vector<int> dist(vertices);
  for (DepVertex start = 0; start < vertices; ++start) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[start] = 0;
    std::deque<DepVertex> queue{start};
    while (!queue.empty()) {
      const DepVertex u = queue.front();
      queue.pop_front();
      for (DepVertex w : out[u]) {
        if (w == start) {
          const int length = dist[u] + 1;
          if (!best || length < *best) best = length;
        } else if (dist[w] < 0) {
          dist[w] = dist[u] + 1;
          queue.push_back(w);
        }
      }
    }
  }
  return best;
}

/// The dependencies that stay once those inside one ring (consecutive channels of the same
/// dimension and direction) are set aside, as bubble flow control allows.
inline std::set<Dependency> without_ring_dependencies(const Topology& topo, int vcs,
                                                      const std::set<Dependency>& edges) {
  std::set<Dependency> kept;
  const auto port = [&](DepVertex v) {
    return topo.channel_port(ChannelId(v / static_cast<DepVertex>(vcs)));
  };
  for (const auto& e : edges) {
    if (port(e.first) != port(e.second)) kept.insert(e);
  }
  return kept;
}

/// Girth of the undirected network graph (length of a shortest cycle), by breadth-first
/// search from every node; nullopt for a forest.
inline std::optional<int> network_girth(const Topology& topo) {
  std::optional<int> best;
  const std::uint32_t n = topo.num_nodes();
  std::vector<int> dist(n);
  std::vector<std::uint32_t> parent(n);
  for (std::uint32_t root = 0; root < n; ++root) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[root] = 0;
    parent[root] = root;
    std::deque<std::uint32_t> queue{root};
    while (!queue.empty()) {
      const std::uint32_t u = queue.front();
      queue.pop_front();
      for (int p = 0; p < topo.num_ports(); ++p) {
        const NodeId w = topo.neighbor(NodeId(u), static_cast<PortId>(p));
        if (!w.valid()) continue;
        if (dist[w.value()] < 0) {
          dist[w.value()] = dist[u] + 1;
          parent[w.value()] = u;
          queue.push_back(w.value());
        } else if (parent[u] != w.value()) {
          const int length = dist[u] + dist[w.value()] + 1;
          if (!best || length < *best) best = length;
        }
      }
    }
  }
  return best;
}

}  // namespace wormnet::test
