#include "destination_block_pass.hpp"

#include <algorithm>
#include <bit>

#include "wormnet/core/error.hpp"

namespace wormnet::detail {

namespace {

/// Most routes kept (nodes x arrival classes x packet states x destination classes): 16 B
/// each, so at most 256 MiB (H_30 double-xy-turn: 518,400, 8 MiB); beyond, the per-destination
/// pass is used.
constexpr std::uint64_t kMostRoutes = std::uint64_t{1} << 24;

/// The routing's arrival classes in the kOptions scope, numbered densely in order of first
/// appearance: [(port, or ports at injection) * vcs + vc] -> class.
std::vector<std::uint8_t> dense_classes(const Topology& topo, const RoutingFunction& routing,
                                        int vcs, int& count) {
  const int ports = topo.num_ports();
  std::vector<int> seen;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(ports + 1) *
                                static_cast<std::size_t>(vcs));
  for (int p = 0; p <= ports; ++p) {
    const PortId port = p == ports ? kInjectionPort : static_cast<PortId>(p);
    for (int v = 0; v < vcs; ++v) {
      const int c = routing.arrival_class(ArrivalScope::kOptions, port, static_cast<VcId>(v));
      auto at = std::find(seen.begin(), seen.end(), c);
      if (at == seen.end()) at = seen.insert(seen.end(), c);
      out[static_cast<std::size_t>(p * vcs + v)] = static_cast<std::uint8_t>(at - seen.begin());
    }
  }
  count = static_cast<int>(seen.size());
  return out;
}

}  // namespace

bool DestinationBlockPass::applies(const Topology& topo, const RoutingFunction& routing) {
  const int dc = routing.destination_classes();
  if (dc <= 0 || dc > 256 || routing.source_dependent()) return false;
  int classes = 0;
  dense_classes(topo, routing, routing.vcs_required(), classes);
  return static_cast<std::uint64_t>(topo.num_nodes()) * static_cast<std::uint64_t>(classes) *
             static_cast<std::uint64_t>(routing.state_count()) * static_cast<std::uint64_t>(dc) <=
         kMostRoutes;
}

DestinationBlockPass::DestinationBlockPass(const Topology& topo, const RoutingFunction& routing,
                                           int vcs, const CoordinateDistances& distances)
    : topo_(topo),
      routing_(routing),
      distances_(distances),
      vcs_(vcs),
      ports_(topo.num_ports()),
      state_count_(static_cast<std::uint32_t>(routing.state_count())),
      dest_classes_(routing.destination_classes()) {
  require(vcs >= 1 && vcs <= kMaxVcs, "routing analysis: VCs per channel out of range");
  class_ = dense_classes(topo, routing, vcs, classes_);
  const std::size_t n = topo.num_nodes();
  const std::size_t states = n * static_cast<std::size_t>(classes_) * state_count_;
  routes_.resize(states * static_cast<std::size_t>(dest_classes_));
  states_.resize(states);
  by_class_.resize(n * static_cast<std::size_t>(dest_classes_));
  present_.resize(by_class_.size());
  present_count_.resize(n);
  self_.resize(n);
  priority_.resize(n);
}

std::vector<std::vector<NodeId>> DestinationBlockPass::blocks() const {
  const std::uint32_t n = topo_.num_nodes();
  std::vector<std::vector<NodeId>> out;
  std::vector<bool> taken(n, false);
  std::vector<std::uint32_t> seen(n, 0);  // the block whose search visited the node (+1)
  std::vector<std::uint32_t> queue;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (taken[seed]) continue;
    const auto mark = static_cast<std::uint32_t>(out.size() + 1);
    std::vector<NodeId> block;
    queue.assign(1, seed);
    seen[seed] = mark;
    for (std::size_t head = 0; head < queue.size() && block.size() < kBlock; ++head) {
      const NodeId v(queue[head]);
      if (!taken[v.value()]) {
        taken[v.value()] = true;
        block.push_back(v);
      }
      for (int p = 0; p < ports_; ++p) {
        if (!topo_.has_port(v, static_cast<PortId>(p))) continue;
        const std::uint32_t w = topo_.neighbor(v, static_cast<PortId>(p)).value();
        if (seen[w] != mark) {
          seen[w] = mark;
          queue.push_back(w);
        }
      }
    }
    out.push_back(std::move(block));
  }
  return out;
}

void DestinationBlockPass::ask(Route& r, std::uint32_t u, NodeId dest) {
  const NodeId node(u / (static_cast<std::uint32_t>(classes_) * state_count_));
  RouteRequest request;
  request.node = node;
  request.source = NodeId::invalid();
  request.dest = dest;
  request.in_port = states_[u].in_port;
  request.in_vc = states_[u].in_vc;
  request.state = u % state_count_;
  options_.clear();
  routing_.route(request, options_);
  bool ok = !options_.empty();
  const unsigned legal = all_vcs(vcs_);
  const unsigned port_mask = topo_.port_mask(node);
  r.first = static_cast<std::uint32_t>(steps_.size());
  for (const RouteOption& o : options_) {
    // The checks of DestinationPass::expand(): a port of the node, 1 .. all of the legal VCs, a
    // packet state in range.
    if (o.port >= ports_ || ((port_mask >> o.port) & 1U) == 0 ||
        static_cast<unsigned>(o.vcs) - 1U >= legal || o.next_state >= state_count_) {
      ok = false;
      break;
    }
    steps_.push_back(Step{topo_.neighbor(node, o.port).value(), topo_.channel(node, o.port).value(),
                          o.next_state, Topology::reverse_port(o.port), o.vcs});
    r.successors |= static_cast<std::uint64_t>(o.vcs) << (o.port * vcs_);
  }
  r.count = static_cast<std::uint8_t>(steps_.size() - r.first);
  r.known = ok ? 1 : 2;
}

