#include "wormnet/tables/route_search.hpp"

#include <limits>

#include "wormnet/core/error.hpp"

namespace wormnet::tables {

namespace {

constexpr std::uint64_t kInfinity = std::numeric_limits<std::uint64_t>::max();

}  // namespace

RouteSearch::RouteSearch(const RoutingGraph& graph)
    : graph_(graph), topo_(graph.topology()), n_(graph.dims()), states_(graph.num_states()) {
  const std::uint32_t nodes = topo_.num_nodes();
  require(static_cast<std::uint64_t>(nodes) * static_cast<std::uint64_t>(states_) < (1ULL << 32),
          "route search: too many routing-graph vertices for 32-bit ids");
  size_.resize(static_cast<std::size_t>(n_));
  step_.resize(static_cast<std::size_t>(n_));
  for (int i = 0; i < n_; ++i) {
    const int k = topo_.size(i);
    size_[static_cast<std::size_t>(i)] = k;
    auto& table = step_[static_cast<std::size_t>(i)];
    table.assign(static_cast<std::size_t>(k) * static_cast<std::size_t>(k), 0);
    for (int a = 0; a < k; ++a) {
      for (int x = 0; x < k; ++x) {
        const int here = topo_.ring_distance(i, a, x);
        std::uint8_t m = 0;
        const bool ring = topo_.is_ring(i);
        if (ring || x + 1 < k) {
          if (topo_.ring_distance(i, a, (x + 1) % k) == here + 1) m |= 1U;
        }
        if (ring || x > 0) {
          if (topo_.ring_distance(i, a, (x + k - 1) % k) == here + 1) m |= 2U;
        }
        table[static_cast<std::size_t>(a * k + x)] = m;
      }
    }
  }
  coords_.resize(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(n_));
  for (std::uint32_t u = 0; u < nodes; ++u) {
    for (int i = 0; i < n_; ++i) {
      coords_[static_cast<std::size_t>(u) * static_cast<std::size_t>(n_) +
              static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(topo_.coord(NodeId(u), i));
    }
  }
  for (int q = 0; q < states_; ++q) {
    const StateKind k = graph_.kind(static_cast<RoutingGraph::State>(q));
    if (k == StateKind::kDirbit || k == StateKind::kLastStep) {
      end_states_.push_back(static_cast<RoutingGraph::State>(q));
    }
  }
  const std::size_t vertices = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(states_);
  stamp_.assign(vertices, 0);
  parent_.resize(vertices);
  count_.resize(vertices);
  cost_.resize(vertices);
  end_stamp_.assign(nodes, 0);
  end_parent_.resize(nodes);
  end_count_.resize(nodes);
}

void RouteSearch::next_epoch() {
  if (++epoch_ == 0) {  // wrapped: clear once every 2^32 searches
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(end_stamp_.begin(), end_stamp_.end(), 0);
    epoch_ = 1;
  }
}

int RouteSearch::turns(NodeId s, NodeId d) const {
  int dims = 0;
  for (int i = 0; i < n_; ++i) dims += coord(s, i) != coord(d, i) ? 1 : 0;
  return dims - 1;
}

RouteWord RouteSearch::route_from(Vertex last) const {
  AngaraRoute r;
  RoutingGraph::State q = state_of(last);
  Vertex dirbit = last;
  if (graph_.kind(q) == StateKind::kLastStep) {
    r.last_step_dim = graph_.arrival(q) - n_;
    dirbit = parent_[last];
  }
  r.minus_dims = graph_.minus_dims(graph_.dirbit_code(state_of(dirbit)));
  Vertex x = last;
  while (state_of(parent_[x]) != graph_.begin_state()) x = parent_[x];
  q = state_of(x);
  if (graph_.kind(q) == StateKind::kFirstStep) r.first_step_dim = graph_.arrival(q);
  return r.encode();
}

bool RouteSearch::may_end_at(NodeId s, NodeId d, RoutingGraph::State q) const {
  if (graph_.kind(q) == StateKind::kLastStep) {
    const Direction o = graph_.arrival(q);
    const NodeId u = topo_.neighbor(d, Topology::reverse_port(port_of(o, n_)));
    return u.valid() && minimal_step(s, u, o);
  }
  // The direction-order part uses each dimension the way a minimal route must: not at all
  // where s and d agree, in a minimal direction where they differ, or not at all when an FS
  // or LS step covers the dimension's single hop.
  int code = graph_.dirbit_code(q);
  for (int i = 0; i < n_; ++i, code /= 3) {
    const int digit = code % 3;
    const std::size_t a = coord(s, i);
    const std::size_t b = coord(d, i);
    if (a == b) {
      if (digit != 0) return false;
      continue;
    }
    if (digit == 0) {
      if (topo_.ring_distance(i, static_cast<int>(a), static_cast<int>(b)) != 1) return false;
      continue;
    }
    // The step into b in that direction must be minimal.
    const int k = size_[static_cast<std::size_t>(i)];
    const std::size_t before =
        digit == 1 ? (b + static_cast<std::size_t>(k) - 1) % static_cast<std::size_t>(k)
                   : (b + 1) % static_cast<std::size_t>(k);
    const std::uint8_t m =
        step_[static_cast<std::size_t>(i)][a * static_cast<std::size_t>(k) + before];
    if (((m >> (digit == 1 ? 0 : 1)) & 1U) == 0) return false;
  }
  return true;
}

void RouteSearch::bfs_routes(NodeId s, std::span<const std::uint64_t> weights,
                             std::span<RouteWord> row) {
  next_epoch();
  queue_.clear();
  const Vertex b = vertex(s, graph_.begin_state());
  stamp_[b] = epoch_;
  queue_.push_back(b);
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const Vertex x = queue_[head];
    const NodeId u = node_of(x);
    ++expanded_;
    children_.clear();
    graph_.for_each_edge(u, state_of(x), EdgeSet::kCanonical,
                         [&](Direction o, RoutingGraph::State next) {
                           if (o == RoutingGraph::kEndStep) {
                             if (u != s && end_stamp_[u.value()] != epoch_) {
                               end_stamp_[u.value()] = epoch_;
                               end_parent_[u.value()] = x;
                             }
                             return;
                           }
                           if (!minimal_step(s, u, o)) return;
                           const Vertex y = vertex(topo_.neighbor(u, port_of(o, n_)), next);
                           if (stamp_[y] == epoch_) return;
                           // Stable insertion by ascending link weight.
                           const std::uint64_t w = weight(weights, u, o);
                           std::size_t at = children_.size();
                           children_.push_back({y, w});
                           while (at > 0 && children_[at - 1].w > w) {
                             children_[at] = children_[at - 1];
                             --at;
                           }
                           children_[at] = {y, w};
                         });
    for (const Child& c : children_) {
      stamp_[c.v] = epoch_;
      parent_[c.v] = x;
      queue_.push_back(c.v);
    }
  }
  for (std::uint32_t d = 0; d < topo_.num_nodes(); ++d) {
    if (d == s.value()) continue;
    require(end_stamp_[d] == epoch_, "BFS: a node has no minimal route (routing graph defect)");
    row[d] = route_from(end_parent_[d]);
  }
}

void RouteSearch::count_routes(NodeId s, std::span<std::uint32_t> counts,
                               std::span<RouteWord> unique) {
  next_epoch();
  queue_.clear();
  const Vertex b = vertex(s, graph_.begin_state());
  stamp_[b] = epoch_;
  count_[b] = 1;
  queue_.push_back(b);
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const Vertex x = queue_[head];
    const NodeId u = node_of(x);
    const std::uint32_t here = count_[x];
    ++expanded_;
    graph_.for_each_edge(
        u, state_of(x), EdgeSet::kCanonical, [&](Direction o, RoutingGraph::State next) {
          if (o == RoutingGraph::kEndStep) {
            if (u == s) return;
            if (end_stamp_[u.value()] != epoch_) {
              end_stamp_[u.value()] = epoch_;
              end_parent_[u.value()] = x;
              end_count_[u.value()] = 0;
            }
            end_count_[u.value()] = std::min(kManyRoutes, end_count_[u.value()] + here);
            return;
          }
          if (!minimal_step(s, u, o)) return;
          const Vertex y = vertex(topo_.neighbor(u, port_of(o, n_)), next);
          if (stamp_[y] != epoch_) {
            stamp_[y] = epoch_;
            parent_[y] = x;
            count_[y] = 0;
            queue_.push_back(y);
          }
          count_[y] = std::min(kManyRoutes, count_[y] + here);
        });
  }
  for (std::uint32_t d = 0; d < topo_.num_nodes(); ++d) {
    if (d == s.value()) {
      counts[d] = 0;
      unique[d] = 0;
      continue;
    }
    counts[d] = end_stamp_[d] == epoch_ ? end_count_[d] : 0;
    unique[d] = counts[d] == 1 ? route_from(end_parent_[d]) : kNoRoute;
  }
}

