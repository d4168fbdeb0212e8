// RouteSearch on a network with faults: searches of the literal routing graph of the working
// network without the minimal-step pruning (route_search.hpp says why and what they find).
#include <algorithm>
#include <limits>

#include "wormnet/core/error.hpp"
#include "wormnet/tables/canonical_route.hpp"
#include "wormnet/tables/route_search.hpp"

namespace wormnet::tables {

namespace {

constexpr std::uint64_t kInfinity = std::numeric_limits<std::uint64_t>::max();
constexpr int kUnlimited = std::numeric_limits<std::uint16_t>::max() - 1;
/// At most this many literal-graph paths name one route (its FS and LS splits).
constexpr std::uint32_t kPathsPerRoute = 4;

}  // namespace

RouteWord RouteSearch::word_of_states(NodeId s, NodeId d,
                                      std::span<const RoutingGraph::State> states) const {
  // begin -> [FS] -> dirbit ... -> [LS]: the FS dimension from the first state, the LS one
  // from the last, the signs from the last direction-order state.
  AngaraRoute r;
  for (const RoutingGraph::State q : states) {
    switch (graph_.kind(q)) {
      case StateKind::kFirstStep:
        r.first_step_dim = graph_.arrival(q);
        break;
      case StateKind::kDirbit:
        r.minus_dims = graph_.minus_dims(graph_.dirbit_code(q));
        break;
      case StateKind::kLastStep:
        r.last_step_dim = graph_.arrival(q) - n_;
        break;
      default:
        break;
    }
  }
  return canonical_route(topo_, graph_.turns(), s, d, r.encode());
}

RouteWord RouteSearch::faulty_route_from(NodeId s, Vertex last) {
  path_.clear();
  for (Vertex x = last; state_of(x) != graph_.begin_state(); x = parent_[x]) {
    path_.push_back(state_of(x));
  }
  std::reverse(path_.begin(), path_.end());
  return word_of_states(s, node_of(last), path_);
}

void RouteSearch::forward(NodeId s, int limit, bool count) {
  if (fwd_source_ == s && fwd_limit_ >= limit && (fwd_counted_ || !count)) return;
  if (++fwd_epoch_ == 0) {
    std::fill(fwd_stamp_.begin(), fwd_stamp_.end(), 0);
    std::fill(fwd_end_stamp_.begin(), fwd_end_stamp_.end(), 0);
    fwd_epoch_ = 1;
  }
  fwd_source_ = s;
  fwd_limit_ = limit;
  fwd_counted_ = count;
  queue_.clear();
  const Vertex b = vertex(s, graph_.begin_state());
  fwd_stamp_[b] = fwd_epoch_;
  depth_[b] = 0;
  count_[b] = 1;
  queue_.push_back(b);
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const Vertex x = queue_[head];
    const NodeId u = node_of(x);
    const std::uint16_t dx = depth_[x];
    const std::uint32_t here = count_[x];
    ++expanded_;
    graph_.for_each_edge(
        u, state_of(x), EdgeSet::kLiteral, [&](Direction o, RoutingGraph::State next) {
          if (o == RoutingGraph::kEndStep) {
            if (u == s) return;
            auto& e = fwd_end_stamp_[u.value()];
            if (e != fwd_epoch_) {
              e = fwd_epoch_;
              end_depth_[u.value()] = dx;
              end_parent_[u.value()] = x;
              end_count_[u.value()] = 0;
            }
            if (count && end_depth_[u.value()] == dx) {
              end_count_[u.value()] = std::min(kManyRoutes, end_count_[u.value()] + here);
            }
            return;
          }
          if (dx >= limit) return;
          const Vertex y = vertex(topo_.neighbor(u, port_of(o, n_)), next);
          if (fwd_stamp_[y] != fwd_epoch_) {
            fwd_stamp_[y] = fwd_epoch_;
            depth_[y] = static_cast<std::uint16_t>(dx + 1);
            parent_[y] = x;
            count_[y] = 0;
            queue_.push_back(y);
          }
          if (count && depth_[y] == dx + 1) {
            count_[y] = std::min(kManyRoutes, count_[y] + here);
          }
        });
  }
}

