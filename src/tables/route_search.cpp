#include "wormnet/tables/route_search.hpp"

#include <array>
#include <bit>
#include <limits>

#include "wormnet/core/error.hpp"

namespace wormnet::tables {

namespace {

constexpr std::uint64_t kInfinity = std::numeric_limits<std::uint64_t>::max();

}  // namespace

RouteSearch::RouteSearch(const RoutingGraph& graph)
    : graph_(graph),
      topo_(graph.topology()),
      n_(graph.dims()),
      states_(graph.num_states()),
      faulty_(graph.faulty()) {
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
  slot_.resize(vertices);
  channel_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(topo_.num_ports()),
                  ChannelId::invalid().value());
  for (std::uint32_t c = 0; c < topo_.num_channels(); ++c) {
    channel_[static_cast<std::size_t>(topo_.channel_source(ChannelId(c)).value()) *
                 static_cast<std::size_t>(topo_.num_ports()) +
             topo_.channel_port(ChannelId(c))] = c;
  }
  end_stamp_.assign(nodes, 0);
  end_parent_.resize(nodes);
  end_count_.resize(nodes);
  if (faulty_) {
    fwd_stamp_.assign(vertices, 0);
    depth_.resize(vertices);
    fwd_end_stamp_.assign(nodes, 0);
    end_depth_.resize(nodes);
  }
}

