#include "wormnet/tables/routing_graph.hpp"

#include "wormnet/core/error.hpp"

namespace wormnet::tables {

std::uint64_t RoutingGraph::vertices_per_node(int n) {
  std::uint64_t p = 1;
  for (int i = 0; i < n; ++i) p *= 3;
  return p + 2 * static_cast<std::uint64_t>(n) + 1;
}

RoutingGraph::RoutingGraph(const Torus& topo, TurnSet turns, const FaultSet* faults)
    : topo_(&topo),
      faults_(faults != nullptr && !faults->empty() ? faults : nullptr),
      turns_(std::move(turns)),
      n_(topo.num_dims()) {
  require(n_ >= 1 && n_ <= 6, "routing graph: 1 to 6 dimensions");
  require(turns_.empty() || turns_.dims() == n_, "routing graph: turn set of another torus");
  const std::uint32_t nodes = topo.num_nodes();
  const auto ports = static_cast<std::size_t>(2 * n_);
  ports_.resize(nodes);
  next_.resize(static_cast<std::size_t>(nodes) * ports);
  for (std::uint32_t u = 0; u < nodes; ++u) {
    const NodeId v(u);
    ports_[u] = faults_ != nullptr ? faults_->working_ports(topo, v) : topo.port_mask(v);
    for (std::size_t p = 0; p < ports; ++p) {
      const auto port = static_cast<PortId>(p);
      next_[u * ports + p] = ((ports_[u] >> port) & 1U) != 0 ? topo.neighbor(v, port).value()
                                                             : NodeId::invalid().value();
    }
  }
  pow3_of_.resize(static_cast<std::size_t>(n_));
  pow3_ = 1;
  for (int i = 0; i < n_; ++i) {
    pow3_of_[static_cast<std::size_t>(i)] = pow3_;
    pow3_ *= 3;
  }
  num_states_ = pow3_ + 2 * n_ + 1;
  const int dirs = 2 * n_;
  last_.assign(static_cast<std::size_t>(pow3_), -1);
  minus_.assign(static_cast<std::size_t>(pow3_), 0);
  extend_.assign(static_cast<std::size_t>(pow3_) * dirs, -1);
  ending_.assign(static_cast<std::size_t>(dirs), {});
  for (int code = 1; code < pow3_; ++code) {
    Direction last = -1;
    std::uint8_t minus = 0;
    int c = code;
    for (int i = 0; i < n_; ++i, c /= 3) {
      const int digit = c % 3;
      if (digit == 2) {
        minus = static_cast<std::uint8_t>(minus | (1U << i));
        last = std::max(last, n_ + i);
      } else if (digit == 1) {
        last = std::max(last, i);
      }
    }
    last_[static_cast<std::size_t>(code)] = last;
    minus_[static_cast<std::size_t>(code)] = minus;
    ending_[static_cast<std::size_t>(last)].push_back(dirbit_state(code));
    for (Direction k = last; k < dirs; ++k) {
      const int dim = dim_of(k, n_);
      const int digit = (code / pow3_of_[static_cast<std::size_t>(dim)]) % 3;
      const int want = is_plus(k, n_) ? 1 : 2;
      int next = -1;
      if (digit == want) {
        next = code;  // same direction again (only k == last can be in the set)
      } else if (digit == 0) {
        next = code + want * pow3_of_[static_cast<std::size_t>(dim)];
      }
      extend_[static_cast<std::size_t>(code) * dirs + static_cast<std::size_t>(k)] =
          static_cast<std::int16_t>(next);
    }
  }
}

StateKind RoutingGraph::kind(State q) const {
  if (q == 0) return StateKind::kBegin;
  if (q <= n_) return StateKind::kFirstStep;
  if (q < n_ + pow3_) return StateKind::kDirbit;
  if (q < 2 * n_ + pow3_) return StateKind::kLastStep;
  return StateKind::kEnd;
}

Direction RoutingGraph::arrival(State q) const {
  switch (kind(q)) {
    case StateKind::kFirstStep:
      return q - 1;
    case StateKind::kDirbit:
      return last_[static_cast<std::size_t>(dirbit_code(q))];
    case StateKind::kLastStep:
      return n_ + (q - n_ - pow3_);
    default:
      return -1;
  }
}

std::string RoutingGraph::state_label(State q) const {
  switch (kind(q)) {
    case StateKind::kBegin:
      return "begin";
    case StateKind::kEnd:
      return "end";
    case StateKind::kFirstStep:
      return "FS" + direction_label(q - 1, n_);
    case StateKind::kLastStep:
      return "LS" + direction_label(arrival(q), n_);
    case StateKind::kDirbit: {
      std::string s = "{";
      const int code = dirbit_code(q);
      for (Direction o = 0; o < 2 * n_; ++o) {
        const int digit = (code / pow3_of_[static_cast<std::size_t>(dim_of(o, n_))]) % 3;
        if (digit == (is_plus(o, n_) ? 1 : 2)) {
          if (s.size() > 1) s += ',';
          s += direction_label(o, n_);
        }
      }
      return s + "}";
    }
  }
  return "?";
}

std::uint64_t RoutingGraph::edges_at(NodeId u, EdgeSet set) const {
  std::uint64_t n = 0;
  for (int q = 0; q < num_states_; ++q) {
    for_each_edge(u, static_cast<State>(q), set, [&](Direction, State) { ++n; });
  }
  return n;
}

}  // namespace wormnet::tables