void RouteSearch::faulty_bfs_routes(NodeId s, std::span<const std::uint64_t> weights,
                                    std::span<RouteWord> row) {
  // The paper's Algorithm 2 as in bfs_routes(), over every step of the literal graph: each
  // vertex is found at its depth, first by the vertex of the level before that queued it
  // first (ascending link weight), and a node's route ends at its first vertex expanded.
  next_epoch();
  fwd_source_ = NodeId::invalid();  // parent_ is this search's now
  queue_.clear();
  const Vertex b = vertex(s, graph_.begin_state());
  stamp_[b] = epoch_;
  queue_.push_back(b);
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const Vertex x = queue_[head];
    const NodeId u = node_of(x);
    ++expanded_;
    children_.clear();
    graph_.for_each_edge(u, state_of(x), EdgeSet::kLiteral,
                         [&](Direction o, RoutingGraph::State next) {
                           if (o == RoutingGraph::kEndStep) {
                             if (u != s && end_stamp_[u.value()] != epoch_) {
                               end_stamp_[u.value()] = epoch_;
                               end_parent_[u.value()] = x;
                             }
                             return;
                           }
                           const Vertex y = vertex(topo_.neighbor(u, port_of(o, n_)), next);
                           if (stamp_[y] == epoch_) return;
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
      if (stamp_[c.v] == epoch_) continue;  // two edges of x into one vertex
      stamp_[c.v] = epoch_;
      parent_[c.v] = x;
      queue_.push_back(c.v);
    }
  }
  for (std::uint32_t d = 0; d < topo_.num_nodes(); ++d) {
    if (d == s.value()) continue;
    row[d] = end_stamp_[d] == epoch_ ? faulty_route_from(s, end_parent_[d]) : kNoRoute;
  }
}

void RouteSearch::faulty_count_routes(NodeId s, std::span<std::uint32_t> counts,
                                      std::span<RouteWord> unique) {
  forward(s, kUnlimited, true);
  std::vector<RouteWord> routes;
  for (std::uint32_t di = 0; di < topo_.num_nodes(); ++di) {
    const NodeId d(di);
    unique[di] = kNoRoute;
    if (d == s) {
      counts[di] = 0;
      unique[di] = 0;
      continue;
    }
    if (!end_reached(d)) {
      counts[di] = 0;
      continue;
    }
    const std::uint32_t paths = end_count_[di];
    if (paths == 1) {
      counts[di] = 1;
      unique[di] = faulty_route_from(s, end_parent_[di]);
    } else if (paths <= kPathsPerRoute) {
      faulty_enumerate_routes(s, d, 2, routes);
      counts[di] = static_cast<std::uint32_t>(routes.size());
      if (routes.size() == 1) unique[di] = routes[0];
    } else {
      counts[di] = paths;  // five paths or more: at least two routes
    }
  }
}

void RouteSearch::faulty_enumerate_routes(NodeId s, NodeId d, std::size_t limit,
                                          std::vector<RouteWord>& out) {
  out.clear();
  require(fwd_source_ == s, "enumerate_routes() without the search from its source");
  if (d == s || !end_reached(d)) return;
  // Depth-first, backwards from the vertices of d at the route length, through vertices the
  // forward search found one level earlier. path_ holds the states from d back towards s.
  struct Walker {
    RouteSearch& self;
    NodeId s;
    NodeId d;
    std::size_t limit;
    std::vector<RouteWord>& out;
    void visit(Vertex x) {
      if (out.size() >= limit) return;
      const RoutingGraph& g = self.graph_;
      const RoutingGraph::State q = self.state_of(x);
      if (q == g.begin_state()) {
        self.states_scratch_.assign(self.path_.rbegin(), self.path_.rend());
        const RouteWord w = self.word_of_states(s, d, self.states_scratch_);
        if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
        return;
      }
      self.path_.push_back(q);
      const std::uint16_t want = static_cast<std::uint16_t>(self.depth_[x] - 1);
      g.for_each_predecessor(self.node_of(x), q, EdgeSet::kLiteral,
                             [&](NodeId u, RoutingGraph::State p, Direction) {
                               const Vertex y = self.vertex(u, p);
                               if (!self.reached(y) || self.depth_[y] != want) return;
                               visit(y);
                             });
      self.path_.pop_back();
    }
  };
  Walker walker{*this, s, d, limit, out};
  path_.clear();
  const std::uint16_t length = end_depth_[d.value()];
  for (int q = 1; q + 1 < states_; ++q) {
    const Vertex x = vertex(d, static_cast<RoutingGraph::State>(q));
    if (reached(x) && depth_[x] == length) walker.visit(x);
  }
}