int RouteSearch::route_length(NodeId d) const {
  require(count_source_.valid(), "route_length() before count_routes()");
  if (!faulty_) return topo_.distance(count_source_, d);
  if (fwd_source_ != count_source_ || !end_reached(d) || d == count_source_) {
    return d == count_source_ ? 0 : -1;
  }
  return end_depth_[d.value()];
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

void RouteSearch::end_states(NodeId s, NodeId d, std::vector<RoutingGraph::State>& out) const {
  out.clear();
  // Allowed base-3 digits per dimension (bit 0: none, bit 1: +, bit 2: -).
  std::array<std::uint8_t, 6> allowed{};
  for (int i = 0; i < n_; ++i) {
    const std::size_t a = coord(s, i);
    const std::size_t b = coord(d, i);
    if (a == b) {
      allowed[static_cast<std::size_t>(i)] = 1U;
      continue;
    }
    const int k = size_[static_cast<std::size_t>(i)];
    const auto uk = static_cast<std::size_t>(k);
    const auto& table = step_[static_cast<std::size_t>(i)];
    std::uint8_t m = 0;
    if (table[a * uk + (b + uk - 1) % uk] & 1U) m |= 2U;  // arriving + is minimal
    if (table[a * uk + (b + 1) % uk] & 2U) m |= 4U;       // arriving - is minimal
    if (topo_.ring_distance(i, static_cast<int>(a), static_cast<int>(b)) == 1 &&
        (first_step_possible(s, i) || last_step_possible(d, i))) {
      m |= 1U;  // the dimension's single hop may be an FS or an LS step
    }
    allowed[static_cast<std::size_t>(i)] = m;
  }
  // Every code in the product of the allowed digits.
  std::array<int, 6> digit{};
  for (int i = 0; i < n_; ++i)
    digit[static_cast<std::size_t>(i)] = std::countr_zero(allowed[static_cast<std::size_t>(i)]);
  while (true) {
    int code = 0;
    for (int i = n_ - 1; i >= 0; --i) code = 3 * code + digit[static_cast<std::size_t>(i)];
    if (code != 0) out.push_back(graph_.dirbit_state(code));
    int i = 0;
    for (; i < n_; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      int next = digit[ui] + 1;
      while (next < 3 && ((allowed[ui] >> next) & 1U) == 0) ++next;
      if (next < 3) {
        digit[ui] = next;
        break;
      }
      digit[ui] = std::countr_zero(allowed[ui]);
    }
    if (i == n_) break;
  }
  for (int i = 0; i < n_; ++i) {
    const Direction o = n_ + i;
    const NodeId u = topo_.neighbor(d, Topology::reverse_port(port_of(o, n_)));
    if (u.valid() && minimal_step(s, u, o) && last_step_possible(d, i)) {
      out.push_back(graph_.last_step_state(i));
    }
  }
}

bool RouteSearch::dirbit_reachable(NodeId s, NodeId u, int code) const {
  bool covered = false;
  for (int i = 0; i < n_; ++i, code /= 3) {
    const int digit = code % 3;
    const std::size_t a = coord(s, i);
    const std::size_t x = coord(u, i);
    const auto k = static_cast<std::size_t>(size_[static_cast<std::size_t>(i)]);
    const auto& table = step_[static_cast<std::size_t>(i)];
    const bool plus = (table[a * k + (x + k - 1) % k] & 1U) != 0;  // arriving + is minimal
    if (digit == 1) {
      if (a == x || !plus) return false;
    } else if (digit == 2) {
      if (a == x || (table[a * k + (x + 1) % k] & 2U) == 0) return false;
    } else if (a != x) {
      if (covered || !plus ||
          topo_.ring_distance(i, static_cast<int>(a), static_cast<int>(x)) != 1 ||
          !first_step_possible(s, i)) {
        return false;
      }
      covered = true;
    }
  }
  return true;
}

bool RouteSearch::first_step_possible(NodeId s, int dim) const {
  const NodeId at = topo_.neighbor(s, port_of(dim, n_));
  return at.valid() && graph_.turns().at(at, dim) != 0;
}

bool RouteSearch::last_step_possible(NodeId d, int dim) const {
  const Direction o = n_ + dim;
  const NodeId at = topo_.neighbor(d, Topology::reverse_port(port_of(o, n_)));
  if (!at.valid()) return false;
  for (Direction in = o + 1; in < 2 * n_; ++in) {
    if ((graph_.turns().at(at, in) >> o) & 1U) return true;
  }
  return false;
}

void RouteSearch::bfs_routes(NodeId s, std::span<const std::uint64_t> weights,
                             std::span<RouteWord> row) {
  if (faulty_) {
    faulty_bfs_routes(s, weights, row);
    return;
  }
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
                               std::span<RouteWord> unique, EdgeSet set) {
  count_source_ = s;
  if (faulty_) {
    faulty_count_routes(s, counts, unique);
    return;
  }
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
    graph_.for_each_edge(u, state_of(x), set, [&](Direction o, RoutingGraph::State next) {
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
  if (faulty_) {
    faulty_enumerate_routes(s, d, limit, out);
    return;
  }
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
                             std::span<RouteWord> routes, std::span<std::uint16_t> first_ports,
                             int length) {
  if (dests.empty()) return;
  if (faulty_) {
    faulty_build_sssp(s, dests, weights, base, routes, first_ports, length);
    return;
  }
  next_epoch();
  const int level = topo_.distance(s, dests[0]);
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
    require(topo_.distance(s, d) == level, "BUILD_SSSP: destinations at different distances");
    end_states(s, d, ends_);
    dest_end_.push_back(static_cast<std::uint32_t>(ends_list_.size()));
    for (RoutingGraph::State q : ends_) ends_list_.push_back(mark(vertex(d, q), level));
  }
  dest_end_.push_back(static_cast<std::uint32_t>(ends_list_.size()));
  // Backwards from the destinations: the vertices on minimal paths to any of them, with
  // their predecessors (and the channel of each step) kept for the relaxation.
  const RoutingGraph::State begin = graph_.begin_state();
  for (int l = level; l >= 1; --l) {
    auto& here = levels_[static_cast<std::size_t>(l)];
    for (std::size_t k = 0; k < here.size(); ++k) {
      const std::uint32_t slot = here[k];
      const Vertex x = slots_[slot].vertex;
      ++expanded_;
      const auto first = static_cast<std::uint32_t>(preds_.size());
      graph_.for_each_predecessor(
          node_of(x), state_of(x), EdgeSet::kCanonical,
          [&](NodeId u, RoutingGraph::State p, Direction o) {
            if (!minimal_step(s, u, o)) return;
            if (l == 1 ? (u != s || p != begin) : p == begin) return;
            if (graph_.kind(p) == StateKind::kDirbit &&
                !dirbit_reachable(s, u, graph_.dirbit_code(p))) {
              return;  // cannot be reached from s: it would be a dead end
            }
            const std::uint32_t from = mark(vertex(u, p), l - 1);
            preds_.push_back(
                {from, channel_[u.value() * static_cast<std::uint32_t>(topo_.num_ports()) +
                                port_of(o, n_)]});
          });
      slots_[slot].first_pred = first;
      slots_[slot].end_pred = static_cast<std::uint32_t>(preds_.size());
    }
  }
  // Forwards, level by level: relax every vertex from its predecessors in the region.
  relax_levels(level, weights, base);
  for (std::size_t i = 0; i < dests.size(); ++i) {
    std::uint16_t ports = 0;
    const std::uint32_t last =
        cheapest_end(i, ports, "BUILD_SSSP: a destination has no minimal route");
    routes[i] = route_from_slot(last);
    first_ports[i] = ports;
  }
}

void RouteSearch::routes_of(std::size_t i, RouteSet& out) {
  if (out.first.empty()) out.first.push_back(0);
  walk_channels_.clear();
  walk_states_.clear();
  if (faulty_ && dest_end_[i] < dest_end_[i + 1]) {
    walk_dest_ = node_of(slots_[ends_list_[dest_end_[i]]].vertex);
  }
  for (std::uint32_t k = dest_end_[i]; k < dest_end_[i + 1]; ++k) {
    if (slots_[ends_list_[k]].cost != kInfinity) walk_routes(ends_list_[k], out);
  }
}

void RouteSearch::walk_routes(std::uint32_t slot, RouteSet& out) {
  const Slot& x = slots_[slot];
  if (x.first_pred == x.end_pred) {  // U_begin(s): the walk is a route
    const auto& st = walk_states_;   // st[0]: last state (at d), st.back(): first after begin
    if (faulty_) {
      states_scratch_.assign(st.rbegin(), st.rend());
      out.words.push_back(word_of_states(node_of(x.vertex), walk_dest_, states_scratch_));
      out.channels.insert(out.channels.end(), walk_channels_.rbegin(), walk_channels_.rend());
      out.first.push_back(static_cast<std::uint32_t>(out.channels.size()));
      out.first_port.push_back(topo_.channel_port(ChannelId(walk_channels_.back())));
      return;
    }
    AngaraRoute r;
    std::size_t dirbit = 0;
    if (graph_.kind(st[0]) == StateKind::kLastStep) {
      r.last_step_dim = graph_.arrival(st[0]) - n_;
      dirbit = 1;
    }
    r.minus_dims = graph_.minus_dims(graph_.dirbit_code(st[dirbit]));
    if (graph_.kind(st.back()) == StateKind::kFirstStep)
      r.first_step_dim = graph_.arrival(st.back());
    out.words.push_back(r.encode());
    out.channels.insert(out.channels.end(), walk_channels_.rbegin(), walk_channels_.rend());
    out.first.push_back(static_cast<std::uint32_t>(out.channels.size()));
    out.first_port.push_back(topo_.channel_port(ChannelId(walk_channels_.back())));
    return;
  }
  walk_states_.push_back(state_of(x.vertex));
  for (std::uint32_t k = x.first_pred; k < x.end_pred; ++k) {
    const Pred p = preds_[k];
    if (slots_[p.from].cost == kInfinity) continue;  // not reachable from s
    walk_channels_.push_back(p.channel);
    walk_routes(p.from, out);
    walk_channels_.pop_back();
  }
  walk_states_.pop_back();
}

void RouteSearch::relax_levels(int level, std::span<const std::uint64_t> weights,
                               std::uint64_t base) {
  for (int l = 1; l <= level; ++l) {
    for (std::uint32_t slot : levels_[static_cast<std::size_t>(l)]) {
      Slot& x = slots_[slot];
      std::uint64_t best = kInfinity;
      std::uint32_t from = 0;
      std::uint16_t ports = 0;
      for (std::uint32_t k = x.first_pred; k < x.end_pred; ++k) {
        const Pred& p = preds_[k];
        const Slot& y = slots_[p.from];
        if (y.cost == kInfinity) continue;
        ports = static_cast<std::uint16_t>(
            ports | (l == 1 ? (1U << topo_.channel_port(ChannelId(p.channel))) : y.first_ports));
        const std::uint64_t c = y.cost + base + weights[p.channel];
        if (c < best) {
          best = c;
          from = p.from;
        }
      }
      x.cost = best;
      x.parent = from;
      x.first_ports = ports;
    }
  }
}

std::uint32_t RouteSearch::cheapest_end(std::size_t i, std::uint16_t& ports,
                                        const char* what) const {
  std::uint64_t best = kInfinity;
  std::uint32_t last = 0;
  for (std::uint32_t k = dest_end_[i]; k < dest_end_[i + 1]; ++k) {
    const Slot& x = slots_[ends_list_[k]];
    ports = static_cast<std::uint16_t>(ports | x.first_ports);
    if (x.cost < best) {
      best = x.cost;
      last = ends_list_[k];
    }
  }
  require(best != kInfinity, what);
  return last;
}

RouteWord RouteSearch::route_from_slot(std::uint32_t last) const {
  AngaraRoute r;
  std::uint32_t x = last;
  RoutingGraph::State q = state_of(slots_[x].vertex);
  std::uint32_t dirbit = x;
  if (graph_.kind(q) == StateKind::kLastStep) {
    r.last_step_dim = graph_.arrival(q) - n_;
    dirbit = slots_[x].parent;
  }
  r.minus_dims = graph_.minus_dims(graph_.dirbit_code(state_of(slots_[dirbit].vertex)));
  while (state_of(slots_[slots_[x].parent].vertex) != graph_.begin_state()) x = slots_[x].parent;
  q = state_of(slots_[x].vertex);
  if (graph_.kind(q) == StateKind::kFirstStep) r.first_step_dim = graph_.arrival(q);
  return r.encode();
}

}  // namespace wormnet::tables