void RouteSearch::enumerate_routes(NodeId s, NodeId d, std::size_t limit,
                                   std::vector<RouteWord>& out) {
  out.clear();
  // Depth-first, backwards from the vertices of d that end a route, through vertices the
  // last count_routes(s) reached. path_ holds the states from d back towards s.
  struct Walker {
    RouteSearch& self;
    NodeId s;
    std::size_t limit;
    std::vector<RouteWord>& out;
    void visit(Vertex x) {
      if (out.size() >= limit) return;
      const RoutingGraph& g = self.graph_;
      const RoutingGraph::State q = self.state_of(x);
      if (q == g.begin_state()) {
        const auto& p = self.path_;  // p[0] = last state (at d), p.back() = first after begin
        AngaraRoute r;
        std::size_t dirbit = 0;
        if (g.kind(p[0]) == StateKind::kLastStep) {
          r.last_step_dim = g.arrival(p[0]) - self.n_;
          dirbit = 1;
        }
        r.minus_dims = g.minus_dims(g.dirbit_code(p[dirbit]));
        if (g.kind(p.back()) == StateKind::kFirstStep) r.first_step_dim = g.arrival(p.back());
        out.push_back(r.encode());
        return;
      }
      self.path_.push_back(q);
      g.for_each_predecessor(self.node_of(x), q, EdgeSet::kCanonical,
                             [&](NodeId u, RoutingGraph::State p, Direction o) {
                               if (!self.minimal_step(s, u, o)) return;
                               const Vertex y = self.vertex(u, p);
                               if (self.stamp_[y] != self.epoch_) return;
                               visit(y);
                             });
      self.path_.pop_back();
    }
  };
  Walker walker{*this, s, limit, out};
  path_.clear();
  for (RoutingGraph::State q : end_states_) {
    const Vertex x = vertex(d, q);
    if (stamp_[x] == epoch_) walker.visit(x);
  }
}

