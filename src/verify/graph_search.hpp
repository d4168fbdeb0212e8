// Graph searches shared by the deadlock checks in src/verify (channel dependency graph,
// extended dependency graph, wait-for graph): a directed graph in compressed rows, its
// strongly connected components, and a shortest cycle through a list of start vertices.
// Private to the verify layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace wormnet::graph {

inline constexpr std::uint32_t kNoVertex = std::numeric_limits<std::uint32_t>::max();

/// A directed graph in compressed rows: the successors of v are
/// targets[offsets[v] .. offsets[v + 1]), searched in that order.
struct Csr {
  std::vector<std::uint32_t> offsets{0};  // size V + 1
  std::vector<std::uint32_t> targets;
  [[nodiscard]] std::uint32_t size() const {
    return static_cast<std::uint32_t>(offsets.size() - 1);
  }
};

/// The graph on `vertices` vertices with the given edges (source, target), sorted and
/// without duplicates: each row ascending, whatever order the edges came in. Sorts `edges`
/// in place and removes its duplicates.
[[nodiscard]] Csr csr_from_edges(std::uint32_t vertices,
                                 std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

/// The graph on `vertices` vertices whose row v lists, in the order given, the targets that
/// `for_each_successor(v, emit)` passes to `emit`.
template <class F>
[[nodiscard]] Csr csr_from_rows(std::uint32_t vertices, F&& for_each_successor) {
  Csr g;
  g.offsets.reserve(static_cast<std::size_t>(vertices) + 1);
  for (std::uint32_t v = 0; v < vertices; ++v) {
    for_each_successor(v, [&g](std::uint32_t w) { g.targets.push_back(w); });
    g.offsets.push_back(static_cast<std::uint32_t>(g.targets.size()));
  }
  return g;
}

/// Strongly connected components (iterative Tarjan, roots in ascending order, successors in
/// row order): the component of every vertex, numbered in the order they complete;
/// `count` = how many.
[[nodiscard]] std::vector<std::uint32_t> strongly_connected_components(const Csr& g,
                                                                       std::uint32_t& count);

/// Result of shortest_cycle().
struct CycleSearch {
  std::vector<std::uint32_t> cycle;  ///< first vertex = its start, not repeated; empty if none
  std::size_t searched = 0;          ///< starts searched: a prefix of `starts`
  bool exhausted = false;            ///< stopped because the budget of searches ran out
};

/// A shortest cycle through one of `starts`, in the order given: a breadth-first search from
/// each start, only through vertices with the start's `label` and no deeper than needed to
/// beat the best cycle so far (a later start replaces it only when strictly shorter). Stops
/// once the best cycle has at most `short_enough` vertices (1: exact; 2: a self-loop at a
/// later start is not looked for), or after `budget` searches.
[[nodiscard]] CycleSearch shortest_cycle(
    const Csr& g, const std::vector<std::uint32_t>& label, const std::vector<std::uint32_t>& starts,
    std::size_t short_enough, std::uint64_t budget = std::numeric_limits<std::uint64_t>::max());

}  // namespace wormnet::graph
