#include "wormnet/verify/wait_for_graph.hpp"

#include <algorithm>
#include <utility>

#include "graph_search.hpp"

namespace wormnet {

namespace {

constexpr std::uint32_t kNone = graph::kNoVertex;

/// The wait-for graph over its waiting VCs (the edges' sources), as compressed rows: sorted and
/// without duplicates, so that nothing depends on the order in which the ranks sent the edges.
struct WaitGraph {
  std::vector<VcKey> vc;           ///< waiting VCs, ascending
  graph::Csr waits;                ///< v -> the waiting VCs it waits for, ascending
  std::vector<std::uint8_t> exit;  ///< 1 when v also waits for a VC that is not waiting

  explicit WaitGraph(const std::vector<WaitEdge>& edges) {
    vc.reserve(edges.size());
    for (const WaitEdge& w : edges) vc.push_back(vc_key(w.node, w.port, w.vc));
    std::sort(vc.begin(), vc.end());
    vc.erase(std::unique(vc.begin(), vc.end()), vc.end());
    const auto index = [&](VcKey key) {
      const auto it = std::lower_bound(vc.begin(), vc.end(), key);
      return it != vc.end() && *it == key ? static_cast<std::uint32_t>(it - vc.begin()) : kNone;
    };
    exit.assign(vc.size(), 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e;
    e.reserve(edges.size());
    for (const WaitEdge& w : edges) {
      const std::uint32_t from = index(vc_key(w.node, w.port, w.vc));
      const std::uint32_t to = index(vc_key(w.on_node, w.on_port, w.on_vc));
      if (to == kNone) {
        exit[from] = 1;
      } else {
        e.emplace_back(from, to);
      }
    }
    waits = graph::csr_from_edges(static_cast<std::uint32_t>(vc.size()), e);
  }
  [[nodiscard]] std::uint32_t size() const { return waits.size(); }
};

}  // namespace

std::vector<VcKey> find_deadlock_cycle(const std::vector<WaitEdge>& edges) {
  const WaitGraph wg(edges);
  const graph::Csr& g = wg.waits;
  const std::uint32_t n = wg.size();
  // Peel off every VC with a way out (a VC it waits for is no waiting VC, or was peeled),
  // walking the reversed edges from those that have one.
  std::vector<std::uint32_t> rhead(n + 1, 0);
  for (const std::uint32_t w : g.targets) ++rhead[w + 1];
  for (std::uint32_t v = 0; v < n; ++v) rhead[v + 1] += rhead[v];
  std::vector<std::uint32_t> waiting_on(g.targets.size());
  {
    std::vector<std::uint32_t> fill(rhead.begin(), rhead.end() - 1);
    for (std::uint32_t v = 0; v < n; ++v) {
      for (std::uint32_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) {
        waiting_on[fill[g.targets[k]]++] = v;
      }
    }
  }
  std::vector<std::uint32_t> free(n, 0);  // 1 = peeled; also the search's label (0 = knot)
  std::vector<std::uint32_t> peel;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (wg.exit[v]) peel.push_back(v);
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
    for (std::uint32_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) {
      if (!free[g.targets[k]]) return g.targets[k];
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
  // The shortest cycle through a vertex of that loop (breadth-first inside the knot: the
  // label `free` is 0 there); ties go to the smallest vertex. Exact: no stop at a cycle of
  // two, so a later VC that waits for itself still wins.
  const graph::CycleSearch found = graph::shortest_cycle(g, free, loop, 1);
  std::vector<VcKey> best;
  best.reserve(found.cycle.size());
  for (const std::uint32_t u : found.cycle) best.push_back(wg.vc[u]);
  return best;
}

}  // namespace wormnet
