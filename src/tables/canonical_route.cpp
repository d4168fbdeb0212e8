#include "wormnet/tables/canonical_route.hpp"

#include <array>

#include "wormnet/tables/direction.hpp"

namespace wormnet::tables {

namespace {

/// A route as runs of one direction each, in route order (at most FS + 2n + LS of them).
struct Runs {
  std::array<Direction, 2 * 6 + 2> dir{};
  std::array<int, 2 * 6 + 2> hops{};
  int count = 0;
  bool operator==(const Runs&) const = default;
  void add(Direction o, int h) {
    if (h == 0) return;
    if (count > 0 && dir[static_cast<std::size_t>(count - 1)] == o) {
      hops[static_cast<std::size_t>(count - 1)] += h;
      return;
    }
    dir[static_cast<std::size_t>(count)] = o;
    hops[static_cast<std::size_t>(count)] = h;
    ++count;
  }
};

Runs runs_of(const ExpandedRoute& plan, int n) {
  Runs runs;
  if (plan.first_port >= 0) runs.add(direction_of(static_cast<PortId>(plan.first_port), n), 1);
  for (Direction o = 0; o < 2 * n; ++o) {
    runs.add(o, plan.hops_per_direction[static_cast<std::size_t>(o)]);
  }
  if (plan.last_port >= 0) runs.add(direction_of(static_cast<PortId>(plan.last_port), n), 1);
  return runs;
}

}  // namespace

RouteWord canonical_route(const Torus& topo, const TurnSet& turns, NodeId s, NodeId d,
                          RouteWord w) {
  const ExpandedRoute plan = expand_route(topo, s, d, w);
  if (!plan.ok) return kNoRoute;
  const int n = topo.num_dims();
  const Runs runs = runs_of(plan, n);
  if (runs.count == 0) return w;  // the empty route (s == d)
  // Splits in the order of preference: (FS, LS) = (no, no), (yes, no), (no, yes), (yes, yes).
  for (int split = 0; split < 4; ++split) {
    const bool fs = (split & 1) != 0;
    const bool ls = (split & 2) != 0;
    int first = 0;
    int last = runs.count - 1;
    if (fs && (runs.hops[0] != 1 || !is_plus(runs.dir[0], n))) continue;
    if (ls && (runs.hops[static_cast<std::size_t>(last)] != 1 ||
               is_plus(runs.dir[static_cast<std::size_t>(last)], n))) {
      continue;
    }
    if (fs) ++first;
    if (ls) --last;
    if (fs && ls && first > last) continue;  // FS straight into LS: no such edge
    if (!fs && !ls && first > last) continue;
    if (ls && first > last) continue;  // LS needs a direction-order part before it
    // The direction-order part: strictly increasing directions, one sign per dimension.
    bool ok = true;
    std::uint8_t used = 0;
    std::uint8_t minus = 0;
    for (int r = first; r <= last && ok; ++r) {
      const Direction o = runs.dir[static_cast<std::size_t>(r)];
      if (r > first && o <= runs.dir[static_cast<std::size_t>(r - 1)]) ok = false;
      const int dim = dim_of(o, n);
      if ((used >> dim) & 1U) ok = false;
      used = static_cast<std::uint8_t>(used | (1U << dim));
      if (!is_plus(o, n)) minus = static_cast<std::uint8_t>(minus | (1U << dim));
    }
    if (!ok) continue;
    AngaraRoute route;
    route.minus_dims = minus;
    if (fs) {
      const Direction l = runs.dir[0];
      route.first_step_dim = dim_of(l, n);
      if (first <= last) {
        const Direction k = runs.dir[static_cast<std::size_t>(first)];
        const NodeId at = topo.neighbor(s, port_of(l, n));
        if (k < l && ((turns.at(at, l) >> k) & 1U) == 0) continue;
      }
    }
    if (ls) {
      const Direction m = runs.dir[static_cast<std::size_t>(runs.count - 1)];
      route.last_step_dim = dim_of(m, n);
      const Direction j = runs.dir[static_cast<std::size_t>(last)];
      const NodeId at = topo.neighbor(d, Topology::reverse_port(port_of(m, n)));
      if (m < j && ((turns.at(at, j) >> m) & 1U) == 0) continue;
    }
    // The split must describe the same channels (a run merged round a whole ring would not).
    const RouteWord word = route.encode();
    const ExpandedRoute again = expand_route(topo, s, d, word);
    if (again.ok && runs_of(again, n) == runs) return word;
  }
  return kNoRoute;
}

}  // namespace wormnet::tables
