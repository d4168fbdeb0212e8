// Brute-force check of a routing's declared network symmetries (RoutingFunction::symmetries())
// on a small network: the declaration is a group of automorphisms, and for every destination d
// and every declared g, the reference flows toward g(d) (tests/support/state_graph_reference.hpp:
// one state per channel, VC and packet state, no merging, no symmetry) are the images of the
// flows toward d: the load of every channel (to 1e-12), the longest route and minimality, and
// for kOptions every channel dependency with its VCs. Returns the first violation in words, or
// an empty string. Shares no code with the analysis that relies on the declarations.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "state_graph_reference.hpp"
#include "wormnet/routing/routing_function.hpp"

namespace wormnet::test {

namespace detail {

struct DestinationFlows {
  std::vector<double> gamma;        // [channel]
  std::vector<std::uint64_t> deps;  // ChannelDependencyGraph::words()
  int max_path = 0;
  bool all_minimal = true;
};

inline std::vector<DestinationFlows> flows_by_destination(const Topology& topo,
                                                          const RoutingFunction& routing) {
  const int vcs = routing.vcs_required();
  RouteStateGraph graph(topo, routing, vcs);
  std::vector<DestinationFlows> out;
  for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
    ReferenceAnalysis a;
    a.cdg = ChannelDependencyGraph(topo, vcs);
    a.gamma.assign(topo.num_channels(), 0.0);
    graph.explore(NodeId(d));
    ReferencePass pass;
    pass.run(graph, topo, a);
    const auto words = a.cdg.words();
    out.push_back(DestinationFlows{
        a.gamma, {words.begin(), words.end()}, a.delivery.max_path, a.delivery.all_minimal});
  }
  return out;
}

inline ChannelId image_channel(const Topology& topo, const NetworkSymmetry& g, ChannelId c) {
  return topo.channel(g.node[topo.channel_source(c).value()], g.port[topo.channel_port(c)]);
}

/// Whether g and h are the same map (nodes, ports, VCs of the ports in use).
inline bool same_map(const Topology& topo, int vcs, const NetworkSymmetry& g,
                     const NetworkSymmetry& h) {
  if (g.node != h.node) return false;
  for (int p = 0; p < topo.num_ports(); ++p) {
    if (g.port[p] != h.port[p]) return false;
    for (int v = 0; v < vcs; ++v) {
      if (g.vc[p][v] != h.vc[p][v]) return false;
    }
  }
  return true;
}

}  // namespace detail

