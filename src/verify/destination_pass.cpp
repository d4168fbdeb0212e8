#include "destination_pass.hpp"

#include <algorithm>
#include <bit>
#include <span>
#include <unordered_set>

#include "wormnet/core/error.hpp"

namespace wormnet::detail {

namespace {

/// Bits needed to hold the values 0 .. count - 1.
unsigned bits_for(std::uint64_t count) {
  unsigned b = 0;
  while ((std::uint64_t{1} << b) < count) ++b;
  return b;
}

}  // namespace

DestinationPass::DestinationPass(const Topology& topo, const RoutingFunction& routing, int vcs,
                                 ArrivalScope scope, const CoordinateDistances& distances,
                                 const FaultSet& faults)
    : topo_(topo),
      routing_(routing),
      distances_(distances),
      faults_(faults),
      vcs_(vcs),
      ports_(topo.num_ports()),
      state_count_(static_cast<std::uint32_t>(routing.state_count())) {
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
  bits_.resize(std::size_t{1} << std::max(ports_, kMaxVcs));
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
  state_bits_ = bits_for(state_count_);
  node_bits_ = bits_for(topo.num_nodes());
  node_mask_ = static_cast<std::uint32_t>((std::uint64_t{1} << node_bits_) - 1U);
  // Nodes up to a power of two: the keys of nodes beyond the last are never touched.
  const std::uint64_t keys = std::uint64_t{1} << (bits_for(static_cast<std::uint64_t>(classes_)) +
                                                  state_bits_ + node_bits_);
  require(keys <= (1ULL << 32), "routing analysis: too many routing states for 32-bit keys");
  class_key_.resize(class_.size());
  for (std::size_t i = 0; i < class_.size(); ++i) {
    class_key_[i] = static_cast<std::uint32_t>(class_[i]) << (state_bits_ + node_bits_);
  }
  port_masks_.resize(topo.num_nodes());
  for (std::uint32_t v = 0; v < topo.num_nodes(); ++v) {
    port_masks_[v] = faults.working_ports(topo, NodeId(v));
  }
  links_.resize(static_cast<std::size_t>(topo.num_nodes()) * static_cast<std::size_t>(ports_));
  for (std::uint32_t v = 0; v < topo.num_nodes(); ++v) {
    for (int p = 0; p < ports_; ++p) {
      if (!topo.has_port(NodeId(v), static_cast<PortId>(p))) continue;
      links_[static_cast<std::size_t>(v) * static_cast<std::size_t>(ports_) +
             static_cast<std::size_t>(p)] =
          Link{topo.neighbor(NodeId(v), static_cast<PortId>(p)).value(),
               channel(NodeId(v), static_cast<PortId>(p)).value()};
    }
  }
  slots_.resize(keys);
  entries_.resize(keys);
  order_.resize(keys + 1);
}

void DestinationPass::note(std::string text, PartialAnalysis& out) {
  if (index_ < out.defect_at) {
    out.defect_at = index_;
    out.defect = std::move(text);
  }
}

void DestinationPass::illegal_step(std::uint32_t i, const RouteOption& o, PartialAnalysis& out) {
  const NodeId n = key_node(entries_[i].key);
  if (o.port < ports_ && topo_.has_port(n, o.port) && faults_.port_failed(n, o.port)) {
    note(failed_step(i, o), out);
    return;
  }
  note("illegal step (port " + std::to_string(o.port) + ", vcs " + std::to_string(o.vcs) + ") " +
           describe(i),
       out);
}

std::string DestinationPass::describe(std::uint32_t i) const {
  const Entry& e = entries_[i];
  const NodeId n = key_node(e.key);
  std::string text;
  if (e.in_port == kInjectionPort) {
    text = "injected at " + topo_.node_label(n);
  } else {
    const ChannelId c =
        topo_.channel(topo_.neighbor(n, e.in_port), Topology::reverse_port(e.in_port));
    text = "after " + topo_.channel_label(c) + " vc" + std::to_string(e.in_vc);
  }
  return text + " (state " + std::to_string(key_state(e.key)) + ", bound for " +
         topo_.node_label(dest_) + ")";
}

std::string DestinationPass::failed_step(std::uint32_t i, const RouteOption& o) const {
  const NodeId at = key_node(entries_[i].key);
  const ChannelId failed = topo_.channel(at, o.port);
  const std::string channel = topo_.channel_label(failed) + " -> " +
                              topo_.node_label(topo_.channel_dest(failed)) + ", a failed channel";
  // Each source's own routes, arrival by arrival (no states merged), until one takes a step
  // over a failed channel: rare (a refusal), so plain and unhurried.
  struct Visit {
    std::uint32_t node;
    PortId in_port;
    VcId in_vc;
    RouteState state;
  };
  const auto key_of = [&](const Visit& v) {
    return ((static_cast<std::uint64_t>(v.node) * 256 + v.in_port) * 256 + v.in_vc) * state_count_ +
           v.state;
  };
  RouteOptions options;
  for (std::uint32_t s = 0; s < topo_.num_nodes(); ++s) {
    if (s == dest_.value() || faults_.node_failed(NodeId(s))) continue;
    if (source_.valid() && NodeId(s) != source_) continue;
    std::vector<Visit> queue;
    std::unordered_set<std::uint64_t> seen;
    for (int c = 0; c < routing_.initial_choices(); ++c) {
      queue.push_back(
          Visit{s, kInjectionPort, 0, routing_.chosen_initial_state(NodeId(s), dest_, c)});
    }
    for (std::size_t head = 0; head < queue.size() && head < 100000; ++head) {
      const Visit v = queue[head];
      const std::uint64_t k = key_of(v);
      if (!seen.insert(k).second) continue;
      if (v.node == dest_.value() || v.state >= state_count_) continue;
      RouteRequest request;
      request.node = NodeId(v.node);
      request.source = NodeId(s);
      request.dest = dest_;
      request.in_port = v.in_port;
      request.in_vc = v.in_vc;
      request.state = v.state;
      options.clear();
      routing_.route(request, options);
      for (const RouteOption& step : options) {
        if (step.port >= ports_ || !topo_.has_port(request.node, step.port)) continue;
        if (faults_.port_failed(request.node, step.port)) {
          const ChannelId c = topo_.channel(request.node, step.port);
          return "the route " + topo_.node_label(NodeId(s)) + " -> " + topo_.node_label(dest_) +
                 " takes " + topo_.channel_label(c) + " -> " +
                 topo_.node_label(topo_.channel_dest(c)) + ", a failed channel";
        }
        for (unsigned rest = step.vcs; rest != 0; rest &= rest - 1) {
          queue.push_back(Visit{topo_.neighbor(request.node, step.port).value(),
                                Topology::reverse_port(step.port),
                                static_cast<VcId>(std::countr_zero(rest)), step.next_state});
        }
      }
    }
  }
  return "a step over " + channel + " " + describe(i);
}

// Routes state i (its place in the order found) once: its steps become edges (one per option, or
// per VC where the next node's arrival classes tell the VCs apart), its CDG successor bits are
// recorded, and every step is checked against the network.
template <bool kCdg, bool kOneVc>
inline void DestinationPass::expand(std::uint32_t i, PartialAnalysis& out) {
  const std::uint32_t k = entries_[i].key;
  const NodeId n = key_node(k);
  const std::uint32_t first = edge_count_;
  if (n == dest_) {  // arrived: a terminal state
    entries_[i].first_edge = first;
    if constexpr (kCdg) successors_[i] = 0;
    return;
  }
  RouteRequest request;
  request.node = n;
  request.source = source_;
  request.dest = dest_;
  request.in_port = entries_[i].in_port;
  request.in_vc = entries_[i].in_vc;
  request.state = key_state(k);
  options_.clear();
  routing_.route(request, options_);
  if (options_.empty()) [[unlikely]]
    note("dead end " + describe(i), out);
  const double* option_share = &share_[static_cast<std::size_t>(options_.size() * (kMaxVcs + 1))];
  const unsigned legal = all_vcs(vcs_);
  const unsigned port_mask = port_masks_[n.value()];
  const Link* links =
      &links_[static_cast<std::size_t>(n.value()) * static_cast<std::size_t>(ports_)];
  std::uint64_t successors = 0;
  for (const RouteOption& o : options_) {
    // A port of the node, 1 .. all of the legal VCs (legal = 2^vcs - 1, so a mask up to it is
    // a subset), a packet state in range.
    if (o.port >= ports_ || ((port_mask >> o.port) & 1U) == 0 ||
        static_cast<unsigned>(o.vcs) - 1U >= legal || o.next_state >= state_count_) [[unlikely]] {
      illegal_step(i, o, out);
      continue;
    }
    const NodeId m(links[o.port].neighbor);
    const std::uint32_t c = links[o.port].channel;
    const PortId arrival = Topology::reverse_port(o.port);
    successors |= static_cast<std::uint64_t>(o.vcs) << (o.port * vcs_);
    if constexpr (kOneVc) {
      const std::uint32_t to = reach(m, arrival, 0, o.next_state);
      edges_[edge_count_] = Edge{option_share[1], to, c};
      if constexpr (kCdg) edge_vcs_[edge_count_] = 1;
      ++edge_count_;
      ++entries_[to].pending;
      continue;
    }
    const double share = option_share[bits_[o.vcs]];
    std::uint32_t last = ~std::uint32_t{0};  // the state this option's previous VC led to
    for (unsigned rest = o.vcs; rest != 0; rest &= rest - 1) {
      const auto v = static_cast<VcId>(std::countr_zero(rest));
      const std::uint32_t to = reach(m, arrival, v, o.next_state);
      if (to == last) {
        // The next node cannot tell these VCs apart: one step, the VCs' shares together.
        edges_[edge_count_ - 1].share += share;
        if constexpr (kCdg) edge_vcs_[edge_count_ - 1] |= static_cast<VcMask>(1U << v);
      } else {
        edges_[edge_count_] = Edge{share, to, c};
        if constexpr (kCdg) edge_vcs_[edge_count_] = static_cast<VcMask>(1U << v);
        ++edge_count_;
        ++entries_[to].pending;
        last = to;
      }
    }
  }
  Entry& e = entries_[i];
  e.first_edge = first;
  e.edges = static_cast<std::uint8_t>(edge_count_ - first);
  if constexpr (kCdg) successors_[i] = successors;
}

void DestinationPass::begin(NodeId dest, NodeId source, std::uint64_t index, PartialAnalysis& out,
                            bool sum_minimal) {
  dest_ = dest;
  source_ = source;
  index_ = index;
  if (++epoch_ == 0) {  // wrapped: clear the stamps once every 2^32 passes
    for (Slot& slot : slots_) slot.epoch = 0;
    epoch_ = 1;
  }
  found_count_ = 0;
  edge_count_ = 0;
  cdg_ = out.cdg != nullptr;
  if (cdg_ && successors_.empty()) successors_.resize(entries_.size());
  check_minimal_ = out.flows && out.all_minimal;
  if (distances_.faulty() && sum_minimal) {
    // No closed form for the pairs' distances: this destination's row, summed over the
    // working sources that can reach it.
    distance_ = distances_.to(dest);
    const std::uint32_t first = source.valid() ? source.value() : 0;
    const std::uint32_t last = source.valid() ? source.value() + 1 : topo_.num_nodes();
    for (std::uint32_t s = first; s < last; ++s) {
      const int d = distance_(NodeId(s));
      if (d > 0 && !faults_.node_failed(NodeId(s))) out.minimal_sum += static_cast<unsigned>(d);
    }
  } else if (check_minimal_) {
    distance_ = distances_.to(dest);
  }
}

bool DestinationPass::seed(NodeId s, double weight, PartialAnalysis& out) {
  const int choices = routing_.initial_choices();
  const double share = 1.0 / choices;
  for (int c = 0; c < choices; ++c) {
    const RouteState st = choices == 1 ? routing_.initial_state(s, dest_)
                                       : routing_.chosen_initial_state(s, dest_, c);
    if (st >= state_count_) [[unlikely]] {
      note("initial state out of range at " + topo_.node_label(s), out);
      return false;
    }
    entries_[reach(s, kInjectionPort, 0, st)].flow += weight * share;
  }
  return true;
}

void DestinationPass::run(NodeId dest, NodeId source, std::uint64_t index, PartialAnalysis& out) {
  begin(dest, source, index, out);
  // Roots: one injection per source and initial choice, with its share of the source's unit
  // of flow (a root that is also reached in transit carries both). Then every state found is
  // routed, in the order found.
  const std::uint32_t n = topo_.num_nodes();
  const std::uint32_t first = source.valid() ? source.value() : 0;
  const std::uint32_t last = source.valid() ? source.value() + 1 : n;
  const int choices = routing_.initial_choices();
  const double share = 1.0 / choices;
  // With faults the failed sources send nothing; without, no test per source.
  auto add_roots = [&]<bool kFaulty>() {
    for (std::uint32_t s = first; s < last; ++s) {
      if (s == dest.value()) continue;
      if constexpr (kFaulty) {
        if (faults_.node_failed(NodeId(s))) continue;
      }
      for (int c = 0; c < choices; ++c) {
        const RouteState st = choices == 1 ? routing_.initial_state(NodeId(s), dest)
                                           : routing_.chosen_initial_state(NodeId(s), dest, c);
        if (st >= state_count_) [[unlikely]] {
          note("initial state out of range at " + topo_.node_label(NodeId(s)), out);
          break;
        }
        entries_[reach(NodeId(s), kInjectionPort, 0, st)].flow += share;
      }
    }
  };
  faults_.empty() ? add_roots.operator()<false>() : add_roots.operator()<true>();
  explore(out);
}

void DestinationPass::run_weighted(NodeId dest, std::span<const WeightedSource> sources,
                                   std::uint64_t index, PartialAnalysis& out) {
  require(!routing_.source_dependent() || sources.size() == 1,
          "routing analysis: a source-dependent routing is weighted one source at a time");
  begin(dest, routing_.source_dependent() ? sources[0].source : NodeId::invalid(), index, out,
        false);
  for (const WeightedSource& w : sources) {
    // A failed node sends nothing (with faults).
    if (w.source != dest && !faults_.node_failed(w.source)) seed(w.source, w.weight, out);
  }
  explore(out);
}

void DestinationPass::explore(PartialAnalysis& out) {
  // One VC and no dependencies to record are the common cases: their own code.
  auto expand_all = [&]<bool kCdg, bool kOneVc>() {
    // Room for the most steps one state can have, before each state is routed.
    constexpr std::uint32_t kMostSteps = RouteOptions::kCapacity * kMaxVcs;
    for (std::uint32_t i = 0; i < found_count_; ++i) {
      if (edge_count_ + kMostSteps > edges_.size()) {
        edges_.resize(2 * edges_.size() + kMostSteps);
        if constexpr (kCdg) edge_vcs_.resize(edges_.size());
      }
      expand<kCdg, kOneVc>(i, out);
    }
  };
  if (cdg_) {
    vcs_ == 1 ? expand_all.operator()<true, true>() : expand_all.operator()<true, false>();
  } else {
    vcs_ == 1 ? expand_all.operator()<false, true>() : expand_all.operator()<false, false>();
  }

  if (out.flows) {
    order_states<true>(out);
  } else if (!out.acyclic) {
    order_states<false>(out);
  }
  // The steps' flows onto the channels, in the order the steps were found (close to channel
  // order, unlike the topological order): loads, path lengths and dependencies. The path
  // lengths are each step's flow added exactly (ExactSum), so their total does not depend on
  // the order the steps come in, nor on how states are merged or moved by symmetries.
  const std::span<const Edge> steps(edges_.data(), edge_count_);
  if (cdg_) {
    for (std::uint32_t e = 0; e < edge_count_; ++e) {
      const Edge& edge = edges_[e];
      const std::uint64_t successors = successors_[edge.to];
      for (unsigned v = edge_vcs_[e]; v != 0; v &= v - 1) {
        out.cdg->add_all(ChannelId(edge.channel), static_cast<VcId>(std::countr_zero(v)),
                         successors);
      }
    }
  }
  if (out.flows) {
    for (const Edge& edge : steps) out.hops.add(edge.share);
    if (!out.loads.empty()) {
      for (const Edge& edge : steps) out.loads[edge.channel].add(edge.share);
    }
  }
  out.states += found_count_;
}

// Kahn's order of the states found; with kFlows, the flows split over the steps (each edge's
// share becomes its flow), and the longest paths and minimality follow that order. States left
// over lie on a cycle: a livelock.
template <bool kFlows>
void DestinationPass::order_states(PartialAnalysis& out) {
  const std::uint32_t count = found_count_;
  std::uint32_t tail = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (entries_[i].pending == 0) order_[tail++] = i;
  }
  bool minimal = true;
  const std::uint32_t terminal = dest_.value();
  for (std::uint32_t head = 0; head < tail; ++head) {
    const Entry& u = entries_[order_[head]];
    const double f = u.flow;
    const std::int32_t h = u.hops + 1;
    for (std::uint32_t e = u.first_edge; e < u.first_edge + u.edges; ++e) {
      Edge& edge = edges_[e];
      Entry& w = entries_[edge.to];
      if constexpr (kFlows) {
        edge.share *= f;  // from here on: the flow that takes the step
        w.flow += edge.share;
        w.hops = std::max(w.hops, h);
        minimal &= w.distance == u.distance - 1;
      }
      // Branch-free: written always, kept when its last step in was taken (order_ has room
      // for one more than every key).
      order_[tail] = edge.to;
      tail += --w.pending == 0 ? 1U : 0U;
    }
    if constexpr (kFlows) {
      if (key_node(u.key).value() == terminal) out.max_path = std::max(out.max_path, u.hops);
    }
  }
  if (tail < count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      if (entries_[i].pending > 0) {
        note("livelock: routing states form a cycle through " + describe(i), out);
        break;
      }
    }
  }
  if (kFlows && check_minimal_ && !minimal) out.all_minimal = false;
}

}  // namespace wormnet::detail
