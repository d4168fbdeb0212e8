#include "graph_search.hpp"

#include <algorithm>

namespace wormnet::graph {

Csr csr_from_edges(std::uint32_t vertices,
                   std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  Csr g;
  g.offsets.assign(static_cast<std::size_t>(vertices) + 1, 0);
  for (const auto& e : edges) ++g.offsets[e.first + 1];
  for (std::uint32_t v = 0; v < vertices; ++v) g.offsets[v + 1] += g.offsets[v];
  g.targets.reserve(edges.size());
  for (const auto& e : edges) g.targets.push_back(e.second);
  return g;
}

std::vector<std::uint32_t> strongly_connected_components(const Csr& g, std::uint32_t& count) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> index(n, kNoVertex);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint32_t> comp(n, kNoVertex);
  std::vector<std::uint32_t> stack;
  std::vector<std::uint8_t> on_stack(n, 0);
  struct Frame {
    std::uint32_t v;
    std::uint32_t next;  // next edge to look at
  };
  std::vector<Frame> call;
  std::uint32_t counter = 0;
  count = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNoVertex) continue;
    call.push_back({root, g.offsets[root]});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = 1;
    while (!call.empty()) {
      Frame& f = call.back();
      bool descended = false;
      while (f.next < g.offsets[f.v + 1]) {
        const std::uint32_t w = g.targets[f.next++];
        if (index[w] == kNoVertex) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = 1;
          call.push_back({w, g.offsets[w]});
          descended = true;
          break;
        }
        if (on_stack[w]) low[f.v] = std::min(low[f.v], index[w]);
      }
      if (descended) continue;
      const std::uint32_t v = f.v;
      call.pop_back();
      if (!call.empty()) low[call.back().v] = std::min(low[call.back().v], low[v]);
      if (low[v] == index[v]) {
        while (true) {
          const std::uint32_t w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          comp[w] = count;
          if (w == v) break;
        }
        ++count;
      }
    }
  }
  return comp;
}

CycleSearch shortest_cycle(const Csr& g, const std::vector<std::uint32_t>& label,
                           const std::vector<std::uint32_t>& starts, std::size_t short_enough,
                           std::uint64_t budget) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> stamp(n, 0);  // = epoch: reached by the current search
  std::vector<std::uint32_t> parent(n, 0);
  std::vector<std::uint32_t> depth(n, 0);
  std::vector<std::uint32_t> frontier;
  std::uint32_t epoch = 0;
  CycleSearch out;
  std::vector<std::uint32_t>& best = out.cycle;
  for (const std::uint32_t start : starts) {
    if (!best.empty() && best.size() <= short_enough) break;
    if (budget-- == 0) {
      out.exhausted = true;
      break;
    }
    ++out.searched;
    ++epoch;
    frontier.assign(1, start);
    stamp[start] = epoch;
    depth[start] = 0;
    std::uint32_t closing = kNoVertex;
    // A vertex at depth best.size() - 1 or deeper can only close a cycle no shorter.
    const std::size_t limit = best.empty() ? n : best.size() - 1;
    for (std::size_t head = 0; head < frontier.size() && closing == kNoVertex; ++head) {
      const std::uint32_t v = frontier[head];
      if (depth[v] >= limit) break;
      for (std::uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
        const std::uint32_t w = g.targets[e];
        if (w == start) {
          closing = v;
          break;
        }
        if (label[w] != label[start] || stamp[w] == epoch) continue;
        stamp[w] = epoch;
        parent[w] = v;
        depth[w] = depth[v] + 1;
        frontier.push_back(w);
      }
    }
    if (closing == kNoVertex) continue;
    std::vector<std::uint32_t> cycle;
    for (std::uint32_t v = closing; v != start; v = parent[v]) cycle.push_back(v);
    cycle.push_back(start);
    std::reverse(cycle.begin(), cycle.end());
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return out;
}

}  // namespace wormnet::graph