inline std::string check_symmetries(const Topology& topo, const RoutingFunction& routing,
                                    ArrivalScope scope) {
  const std::vector<NetworkSymmetry> group = routing.symmetries(scope);
  if (group.empty()) return "";
  const int vcs = routing.vcs_required();
  const std::uint32_t n = topo.num_nodes();
  // Automorphisms with VC permutations.
  for (std::size_t i = 0; i < group.size(); ++i) {
    const NetworkSymmetry& g = group[i];
    const std::string which = "symmetry " + std::to_string(i);
    if (g.node.size() != n) return which + " does not map every node";
    std::vector<bool> hit(n, false);
    for (std::uint32_t v = 0; v < n; ++v) {
      if (!g.node[v].valid() || g.node[v].value() >= n || hit[g.node[v].value()])
        return which + " is not a permutation of the nodes";
      hit[g.node[v].value()] = true;
      for (int p = 0; p < topo.num_ports(); ++p) {
        const auto port = static_cast<PortId>(p);
        if (topo.has_port(NodeId(v), port) != topo.has_port(g.node[v], g.port[p]))
          return which + " does not map links onto links at " + topo.node_label(NodeId(v));
        if (topo.has_port(NodeId(v), port) &&
            topo.neighbor(g.node[v], g.port[p]) != g.node[topo.neighbor(NodeId(v), port).value()])
          return which + " does not map neighbours onto neighbours at " +
                 topo.node_label(NodeId(v));
      }
    }
    for (int p = 0; p < topo.num_ports(); ++p) {
      std::vector<bool> vc_hit(static_cast<std::size_t>(vcs), false);
      for (int v = 0; v < vcs; ++v) {
        const int w = g.vc[p][v];
        if (w >= vcs || vc_hit[static_cast<std::size_t>(w)])
          return which + " does not permute the VCs of port " + std::to_string(p);
        vc_hit[static_cast<std::size_t>(w)] = true;
      }
    }
  }
  // A group: the identity, and every composition among the elements.
  NetworkSymmetry identity;
  for (std::uint32_t v = 0; v < n; ++v) identity.node.push_back(NodeId(v));
  for (int p = 0; p < kMaxPorts; ++p) {
    identity.port[p] = static_cast<PortId>(p);
    for (int v = 0; v < kMaxVcs; ++v) identity.vc[p][v] = static_cast<VcId>(v);
  }
  bool has_identity = false;
  for (const NetworkSymmetry& g : group) {
    has_identity = has_identity || detail::same_map(topo, vcs, g, identity);
  }
  if (!has_identity) return "the symmetries lack the identity";
  for (const NetworkSymmetry& g : group) {
    for (const NetworkSymmetry& h : group) {
      NetworkSymmetry gh = identity;  // g after h
      for (std::uint32_t v = 0; v < n; ++v) gh.node[v] = g.node[h.node[v].value()];
      for (int p = 0; p < topo.num_ports(); ++p) {
        gh.port[p] = g.port[h.port[p]];
        for (int v = 0; v < vcs; ++v) gh.vc[p][v] = g.vc[h.port[p]][h.vc[p][v]];
      }
      bool closed = false;
      for (const NetworkSymmetry& k : group) closed = closed || detail::same_map(topo, vcs, gh, k);
      if (!closed) return "the symmetries are not closed under composition";
    }
  }
  // The flows.
  const std::vector<detail::DestinationFlows> flows = detail::flows_by_destination(topo, routing);
  const auto v = static_cast<std::size_t>(vcs);
  for (std::size_t i = 0; i < group.size(); ++i) {
    const NetworkSymmetry& g = group[i];
    for (std::uint32_t d = 0; d < n; ++d) {
      const detail::DestinationFlows& a = flows[d];
      const detail::DestinationFlows& b = flows[g.node[d].value()];
      const std::string where =
          " toward " + topo.node_label(NodeId(d)) + " under symmetry " + std::to_string(i);
      if (a.max_path != b.max_path || a.all_minimal != b.all_minimal)
        return "route lengths differ" + where;
      for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
        const double x = a.gamma[c];
        const double y = b.gamma[detail::image_channel(topo, g, ChannelId(c)).value()];
        if (std::fabs(x - y) > 1e-12 * std::max(1.0, std::fabs(x)))
          return "load on " + topo.channel_label(ChannelId(c)) + " differs" + where;
      }
      if (scope != ArrivalScope::kOptions) continue;
      for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
        const std::size_t to = detail::image_channel(topo, g, ChannelId(c)).value();
        const PortId p = topo.channel_port(ChannelId(c));
        for (std::size_t x = 0; x < v; ++x) {
          std::uint64_t mapped = 0;
          for (std::uint64_t bits = a.deps[c * v + x]; bits != 0; bits &= bits - 1) {
            const auto bit = static_cast<std::size_t>(std::countr_zero(bits));
            const std::size_t q = bit / v;
            mapped |= std::uint64_t{1} << (g.port[q] * v + g.vc[q][bit % v]);
          }
          if (mapped != b.deps[to * v + g.vc[p][x]])
            return "dependencies of " + topo.channel_label(ChannelId(c)) + " vc" +
                   std::to_string(x) + " differ" + where;
        }
      }
    }
  }
  return "";
}

}  // namespace wormnet::test
