#include "wormnet/tables/cdg_augmentation.hpp"

#include <bit>

#include "wormnet/tables/routing_graph.hpp"

namespace wormnet::tables {

CdgAugmentation::CdgAugmentation(const Torus& topo, Candidates candidates, const FaultSet* faults)
    : topo_(topo),
      faults_(faults != nullptr && !faults->empty() ? faults : nullptr),
      n_(topo.num_dims()),
      turns_(topo.num_nodes(), topo.num_dims()) {
  build_base();
  compute_used_directions();
  while (true) {
    ++stats_.passes;
    if (add_pass(candidates) == 0) break;
  }
}

void CdgAugmentation::build_base() {
  const RoutingGraph g(topo_, {}, faults_);
  adj_.assign(topo_.num_channels(), 0);
  std::vector<std::uint16_t> out(static_cast<std::size_t>(2 * n_));
  for (std::uint32_t u = 0; u < topo_.num_nodes(); ++u) {
    // Ports a packet that arrived in direction a may leave on, over all vertices of u.
    std::fill(out.begin(), out.end(), 0);
    for (int q = 0; q < g.num_states(); ++q) {
      const auto st = static_cast<RoutingGraph::State>(q);
      const Direction a = g.arrival(st);
      if (a < 0) continue;
      g.for_each_edge(NodeId(u), st, EdgeSet::kLiteral, [&](Direction o, RoutingGraph::State) {
        if (o != RoutingGraph::kEndStep) {
          out[static_cast<std::size_t>(a)] |= static_cast<std::uint16_t>(1U << port_of(o, n_));
        }
      });
    }
    for (Direction a = 0; a < 2 * n_; ++a) {
      const PortId p = port_of(a, n_);
      const NodeId from = g.behind(NodeId(u), a);  // over a working link only
      if (!from.valid()) continue;
      adj_[topo_.channel(from, p).value()] = out[static_cast<std::size_t>(a)];
    }
  }
  base_adj_ = adj_;
  for (std::uint16_t m : adj_) stats_.base_edges += static_cast<std::uint64_t>(std::popcount(m));
}

void CdgAugmentation::compute_used_directions() {
  const std::uint32_t channels = topo_.num_channels();
  used_.resize(channels);
  for (std::uint32_t c = 0; c < channels; ++c) {
    used_[c] = static_cast<std::uint16_t>(1U << direction_of(topo_.channel_port(ChannelId(c)), n_));
  }
  // Least fixpoint of B(c) = {dir(c)} + union of B(successors): the reachable directions.
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::uint32_t c = channels; c-- > 0;) {
      const NodeId head = topo_.channel_dest(ChannelId(c));
      std::uint16_t b = used_[c];
      for (unsigned m = adj_[c]; m != 0; m &= m - 1) {
        b |= used_[topo_.channel(head, static_cast<PortId>(std::countr_zero(m))).value()];
      }
      if (b != used_[c]) {
        used_[c] = b;
        changed = true;
      }
    }
  }
}

std::uint64_t CdgAugmentation::add_pass(Candidates candidates) {
  std::uint64_t added = 0;
  const bool first_pass = stats_.passes == 1;
  for (std::uint32_t c = 0; c < topo_.num_channels(); ++c) {
    if (!working(ChannelId(c))) continue;
    const Direction a = direction_of(topo_.channel_port(ChannelId(c)), n_);
    const NodeId v = topo_.channel_dest(ChannelId(c));
    for (Direction o = 0; o < a; ++o) {  // turns against the order only
      const PortId p = port_of(o, n_);
      if (!topo_.has_port(v, p) || ((adj_[c] >> p) & 1U) != 0) continue;
      if (faults_ != nullptr && faults_->port_failed(v, p)) continue;
      const bool first_step = is_plus(a, n_) && is_plus(o, n_);
      const bool last_step = !is_plus(a, n_) && !is_plus(o, n_);
      if (candidates == Candidates::kUsable && !first_step && !last_step) continue;
      if (first_pass) ++stats_.candidates;
      const ChannelId target = topo_.channel(v, p);
      if ((used_[target.value()] >> a) & 1U) continue;  // Theorem 2: could close a cycle
      adj_[c] = static_cast<std::uint16_t>(adj_[c] | (1U << p));
      ++added;
      if (first_step || last_step) {
        turns_.add(v, a, o);
        ++(first_step ? stats_.added_first_step : stats_.added_last_step);
      } else {
        ++stats_.added_unusable;
      }
      propagate(ChannelId(c), used_[target.value()]);
    }
  }
  return added;
}

void CdgAugmentation::propagate(ChannelId from, std::uint16_t directions) {
  stack_.assign(1, from.value());
  while (!stack_.empty()) {
    const std::uint32_t x = stack_.back();
    stack_.pop_back();
    if (static_cast<std::uint16_t>(used_[x] | directions) == used_[x]) continue;
    used_[x] = static_cast<std::uint16_t>(used_[x] | directions);
    const NodeId w = topo_.channel_source(ChannelId(x));
    const PortId px = topo_.channel_port(ChannelId(x));
    for (int p = 0; p < topo_.num_ports(); ++p) {
      // Channel into w on port p (from the neighbour behind it).
      const NodeId y_from = topo_.neighbor(w, Topology::reverse_port(static_cast<PortId>(p)));
      if (!y_from.valid()) continue;
      const ChannelId y = topo_.channel(y_from, static_cast<PortId>(p));
      if ((adj_[y.value()] >> px) & 1U) stack_.push_back(y.value());
    }
  }
}

ChannelDependencyGraph CdgAugmentation::to_verifier_graph() const {
  ChannelDependencyGraph g(topo_, 1);
  g.set_aside_ring_dependencies(true);
  for (std::uint32_t c = 0; c < topo_.num_channels(); ++c) {
    for (unsigned m = adj_[c]; m != 0; m &= m - 1) {
      g.add(ChannelId(c), 0, static_cast<PortId>(std::countr_zero(m)), 0);
    }
  }
  return g;
}

}  // namespace wormnet::tables
