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
// On a network with faults (a RoutingGraph built around a FaultSet) node distances no longer
// tell which steps lie on shortest routes: a shortest legal route may run the long way round a
// ring, or step aside and back (FS +X, +Y, -X round a failed +Y link). There the searches run
// over the literal routing graph of the working network without that pruning: a breadth-first
// search from U_begin(s) gives every vertex its depth, a pair's route length is the least depth
// of a vertex of d (every vertex but U_begin and U_end has an edge to U_end), and the routes
// of a pair are the paths of that length, its shortest legal routes. Such a path is a route of
// the same length in the network, and the rules allow no shorter one: the generators still
// produce only shortest routes, now shortest over the legal routes of the working network
// rather than the torus distance. Each route is named by its canonical word
// (canonical_route.hpp), since the literal graph may hold it as several paths; a pair that no
// path reaches has no legal route (kNoRoute).
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
  /// Whether the graph has faults (the searches then run as the header says).
  [[nodiscard]] bool faulty() const { return faulty_; }
  /// Length (hops) of the shortest legal route from the source of the last count_routes() to
  /// d, -1 when there is none. Without faults, the torus distance.
  [[nodiscard]] int route_length(NodeId d) const;

  /// The paper's Algorithm 2 (BFS) from s: breadth-first search in which each expanded
  /// vertex queues its undiscovered successors in ascending order of their link's weight
  /// (ties: routing-graph rule order); the first discoverer is the parent. Writes the route
  /// of every pair (s, d) into row[d] (row[s] is left alone; kNoRoute for a pair without a
  /// legal route, which only faults leave).
  void bfs_routes(NodeId s, std::span<const std::uint64_t> weights, std::span<RouteWord> row);

  /// Number of minimal routes from s to every node (saturating at kManyRoutes), and the route
  /// of every pair that has exactly one (kNoRoute elsewhere). With EdgeSet::kLiteral the
  /// count is of routing-graph paths, which counts a route once more for every
  /// order-preserving FS/LS split of it (kept to compare with the paper's route counts).
  /// With faults (`set` is then ignored): 0 for a pair without a legal route, 1 exactly when
  /// the pair has a single shortest legal route, more otherwise (the number of routes when
  /// the literal graph holds at most four paths of them, else of paths: at most four paths
  /// name one route, its FS and LS splits).
  void count_routes(NodeId s, std::span<std::uint32_t> counts, std::span<RouteWord> unique,
                    EdgeSet set = EdgeSet::kCanonical);

  /// Every minimal route from s to d, in a fixed order, at most `limit` of them. Needs the
  /// search state of count_routes(s, ...) (the vertices reachable from s). With faults: every
  /// shortest legal route, each once (by canonical word).
  void enumerate_routes(NodeId s, NodeId d, std::size_t limit, std::vector<RouteWord>& out);

  /// The paper's Algorithm 4 (BUILD_SSSP) from s to `dests`, all at the same distance L from
  /// s: single-source shortest paths with edge weight base + weight(link), by breadth-first
  /// levels with relaxation (with base = |N|^2 > any sum of link weights, every shortest
  /// path is minimal, so each level is settled when the one before is done). Searches only
  /// the region of vertices on minimal paths to some destination (found backwards from the
  /// destinations) and stops at level L. Writes routes[i] for dests[i], and first_ports[i]:
  /// bit p set when some route of dests[i] starts on port p. With faults L is `length`, the
  /// length of every destination's shortest legal route (the region is then the vertices on
  /// such routes, found backwards from the destinations through the vertices a search from s
  /// reaches one level earlier).
  void build_sssp(NodeId s, std::span<const NodeId> dests, std::span<const std::uint64_t> weights,
                  std::uint64_t base, std::span<RouteWord> routes,
                  std::span<std::uint16_t> first_ports, int length = -1);

  /// A list of routes, each with its route word and its channels in route order.
  struct RouteSet {
    std::vector<RouteWord> words;
    std::vector<std::uint32_t>
        first;  ///< [route]: its first entry in channels; one extra at the end
    std::vector<std::uint32_t> channels;
    std::vector<std::uint16_t> first_port;  ///< [route]: port of its first hop
    void clear() {
      words.clear();
      first.assign(1, 0);
      channels.clear();
      first_port.clear();
    }
    [[nodiscard]] std::size_t size() const { return words.size(); }
  };

  /// Appends to `out` every minimal route of dests[i] of the last build_sssp(), in the order
  /// in which its relaxation prefers among routes of equal weight (end states in order,
  /// then each vertex's predecessors in order: a depth-first walk backwards). So under any
  /// link weights, the route that BUILD_SSSP returns is the first of these with the least
  /// total weight: later BUILD_SSSP calls for the same source and destinations can be
  /// answered from this list with the new weights (exactly the same routes; the tables
  /// tests compare with a literal loop).
  void routes_of(std::size_t i, RouteSet& out);

  /// Vertices expanded by the searches so far (for the profile).
  [[nodiscard]] std::uint64_t expanded() const { return expanded_; }

 private:
  // ---- with faults (route_search_faults.cpp) ----
  /// Breadth-first search of the literal graph from U_begin(s) to depth `limit`: fwd_stamp_,
  /// depth_, parent_ (first discoverer), and with `count` the path counts count_ (along
  /// depth-increasing edges only) and per node the least depth of an end (end_depth_) and the
  /// paths of that length (end_count_), end_parent_ the first vertex that ends there. Kept
  /// for later calls with the same source and a limit it covers.
  void forward(NodeId s, int limit, bool count);
  [[nodiscard]] bool reached(Vertex x) const { return fwd_stamp_[x] == fwd_epoch_; }
  [[nodiscard]] bool end_reached(NodeId d) const { return fwd_end_stamp_[d.value()] == fwd_epoch_; }
  void faulty_bfs_routes(NodeId s, std::span<const std::uint64_t> weights,
                         std::span<RouteWord> row);
  void faulty_count_routes(NodeId s, std::span<std::uint32_t> counts, std::span<RouteWord> unique);
  void faulty_enumerate_routes(NodeId s, NodeId d, std::size_t limit, std::vector<RouteWord>& out);
  void faulty_build_sssp(NodeId s, std::span<const NodeId> dests,
                         std::span<const std::uint64_t> weights, std::uint64_t base,
                         std::span<RouteWord> routes, std::span<std::uint16_t> first_ports,
                         int length);
  /// The canonical word of a path given by its states after U_begin, first to last, from s
  /// to d.
  [[nodiscard]] RouteWord word_of_states(NodeId s, NodeId d,
                                         std::span<const RoutingGraph::State> states) const;
  /// The same for the path ending in `last` along parent_ (faulty forward search).
  [[nodiscard]] RouteWord faulty_route_from(NodeId s, Vertex last);

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
    return weights[channel_[static_cast<std::size_t>(u.value()) *
                                static_cast<std::size_t>(topo_.num_ports()) +
                            port_of(o, n_)]];
  }
  void next_epoch();
  /// The route word of the path that ends in vertex `last` (whose edge to U_end ends it),
  /// following parent_ back to U_begin.
  [[nodiscard]] RouteWord route_from(Vertex last) const;
  /// The dirbit and LS states of d that can end a minimal route from s, into `out`: the
  /// direction-order part uses each dimension as a minimal route must (not at all where s
  /// and d agree, in a minimal direction where they differ, or not at all when an FS or LS
  /// step covers the dimension's single hop).
  void end_states(NodeId s, NodeId d, std::vector<RoutingGraph::State>& out) const;
  /// Whether a route from s may start with a non-standard FS step + dim (an added turn
  /// exists where that step arrives), and a route to d may end with an LS step - dim.
  [[nodiscard]] bool first_step_possible(NodeId s, int dim) const;
  /// Necessary condition for reaching dirbit vertex (u, code) on a minimal route from s:
  /// every dimension in the set goes from s towards u in a minimal direction, and every
  /// other one is where s is, except one that a non-standard FS step may have covered.
  [[nodiscard]] bool dirbit_reachable(NodeId s, NodeId u, int code) const;
  [[nodiscard]] bool last_step_possible(NodeId d, int dim) const;

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
  std::vector<std::uint32_t> end_stamp_;  // [node]
  std::vector<Vertex> end_parent_;        // [node]
  std::vector<std::uint32_t> end_count_;  // [node]
  std::vector<Vertex> queue_;
  // BUILD_SSSP's region: slots 0.. in the order vertices were found (backwards); per slot
  // the vertex, its predecessors (slot and channel of the step), cost, parent slot and the
  // ports its routes can start on. levels_[l] lists the slots at distance l from s.
  struct Pred {
    std::uint32_t from;
    std::uint32_t channel;
  };
  struct Slot {
    Vertex vertex;
    std::uint32_t first_pred;
    std::uint32_t end_pred;
    std::uint32_t parent;
    std::uint64_t cost;
    std::uint16_t first_ports;
  };
  [[nodiscard]] RouteWord route_from_slot(std::uint32_t last) const;
  /// SSSP's forward pass over levels 1..level of the region: each slot's cheapest cost from
  /// its predecessors (each step costs base + the channel's weight), its parent and the
  /// first ports of its cheapest routes.
  void relax_levels(int level, std::span<const std::uint64_t> weights, std::uint64_t base);
  /// The cheapest end slot of dests[i] (the first of equals), with the union of the first
  /// ports of its ends in `ports`; `what` names the caller in the internal error raised
  /// when no end was reached.
  [[nodiscard]] std::uint32_t cheapest_end(std::size_t i, std::uint16_t& ports,
                                           const char* what) const;
  void walk_routes(std::uint32_t slot, RouteSet& out);
  std::vector<std::vector<std::uint32_t>> levels_;
  std::vector<Slot> slots_;
  std::vector<Pred> preds_;
  std::vector<std::uint32_t> slot_;       // [vertex]: slot when stamped in the current epoch
  std::vector<std::uint32_t> dest_end_;   // [i]: first entry of dests[i] in ends_list_
  std::vector<std::uint32_t> ends_list_;  // end-state slots of every destination
  std::vector<RoutingGraph::State> ends_;
  std::vector<std::uint32_t> walk_channels_;  // routes_of(): channels from d backwards
  std::vector<RoutingGraph::State> walk_states_;
  NodeId walk_dest_;                    // routes_of(): the destination walked back from
  std::vector<std::uint32_t> channel_;  // [node * ports + port]: channel id
  struct Child {
    Vertex v;
    std::uint64_t w;
  };
  std::vector<Child> children_;
  std::vector<RoutingGraph::State> path_;
  std::uint64_t expanded_ = 0;

  // With faults: the forward search's state (see forward()).
  bool faulty_ = false;
  std::uint32_t fwd_epoch_ = 0;
  std::vector<std::uint32_t> fwd_stamp_;      // [vertex]
  std::vector<std::uint16_t> depth_;          // [vertex]
  std::vector<std::uint32_t> fwd_end_stamp_;  // [node]
  std::vector<std::uint16_t> end_depth_;      // [node]
  NodeId fwd_source_ = NodeId::invalid();
  int fwd_limit_ = -1;
  bool fwd_counted_ = false;
  NodeId count_source_ = NodeId::invalid();  // source of the last count_routes()
  std::vector<RoutingGraph::State> states_scratch_;
};

}  // namespace wormnet::tables
