#include "wormnet/verify/wait_for_graph.hpp"

#include <algorithm>
#include <utility>

namespace wormnet {

namespace {

constexpr std::uint32_t kNone = ~std::uint32_t{0};

/// The wait-for graph over its waiting VCs (the edges' sources), as index arrays: sorted and
/// without duplicates, so that nothing depends on the order in which the ranks sent the edges.
struct Graph {
  std::vector<VcKey> vc;            ///< waiting VCs, ascending
  std::vector<std::uint32_t> head;  ///< edges of vertex v: [head[v], head[v + 1])
  std::vector<std::uint32_t> on;    ///< waited-for vertex, or kNone if it is no waiting VC

  explicit Graph(const std::vector<WaitEdge>& edges) {
    std::vector<std::pair<VcKey, VcKey>> e;
    e.reserve(edges.size());
    for (const WaitEdge& w : edges) {
      e.emplace_back(vc_key(w.node, w.port, w.vc), vc_key(w.on_node, w.on_port, w.on_vc));
    }
    std::sort(e.begin(), e.end());
    e.erase(std::unique(e.begin(), e.end()), e.end());
    for (std::size_t k = 0; k < e.size(); ++k) {
      if (vc.empty() || vc.back() != e[k].first) {
        vc.push_back(e[k].first);
        head.push_back(static_cast<std::uint32_t>(k));
      }
    }
    head.push_back(static_cast<std::uint32_t>(e.size()));
    on.assign(e.size(), kNone);
    for (std::size_t k = 0; k < e.size(); ++k) {
      const auto it = std::lower_bound(vc.begin(), vc.end(), e[k].second);
      if (it != vc.end() && *it == e[k].second) {
        on[k] = static_cast<std::uint32_t>(it - vc.begin());
      }
    }
  }
  [[nodiscard]] std::size_t size() const { return vc.size(); }
};

}  // namespace

std::vector<VcKey> find_deadlock_cycle(const std::vector<WaitEdge>& edges) {
  const Graph g(edges);
  const auto n = static_cast<std::uint32_t>(g.size());
  // Peel off every VC with a way out (a VC it waits for is no waiting VC, or was peeled),
  // walking the reversed edges from those that have one.
  std::vector<std::uint32_t> rhead(n + 1, 0);
  for (const std::uint32_t w : g.on) {
    if (w != kNone) ++rhead[w + 1];
  }
  for (std::uint32_t v = 0; v < n; ++v) rhead[v + 1] += rhead[v];
  std::vector<std::uint32_t> waiting_on(g.on.size());
  {
    std::vector<std::uint32_t> fill(rhead.begin(), rhead.end() - 1);
    for (std::uint32_t v = 0; v < n; ++v) {
      for (std::uint32_t k = g.head[v]; k < g.head[v + 1]; ++k) {
        if (g.on[k] != kNone) waiting_on[fill[g.on[k]]++] = v;
      }
    }
  }
  std::vector<char> free(n, 0);
  std::vector<std::uint32_t> peel;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::uint32_t k = g.head[v]; k < g.head[v + 1]; ++k) {
      if (g.on[k] == kNone) {
        peel.push_back(v);
        break;
      }
    }
  }
  while (!peel.empty()) {
    const std::uint32_t v = peel.back();
    peel.pop_back();
    if (free[v]) continue;
    free[v] = 1;
    for (std::uint32_t k = rhead[v]; k < rhead[v + 1]; ++k) {
      if (!free[waiting_on[k]]) peel.push_back(waiting_on[k]);
    }
  }
  // What is left (the knot) waits only for itself. Every member waits for a member:
  // following the first such from the smallest member must come back to a vertex already
  // seen, closing a loop.
  const auto first_in_knot = [&](std::uint32_t v) {
    for (std::uint32_t k = g.head[v]; k < g.head[v + 1]; ++k) {
      if (!free[g.on[k]]) return g.on[k];
    }
    return kNone;  // cannot happen for a knot member
  };
  std::uint32_t start = 0;
  while (start < n && free[start]) ++start;
  if (start == n) return {};
  std::vector<std::uint32_t> seen_at(n, kNone);
  std::vector<std::uint32_t> walk;
  std::uint32_t v = start;
  while (seen_at[v] == kNone) {
    seen_at[v] = static_cast<std::uint32_t>(walk.size());
    walk.push_back(v);
    v = first_in_knot(v);
  }
  std::vector<std::uint32_t> loop(walk.begin() + seen_at[v], walk.end());
  std::sort(loop.begin(), loop.end());
  // The shortest cycle through a vertex of that loop (breadth-first inside the knot); ties
  // go to the smallest vertex.
  std::vector<VcKey> best;
  std::vector<std::uint32_t> parent(n, kNone);
  std::vector<std::uint32_t> queue;
  for (const std::uint32_t s : loop) {
    std::fill(parent.begin(), parent.end(), kNone);
    queue.assign(1, s);
    parent[s] = s;
    std::uint32_t last = kNone;
    for (std::size_t q = 0; q < queue.size() && last == kNone; ++q) {
      const std::uint32_t u = queue[q];
      for (std::uint32_t k = g.head[u]; k < g.head[u + 1]; ++k) {
        const std::uint32_t w = g.on[k];
        if (w == kNone || free[w]) continue;
        if (w == s) {
          last = u;
          break;
        }
        if (parent[w] == kNone) {
          parent[w] = u;
          queue.push_back(w);
        }
      }
    }
    if (last == kNone) continue;  // cannot happen: s lies on the loop
    std::vector<VcKey> cycle;
    for (std::uint32_t u = last; u != s; u = parent[u]) cycle.push_back(g.vc[u]);
    cycle.push_back(g.vc[s]);
    std::reverse(cycle.begin(), cycle.end());
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return best;
}

}  // namespace wormnet
