#include "destination_pass.hpp"

#include <algorithm>
#include <bit>

#include "wormnet/core/error.hpp"

namespace wormnet::detail {

DestinationPass::DestinationPass(const Topology& topo, const RoutingFunction& routing, int vcs,
                                 ArrivalScope scope, const CoordinateDistances& distances)
    : topo_(topo),
      routing_(routing),
      distances_(distances),
      vcs_(vcs),
      ports_(topo.num_ports()),
      state_count_(static_cast<std::uint64_t>(routing.state_count())) {
  require(vcs >= 1 && vcs <= kMaxVcs, "routing analysis: VCs per channel out of range");
  // The routing's arrival classes, numbered densely in order of first appearance.
  std::vector<int> seen;
  class_.resize(static_cast<std::size_t>(ports_ + 1) * static_cast<std::size_t>(vcs));
  for (int p = 0; p <= ports_; ++p) {
    const PortId port = p == ports_ ? kInjectionPort : static_cast<PortId>(p);
    for (int v = 0; v < vcs; ++v) {
      const int c = routing.arrival_class(scope, port, static_cast<VcId>(v));
      auto at = std::find(seen.begin(), seen.end(), c);
      if (at == seen.end()) at = seen.insert(seen.end(), c);
      class_[static_cast<std::size_t>(p * vcs + v)] = static_cast<std::uint8_t>(at - seen.begin());
    }
  }
  classes_ = static_cast<int>(seen.size());
  bits_.resize(std::size_t{1} << std::max(ports_, kMaxVcs));  // port masks and VC masks
  for (std::size_t m = 0; m < bits_.size(); ++m) {
    bits_[m] = static_cast<std::uint8_t>(std::popcount(static_cast<unsigned>(m)));
  }
  // The even split: 1/k of the flow to each of k options, then evenly over an option's VCs
  // (divided in this order, as the reference analysis does).
  share_.resize(static_cast<std::size_t>(RouteOptions::kCapacity + 1) * (kMaxVcs + 1));
  for (int k = 1; k <= RouteOptions::kCapacity; ++k) {
    for (int v = 1; v <= kMaxVcs; ++v) {
      share_[static_cast<std::size_t>(k * (kMaxVcs + 1) + v)] = 1.0 / k / v;
    }
  }
  const std::uint64_t keys = static_cast<std::uint64_t>(topo.num_nodes()) *
                             static_cast<std::uint64_t>(classes_) * state_count_;
  require(keys < (1ULL << 32), "routing analysis: too many routing states for 32-bit indices");
  stamp_.assign(keys, 0);
  slot_.resize(keys);
}

std::uint32_t DestinationPass::add_state(std::uint64_t key, NodeId node, PortId in_port, VcId in_vc,
                                         RouteState st) {
  stamp_[key] = epoch_;
  const auto i = static_cast<std::uint32_t>(states_.size());
  slot_[key] = i;
  State& s = states_.emplace_back();
  s.node = node.value();
  route_state_.push_back(st);
  s.in_port = in_port;
  s.in_vc = in_vc;
  if (check_minimal_) s.distance = distance_(node);
  return i;
}

void DestinationPass::note(std::string text, PartialAnalysis& out) {
  if (index_ < out.defect_at) {
    out.defect_at = index_;
    out.defect = std::move(text);
  }
}

std::string DestinationPass::describe(std::uint32_t i) const {
  const State& s = states_[i];
  const NodeId n(s.node);
  std::string text;
  if (s.in_port == kInjectionPort) {
    text = "injected at " + topo_.node_label(n);
  } else {
    const ChannelId c =
        topo_.channel(topo_.neighbor(n, s.in_port), Topology::reverse_port(s.in_port));
    text = "after " + topo_.channel_label(c) + " vc" + std::to_string(s.in_vc);
  }
  return text + " (state " + std::to_string(route_state_[i]) + ", bound for " +
         topo_.node_label(dest_) + ")";
}

// Routes state i once: its steps become edges (one per option, or per VC where the next
// node's arrival classes tell the VCs apart), its CDG successor bits are recorded, and every
// step is checked against the network.
void DestinationPass::expand(std::uint32_t i, PartialAnalysis& out) {
  const NodeId n(states_[i].node);
  if (n == dest_) return;  // arrived: a terminal state
  RouteRequest request;
  request.node = n;
  request.source = source_;
  request.dest = dest_;
  request.in_port = states_[i].in_port;
  request.in_vc = states_[i].in_vc;
  request.state = route_state_[i];
  options_.clear();
  routing_.route(request, options_);
  if (options_.empty()) note("dead end " + describe(i), out);
  const double* option_share = &share_[static_cast<std::size_t>(options_.size() * (kMaxVcs + 1))];
  const unsigned legal = all_vcs(vcs_);
  std::uint64_t successors = 0;
  for (const RouteOption& o : options_) {
    if (o.port >= ports_ || !topo_.has_port(n, o.port) || o.vcs == 0 || (o.vcs & ~legal) != 0 ||
        o.next_state >= state_count_) {
      note("illegal step (port " + std::to_string(o.port) + ", vcs " + std::to_string(o.vcs) +
               ") " + describe(i),
           out);
      continue;
    }
    const NodeId m = topo_.neighbor(n, o.port);
    const std::uint32_t c = channel(n, o.port).value();
    const PortId arrival = Topology::reverse_port(o.port);
    successors |= static_cast<std::uint64_t>(o.vcs) << (o.port * vcs_);
    const double share = option_share[bits_[o.vcs]];
    const std::size_t option_first = edges_.size();
    for (unsigned rest = o.vcs; rest != 0; rest &= rest - 1) {
      const auto v = static_cast<VcId>(std::countr_zero(rest));
      const std::uint32_t to = intern(m, arrival, v, o.next_state);
      if (edges_.size() > option_first && edges_.back().to == to) {
        // The next node cannot tell these VCs apart: one step, the VCs' shares together.
        edges_.back().share += share;
        edges_.back().vcs = static_cast<VcMask>(edges_.back().vcs | (1U << v));
      } else {
        edges_.push_back(Edge{share, to, c, static_cast<VcMask>(1U << v)});
        ++states_[to].pending;
      }
    }
  }
  if (!successors_.empty()) successors_[i] = successors;
}

void DestinationPass::run(NodeId dest, NodeId source, std::uint64_t index, PartialAnalysis& out) {
  dest_ = dest;
  source_ = source;
  index_ = index;
  if (++epoch_ == 0) {  // wrapped: clear the stamps once every 2^32 passes
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 1;
  }
  states_.clear();
  route_state_.clear();
  edges_.clear();
  first_edge_.clear();
  successors_.clear();
  order_.clear();
  check_minimal_ = out.all_minimal;
  if (check_minimal_) distance_ = distances_.to(dest);

  // Roots: one injection per source, with its unit of flow (a root that is also reached in
  // transit carries both). Then every state found is routed, in the order found.
  const std::uint32_t n = topo_.num_nodes();
  const std::uint32_t first = source.valid() ? source.value() : 0;
  const std::uint32_t last = source.valid() ? source.value() + 1 : n;
  for (std::uint32_t s = first; s < last; ++s) {
    if (s == dest.value()) continue;
    const RouteState st = routing_.initial_state(NodeId(s), dest);
    if (st >= state_count_) {
      note("initial state out of range at " + topo_.node_label(NodeId(s)), out);
      continue;
    }
    states_[intern(NodeId(s), kInjectionPort, 0, st)].flow += 1.0;
  }
  ChannelDependencyGraph* cdg = out.cdg;
  for (std::uint32_t i = 0; i < states_.size(); ++i) {
    first_edge_.push_back(static_cast<std::uint32_t>(edges_.size()));
    if (cdg != nullptr) successors_.resize(states_.size());
    expand(i, out);
  }
  first_edge_.push_back(static_cast<std::uint32_t>(edges_.size()));
  if (cdg != nullptr) successors_.resize(states_.size());

  // Kahn's order; flows split over the steps, longest paths, minimality, loads and
  // dependencies follow it.
  const auto count = static_cast<std::uint32_t>(states_.size());
  for (std::uint32_t i = 0; i < count; ++i) {
    if (states_[i].pending == 0) order_.push_back(i);
  }
  bool minimal = true;
  for (std::size_t head = 0; head < order_.size(); ++head) {
    const std::uint32_t i = order_[head];
    const State& u = states_[i];
    const double f = u.flow;
    const std::int32_t h = u.hops + 1;
    for (std::uint32_t e = first_edge_[i]; e < first_edge_[i + 1]; ++e) {
      Edge& edge = edges_[e];
      State& w = states_[edge.to];
      edge.share *= f;  // from here on: the flow that takes the step
      w.flow += edge.share;
      w.hops = std::max(w.hops, h);
      minimal = minimal && w.distance == u.distance - 1;
      if (--w.pending == 0) order_.push_back(edge.to);
    }
    if (u.node == dest.value()) out.max_path = std::max(out.max_path, u.hops);
  }
  // The steps' flows onto the channels, in the order the steps were found (close to channel
  // order, unlike the topological order): loads, path lengths and dependencies.
  double dest_hops = 0;  // expected hops summed over this destination's sources
  const bool loads = !out.loads.empty();
  for (const Edge& edge : edges_) {
    dest_hops += edge.share;
    if (loads) out.loads[edge.channel].add(edge.share);
    if (cdg != nullptr) {
      for (unsigned v = edge.vcs; v != 0; v &= v - 1) {
        cdg->add_all(ChannelId(edge.channel), static_cast<VcId>(std::countr_zero(v)),
                     successors_[edge.to]);
      }
    }
  }
  if (order_.size() < count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      if (states_[i].pending > 0) {
        note("livelock: routing states form a cycle through " + describe(i), out);
        break;
      }
    }
  }
  if (check_minimal_ && !minimal) out.all_minimal = false;
  out.states += count;
  out.hops.add(dest_hops);
}

}  // namespace wormnet::detail