void RouteSearch::faulty_build_sssp(NodeId s, std::span<const NodeId> dests,
                                    std::span<const std::uint64_t> weights, std::uint64_t base,
                                    std::span<RouteWord> routes,
                                    std::span<std::uint16_t> first_ports, int length) {
  require(length > 0, "BUILD_SSSP with faults: the destinations' route length is needed");
  forward(s, length, false);
  next_epoch();
  const int level = length;
  if (levels_.size() < static_cast<std::size_t>(level) + 1) {
    levels_.resize(static_cast<std::size_t>(level) + 1);
  }
  for (int l = 0; l <= level; ++l) levels_[static_cast<std::size_t>(l)].clear();
  slots_.clear();
  preds_.clear();
  ends_list_.clear();
  dest_end_.clear();
  auto mark = [&](Vertex x, int l) {
    if (stamp_[x] == epoch_) return slot_[x];
    stamp_[x] = epoch_;
    const auto slot = static_cast<std::uint32_t>(slots_.size());
    slot_[x] = slot;
    slots_.push_back(Slot{x, 0, 0, 0, l == 0 ? 0 : kInfinity, 0});
    levels_[static_cast<std::size_t>(l)].push_back(slot);
    return slot;
  };
  for (NodeId d : dests) {
    require(end_reached(d) && end_depth_[d.value()] == level,
            "BUILD_SSSP: destinations at different route lengths");
    dest_end_.push_back(static_cast<std::uint32_t>(ends_list_.size()));
    for (int q = 1; q + 1 < states_; ++q) {
      const Vertex x = vertex(d, static_cast<RoutingGraph::State>(q));
      if (reached(x) && depth_[x] == level) ends_list_.push_back(mark(x, level));
    }
  }
  dest_end_.push_back(static_cast<std::uint32_t>(ends_list_.size()));
  // Backwards from the destinations through the vertices found one level earlier: exactly
  // the vertices on shortest routes to them (every one reachable from U_begin(s)).
  for (int l = level; l >= 1; --l) {
    auto& here = levels_[static_cast<std::size_t>(l)];
    for (std::size_t k = 0; k < here.size(); ++k) {
      const std::uint32_t slot = here[k];
      const Vertex x = slots_[slot].vertex;
      ++expanded_;
      const auto first = static_cast<std::uint32_t>(preds_.size());
      graph_.for_each_predecessor(
          node_of(x), state_of(x), EdgeSet::kLiteral,
          [&](NodeId u, RoutingGraph::State p, Direction o) {
            const Vertex y = vertex(u, p);
            if (!reached(y) || depth_[y] != l - 1) return;
            const std::uint32_t from = mark(y, l - 1);
            preds_.push_back(
                {from, channel_[u.value() * static_cast<std::uint32_t>(topo_.num_ports()) +
                                port_of(o, n_)]});
          });
      slots_[slot].first_pred = first;
      slots_[slot].end_pred = static_cast<std::uint32_t>(preds_.size());
    }
  }
  // Forwards, level by level, as build_sssp().
  relax_levels(level, weights, base);
  for (std::size_t i = 0; i < dests.size(); ++i) {
    std::uint16_t ports = 0;
    const std::uint32_t last =
        cheapest_end(i, ports, "BUILD_SSSP: a destination has no route of its length");
    path_.clear();
    for (std::uint32_t x = last; state_of(slots_[x].vertex) != graph_.begin_state();
         x = slots_[x].parent) {
      path_.push_back(state_of(slots_[x].vertex));
    }
    std::reverse(path_.begin(), path_.end());
    routes[i] = word_of_states(s, dests[i], path_);
    first_ports[i] = ports;
  }
}

}  // namespace wormnet::tables
