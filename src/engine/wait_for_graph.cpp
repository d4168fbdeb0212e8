#include "wormnet/engine/wait_for_graph.hpp"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace wormnet {

std::vector<VcKey> find_deadlock_cycle(const std::vector<WaitEdge>& edges) {
  // Adjacency with sorted, unique successors: the result never depends on the edges' order
  // (they arrive gathered from the ranks).
  std::unordered_map<VcKey, std::vector<VcKey>> waits;
  for (const WaitEdge& e : edges) {
    waits[vc_key(e.node, e.port, e.vc)].push_back(vc_key(e.on_node, e.on_port, e.on_vc));
  }
  std::unordered_map<VcKey, std::vector<VcKey>> waited_by;
  for (auto& [v, on] : waits) {
    std::sort(on.begin(), on.end());
    on.erase(std::unique(on.begin(), on.end()), on.end());
    for (VcKey w : on) waited_by[w].push_back(v);
  }
  // Peel off every VC with a way out (a VC it waits for is no waiting VC, or was peeled).
  std::unordered_set<VcKey> free;
  std::vector<VcKey> peel;
  for (const auto& [v, on] : waits) {
    for (VcKey w : on) {
      if (waits.count(w) == 0) {
        peel.push_back(v);
        break;
      }
    }
  }
  while (!peel.empty()) {
    const VcKey v = peel.back();
    peel.pop_back();
    if (!free.insert(v).second) continue;
    const auto it = waited_by.find(v);
    if (it == waited_by.end()) continue;
    for (VcKey u : it->second) {
      if (free.count(u) == 0) peel.push_back(u);
    }
  }
  std::vector<VcKey> knot;
  for (const auto& [v, on] : waits) {
    if (free.count(v) == 0) knot.push_back(v);
  }
  if (knot.empty()) return {};
  std::sort(knot.begin(), knot.end());
  const auto in_knot = [&](VcKey w) { return free.count(w) == 0; };
  // Every member waits for a member: following the first such from the smallest member
  // must come back to a vertex already seen, closing a cycle.
  std::unordered_map<VcKey, std::size_t> seen;
  std::vector<VcKey> walk;
  VcKey v = knot.front();
  while (seen.emplace(v, walk.size()).second) {
    walk.push_back(v);
    const std::vector<VcKey>& on = waits.at(v);
    v = *std::find_if(on.begin(), on.end(), in_knot);
  }
  std::vector<VcKey> loop(walk.begin() + static_cast<std::ptrdiff_t>(seen.at(v)), walk.end());
  std::sort(loop.begin(), loop.end());
  // The shortest cycle through a vertex of that loop (breadth-first, inside the knot);
  // ties go to the smallest vertex.
  std::vector<VcKey> best;
  for (const VcKey s : loop) {
    std::unordered_map<VcKey, VcKey> parent{{s, s}};
    std::deque<VcKey> queue{s};
    VcKey last = s;
    bool closed = false;
    while (!queue.empty() && !closed) {
      const VcKey u = queue.front();
      queue.pop_front();
      for (const VcKey w : waits.at(u)) {
        if (!in_knot(w)) continue;
        if (w == s) {
          last = u;
          closed = true;
          break;
        }
        if (parent.emplace(w, u).second) queue.push_back(w);
      }
    }
    if (!closed) continue;  // cannot happen: s lies on the loop
    std::vector<VcKey> cycle;
    for (VcKey u = last; u != s; u = parent.at(u)) cycle.push_back(u);
    cycle.push_back(s);
    std::reverse(cycle.begin(), cycle.end());
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return best;
}

}  // namespace wormnet
