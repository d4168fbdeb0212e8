// The channel dependency graph (Dally & Seitz; Duato): vertices are (channel, VC); an edge
// (a -> b) exists when some packet may hold a and request b next. A routing function is
// deadlock-free when the graph is acyclic. With bubble flow control, dependencies between
// consecutive channels of the same ring (same dimension and direction) are set aside: the
// bubble rule keeps each ring moving, and only the dependencies between rings must be acyclic.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

namespace graph {
struct Csr;  // src/verify/graph_search.hpp
}

class ChannelDependencyGraph {
 public:
  /// A vertex of a reported cycle.
  struct Vertex {
    ChannelId channel;
    VcId vc = 0;
  };

  ChannelDependencyGraph() = default;
  ChannelDependencyGraph(const Topology& topo, int vcs);

  /// Records the dependency (channel a, vc va) -> (channel leaving a's head node on
  /// port pb, vc vb).
  void add(ChannelId a, VcId va, PortId pb, VcId vb) {
    adj_[static_cast<std::size_t>(a.value()) * static_cast<std::size_t>(vcs_) + va] |=
        std::uint64_t{1} << (pb * vcs_ + vb);
  }
  /// Records the dependencies (channel a, vc va) -> every (port, vc) whose bit
  /// (port * vcs + vc) is set in `successors`.
  void add_all(ChannelId a, VcId va, std::uint64_t successors) {
    adj_[static_cast<std::size_t>(a.value()) * static_cast<std::size_t>(vcs_) + va] |= successors;
  }
  /// The adjacency words, [channel * vcs + vc] -> successor bits, for combining graphs built
  /// from parts of the destinations (an OR, word by word).
  [[nodiscard]] std::span<std::uint64_t> words() { return adj_; }
  /// True when the dependency (channel a, vc va) -> (channel b, vc vb) was recorded, whether
  /// or not it is set aside; false when b does not leave the node where a arrives. Lets tests
  /// compare the graph with an independent enumeration of the routes.
  [[nodiscard]] bool has_dependency(ChannelId a, VcId va, ChannelId b, VcId vb) const;
  /// Sets aside same-port dependencies (inside one ring) when looking for cycles.
  void set_aside_ring_dependencies(bool on) { set_aside_rings_ = on; }
  [[nodiscard]] bool rings_set_aside() const { return set_aside_rings_; }

  [[nodiscard]] std::uint64_t num_vertices() const { return adj_.size(); }
  /// Dependencies recorded, and how many of them were set aside as ring-internal.
  [[nodiscard]] std::uint64_t num_edges() const;
  [[nodiscard]] std::uint64_t num_set_aside() const;

  /// A shortest cycle (as a list of vertices, first not repeated), empty when acyclic.
  [[nodiscard]] std::vector<Vertex> shortest_cycle() const;
  /// Number of vertices in non-trivial strongly connected components.
  [[nodiscard]] std::uint64_t vertices_on_cycles() const;
  /// A cycle that changes direction somewhere (contains two consecutive channels on
  /// different ports), searched with the ring-internal dependencies kept; empty when every
  /// cycle runs around one ring. Setting ring dependencies aside (shortest_cycle()) misses a
  /// cycle that enters a ring, goes along it and leaves it elsewhere; bubble flow control
  /// keeps a single ring moving but does not break such a cycle between rings, so routings
  /// with turns against the direction order (Angara FS/LS steps) must pass this test.
  [[nodiscard]] std::vector<Vertex> cycle_through_turn() const;

  [[nodiscard]] std::string describe(const Vertex& v) const;
  [[nodiscard]] bool empty() const { return topo_ == nullptr; }

 private:
  /// The dependencies as compressed rows, each in bit order; `all_edges`: also the
  /// ring-internal ones when they are set aside.
  [[nodiscard]] graph::Csr dependency_csr(bool all_edges) const;

  const Topology* topo_ = nullptr;
  int vcs_ = 1;
  bool set_aside_rings_ = false;
  std::vector<std::uint64_t> adj_;  // [channel * vcs + vc]: bit (port * vcs + vc) at head node
};

}  // namespace wormnet