bool DestinationBlockPass::run(std::span<const NodeId> block, ChannelDependencyGraph& cdg,
                               std::uint64_t& states) {
  require(!block.empty() && block.size() <= kBlock, "routing analysis: block size out of range");
  block_.assign(block.begin(), block.end());
  const std::uint32_t n = topo_.num_nodes();
  const auto k = static_cast<std::size_t>(dest_classes_);
  std::fill(states_.begin(), states_.end(), State{});
  std::fill(by_class_.begin(), by_class_.end(), 0);
  std::fill(present_count_.begin(), present_count_.end(), 0);
  std::fill(self_.begin(), self_.end(), 0);
  for (std::size_t b = 0; b < block_.size(); ++b) self_[block_[b].value()] |= std::uint64_t{1} << b;
  // Each node's view of the block: its destinations by class, and the classes present.
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::size_t b = 0; b < block_.size(); ++b) {
      if (block_[b].value() == v) continue;
      const int dc = routing_.destination_class(NodeId(v), block_[b]);
      require(dc >= 0 && dc < dest_classes_, "routing analysis: destination class out of range");
      std::uint64_t& mask = by_class_[v * k + static_cast<std::size_t>(dc)];
      if (mask == 0) present_[v * k + present_count_[v]++] = static_cast<std::uint8_t>(dc);
      mask |= std::uint64_t{1} << b;
    }
  }
  // States far from the block first: their destinations' routes come toward it, so a state
  // is mostly passed on once, after all that reach it (a later arrival passes on only the new
  // bits, so the order changes only the work, not the result).
  const CoordinateDistances::To distance = distances_.to(block_[0]);
  int most = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    priority_[v] = distance(NodeId(v));
    most = std::max(most, priority_[v]);
  }
  buckets_.resize(static_cast<std::size_t>(most) + 1);
  for (auto& bucket : buckets_) bucket.clear();
  top_ = -1;

  // Roots: every source's injection toward every destination of the block, per initial choice.
  const int choices = routing_.initial_choices();
  const int injection = arrival_class(kInjectionPort, 0);
  for (std::size_t b = 0; b < block_.size(); ++b) {
    const NodeId d = block_[b];
    for (std::uint32_t s = 0; s < n; ++s) {
      if (s == d.value()) continue;
      for (int c = 0; c < choices; ++c) {
        const RouteState st = choices == 1 ? routing_.initial_state(NodeId(s), d)
                                           : routing_.chosen_initial_state(NodeId(s), d, c);
        if (st >= state_count_) return false;
        reach(state_index(s, injection, st), s, std::uint64_t{1} << b, kInjectionPort, 0);
      }
    }
  }

  const std::uint32_t per_node = static_cast<std::uint32_t>(classes_) * state_count_;
  while (top_ >= 0) {
    auto& bucket = buckets_[static_cast<std::size_t>(top_)];
    if (bucket.empty()) {
      --top_;
      continue;
    }
    const std::uint32_t u = bucket.back();
    bucket.pop_back();
    State& s = states_[u];
    s.queued = false;
    const std::uint32_t v = u / per_node;
    // The destinations new to this state, but for its own node's (arrived: a terminal state).
    const std::uint64_t todo = s.reached & ~s.done & ~self_[v];
    s.done = s.reached;
    if (todo == 0) continue;
    for (std::uint8_t i = 0; i < present_count_[v]; ++i) {
      const int dc = present_[v * k + i];
      const std::uint64_t bits = todo & by_class_[v * k + static_cast<std::size_t>(dc)];
      if (bits == 0) continue;
      const Route* r = route(u, dc, block_[static_cast<std::size_t>(std::countr_zero(bits))]);
      if (r == nullptr) return false;
      const std::uint32_t first = r->first;
      const std::uint32_t count = r->count;
      for (std::uint32_t e = first; e < first + count; ++e) {
        const Step step = steps_[e];  // a copy: route() below may grow steps_
        const std::uint32_t m = step.neighbor;
        const std::uint64_t onward = bits & ~self_[m];  // not arrived at m
        for (unsigned rest = step.vcs; rest != 0; rest &= rest - 1) {
          const auto vc = static_cast<VcId>(std::countr_zero(rest));
          const std::uint32_t w = state_index(m, arrival_class(step.arrival, vc), step.next_state);
          reach(w, m, bits, step.arrival, vc);
          // The dependencies: this channel and VC -> every option of the next state, toward
          // each destination class at m that these destinations fall in.
          std::uint64_t successors = 0;
          for (std::uint8_t j = 0; j < present_count_[m] && onward != 0; ++j) {
            const int mc = present_[m * k + j];
            const std::uint64_t there = onward & by_class_[m * k + static_cast<std::size_t>(mc)];
            if (there == 0) continue;
            const Route* next =
                route(w, mc, block_[static_cast<std::size_t>(std::countr_zero(there))]);
            if (next == nullptr) return false;
            successors |= next->successors;
          }
          if (successors != 0) cdg.add_all(ChannelId(step.channel), vc, successors);
        }
      }
    }
  }
  for (const State& s : states_) states += static_cast<std::uint64_t>(std::popcount(s.reached));
  return true;
}

}  // namespace wormnet::detail