void RouteSearch::build_sssp(NodeId s, std::span<const NodeId> dests,
                             std::span<const std::uint64_t> weights, std::uint64_t base,
                             std::span<RouteWord> routes) {
  if (dests.empty()) return;
  next_epoch();
  const int level = topo_.distance(s, dests[0]);
  if (levels_.size() < static_cast<std::size_t>(level) + 1)
    levels_.resize(static_cast<std::size_t>(level) + 1);
  for (int l = 0; l <= level; ++l) levels_[static_cast<std::size_t>(l)].clear();
  // Backwards from the destinations: the vertices on minimal paths to any of them.
  for (NodeId d : dests) {
    require(topo_.distance(s, d) == level, "BUILD_SSSP: destinations at different distances");
    for (RoutingGraph::State q : end_states_) {
      if (!may_end_at(s, d, q)) continue;
      const Vertex x = vertex(d, q);
      if (stamp_[x] == epoch_) continue;
      stamp_[x] = epoch_;
      cost_[x] = kInfinity;
      levels_[static_cast<std::size_t>(level)].push_back(x);
    }
  }
  const RoutingGraph::State begin = graph_.begin_state();
  auto usable = [&](int l, NodeId u, RoutingGraph::State p, Direction o) {
    if (!minimal_step(s, u, o)) return false;
    return l == 1 ? (u == s && p == begin) : p != begin;
  };
  for (int l = level; l >= 1; --l) {
    auto& below = levels_[static_cast<std::size_t>(l - 1)];
    for (Vertex x : levels_[static_cast<std::size_t>(l)]) {
      ++expanded_;
      graph_.for_each_predecessor(node_of(x), state_of(x), EdgeSet::kCanonical,
                                  [&](NodeId u, RoutingGraph::State p, Direction o) {
                                    if (!usable(l, u, p, o)) return;
                                    const Vertex y = vertex(u, p);
                                    if (stamp_[y] == epoch_) return;
                                    stamp_[y] = epoch_;
                                    cost_[y] = l == 1 ? 0 : kInfinity;
                                    below.push_back(y);
                                  });
    }
  }
  // Forwards, level by level: relax every vertex from its predecessors in the region.
  for (int l = 1; l <= level; ++l) {
    for (Vertex x : levels_[static_cast<std::size_t>(l)]) {
      std::uint64_t best = kInfinity;
      Vertex from = 0;
      graph_.for_each_predecessor(node_of(x), state_of(x), EdgeSet::kCanonical,
                                  [&](NodeId u, RoutingGraph::State p, Direction o) {
                                    if (!usable(l, u, p, o)) return;
                                    const Vertex y = vertex(u, p);
                                    if (stamp_[y] != epoch_ || cost_[y] == kInfinity) return;
                                    const std::uint64_t c = cost_[y] + base + weight(weights, u, o);
                                    if (c < best) {
                                      best = c;
                                      from = y;
                                    }
                                  });
      cost_[x] = best;
      parent_[x] = from;
    }
  }
  for (std::size_t i = 0; i < dests.size(); ++i) {
    std::uint64_t best = kInfinity;
    Vertex last = 0;
    for (RoutingGraph::State q : end_states_) {
      const Vertex x = vertex(dests[i], q);
      if (stamp_[x] == epoch_ && cost_[x] < best) {
        best = cost_[x];
        last = x;
      }
    }
    require(best != kInfinity, "BUILD_SSSP: a destination has no minimal route");
    routes[i] = route_from(last);
  }
}

}  // namespace wormnet::tables
