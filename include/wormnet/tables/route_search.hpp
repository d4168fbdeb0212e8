// Searches of the canonical routing graph from one source, the building blocks of the three
// table generators. Every search follows only minimal steps (each step one hop farther from
// the source). That loses nothing. A breadth-first search discovers a vertex at its least
// depth, which is at least its node's distance from s; a vertex whose depth equals its
// node's distance can only be discovered by such a vertex one hop nearer (any other vertex
// at that depth sits on a nearer node). So the search restricted to minimal steps discovers
// exactly these vertices, in the same relative order and by the same parents, and only they
// lie on shortest paths from U_begin(s) to the U_end vertices (the routing graph holds a
// minimal route for every pair, so shortest paths are minimal routes). The same holds for
// path counts and shortest-path trees; the saving is most of the 3^n + 2n + 1 vertices
// per node.
//
// A vertex is node * S + state (S = states per node). Channel weights are per directed link
// (the paper's "edge link attribute": all routing-graph edges over one link share its
// weight), indexed by the topology's dense channel id.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/routing_graph.hpp"

namespace wormnet::tables {

class RouteSearch {
 public:
  using Vertex = std::uint32_t;
  /// Route counts saturate here (only "one" versus "more" matters to the generators).
  static constexpr std::uint32_t kManyRoutes = 1U << 30;

  explicit RouteSearch(const RoutingGraph& graph);

  [[nodiscard]] const RoutingGraph& graph() const { return graph_; }
  [[nodiscard]] const Torus& topology() const { return topo_; }

  /// Whether stepping `o` from u goes one hop farther from s (a minimal step).
  [[nodiscard]] bool minimal_step(NodeId s, NodeId u, Direction o) const {
    const int i = dim_of(o, n_);
    const std::size_t k = static_cast<std::size_t>(size_[static_cast<std::size_t>(i)]);
    const std::uint8_t m = step_[static_cast<std::size_t>(i)][coord(s, i) * k + coord(u, i)];
    return ((m >> (is_plus(o, n_) ? 0 : 1)) & 1U) != 0;
  }
  [[nodiscard]] std::size_t coord(NodeId u, int i) const {
    return coords_[static_cast<std::size_t>(u.value()) * static_cast<std::size_t>(n_) +
                   static_cast<std::size_t>(i)];
  }
  /// Minimal-route turns between s and d: dimensions in which they differ, minus one.
  [[nodiscard]] int turns(NodeId s, NodeId d) const;

  /// The paper's Algorithm 2 (BFS) from s: breadth-first search in which each expanded
  /// vertex queues its undiscovered successors in ascending order of their link's weight
  /// (ties: routing-graph rule order); the first discoverer is the parent. Writes the route
  /// of every pair (s, d) into row[d] (row[s] is left alone).
  void bfs_routes(NodeId s, std::span<const std::uint64_t> weights, std::span<RouteWord> row);

  /// Number of minimal routes from s to every node (saturating at kManyRoutes), and the route
  /// of every pair that has exactly one (kNoRoute elsewhere).
  void count_routes(NodeId s, std::span<std::uint32_t> counts, std::span<RouteWord> unique);

  /// Every minimal route from s to d, in a fixed order, at most `limit` of them. Needs the
  /// search state of count_routes(s, ...) (the vertices reachable from s).
  void enumerate_routes(NodeId s, NodeId d, std::size_t limit, std::vector<RouteWord>& out);

  /// The paper's Algorithm 4 (BUILD_SSSP) from s to `dests`, all at the same distance L from
  /// s: single-source shortest paths with edge weight base + weight(link), by breadth-first
  /// levels with relaxation (with base = |N|^2 > any sum of link weights, every shortest
  /// path is minimal, so each level is settled when the one before is done). Searches only
  /// vertices on minimal paths to some destination (found backwards from the destinations)
  /// and stops at level L. Writes routes[i] for dests[i].
  void build_sssp(NodeId s, std::span<const NodeId> dests, std::span<const std::uint64_t> weights,
                  std::uint64_t base, std::span<RouteWord> routes);

  /// Vertices expanded by the searches so far (for the profile).
  [[nodiscard]] std::uint64_t expanded() const { return expanded_; }

 private:
  [[nodiscard]] Vertex vertex(NodeId u, RoutingGraph::State q) const {
    return u.value() * static_cast<std::uint32_t>(states_) + q;
  }
  [[nodiscard]] NodeId node_of(Vertex x) const {
    return NodeId(x / static_cast<std::uint32_t>(states_));
  }
  [[nodiscard]] RoutingGraph::State state_of(Vertex x) const {
    return static_cast<RoutingGraph::State>(x % static_cast<std::uint32_t>(states_));
  }
  [[nodiscard]] std::uint64_t weight(std::span<const std::uint64_t> weights, NodeId u,
                                     Direction o) const {
    return weights[topo_.channel(u, port_of(o, n_)).value()];
  }
  void next_epoch();
  /// The route word of the path that ends in vertex `last` (whose edge to U_end ends it),
  /// following parent_ back to U_begin.
  [[nodiscard]] RouteWord route_from(Vertex last) const;
  /// Whether a dirbit or LS state at d can end a minimal route from s (sign pattern check).
  [[nodiscard]] bool may_end_at(NodeId s, NodeId d, RoutingGraph::State q) const;

  const RoutingGraph& graph_;
  const Torus& topo_;
  int n_;
  int states_;
  std::vector<int> size_;
  std::vector<std::uint16_t> coords_;            // [node * n + dim]
  std::vector<std::vector<std::uint8_t>> step_;  // [dim][a * k + x]: bit 0 +, bit 1 - minimal
  std::vector<RoutingGraph::State> end_states_;  // canonical states with an edge to U_end

  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> stamp_;      // [vertex]: epoch when seen
  std::vector<Vertex> parent_;            // [vertex]
  std::vector<std::uint32_t> count_;      // [vertex]
  std::vector<std::uint64_t> cost_;       // [vertex]
  std::vector<std::uint32_t> end_stamp_;  // [node]
  std::vector<Vertex> end_parent_;        // [node]
  std::vector<std::uint32_t> end_count_;  // [node]
  std::vector<Vertex> queue_;
  std::vector<std::vector<Vertex>> levels_;
  struct Child {
    Vertex v;
    std::uint64_t w;
  };
  std::vector<Child> children_;
  std::vector<RoutingGraph::State> path_;
  std::uint64_t expanded_ = 0;
};

}  // namespace wormnet::tables
