#include "wormnet/engine/rank_model.hpp"

#include <algorithm>
#include <bit>

#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

namespace {

std::uint32_t bit_index(std::uint64_t& mask) {
  const auto b = static_cast<std::uint32_t>(std::countr_zero(mask));
  mask &= mask - 1;
  return b;
}

}  // namespace

RankModel::RankModel(const SimConfig& config, const Topology& topo, const RoutingFunction& routing,
                     const DestinationPattern& pattern, const Partition& partition, int rank,
                     double rate, int vcs)
    : topo_(topo),
      routing_(routing),
      ports_(topo.num_ports()),
      vcs_(vcs),
      depth_(config.network.buffer_depth),
      flit_delay_(static_cast<Cycle>(config.network.switch_alloc_delay +
                                     config.network.switch_delay + config.network.link_latency)),
      eject_delay_(static_cast<Cycle>(config.network.switch_alloc_delay +
                                      config.network.switch_delay +
                                      config.network.ejection_latency)),
      injection_latency_(static_cast<Cycle>(config.network.injection_latency)),
      ring_tie_(config.network.ring_tie),
      tie_key_(mix64(config.measure.seed ^ 0x7469652D64726177ULL)),
      credit_delay_(static_cast<Cycle>(config.network.credit_latency)),
      routing_delay_(static_cast<Cycle>(config.network.routing_delay)),
      vc_alloc_delay_(static_cast<Cycle>(config.network.vc_alloc_delay)),
      bubble_(routing.needs_bubble() || config.network.flow_control == FlowControl::kBubble),
      selection_(config.network.selection),
      per_vc_bandwidth_(config.network.vc_bandwidth == VcBandwidth::kPerVc),
      max_length_(config.traffic.length_max),
      measure_begin_(config.measure.warmup),
      measure_end_(config.measure.warmup + config.measure.measure),
      nodes_(partition.nodes_of(rank)),
      local_of_(topo.num_nodes(), kNoLink),
      sources_(nodes_, config.traffic, pattern, rate, config.measure.seed, measure_begin_,
               measure_end_) {
  const auto routers = static_cast<std::uint32_t>(nodes_.size());
  const int terminal_ports = ports_ + 1;
  for (std::uint32_t r = 0; r < routers; ++r) local_of_[nodes_[r]] = r;

  link_.assign(static_cast<std::size_t>(routers) * static_cast<std::size_t>(ports_), kNoLink);
  boundary_.assign((routers + 63) / 64, 0);
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int p = 0; p < ports_; ++p) {
      const NodeId m = topo.neighbor(NodeId(nodes_[r]), static_cast<PortId>(p));
      if (!m.valid()) continue;
      const std::size_t k = static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_) +
                            static_cast<std::size_t>(p);
      const int owner = partition.owner(m);
      if (owner == rank) {
        link_[k] = local_of_[m.value()];
      } else {
        link_[k] = kRemoteBit | static_cast<std::uint32_t>(remote_.size());
        remote_.push_back(RemoteEnd{m.value(), static_cast<std::uint16_t>(owner)});
        neighbor_ranks_.push_back(owner);
        boundary_[r >> 6] |= std::uint64_t{1} << (r & 63U);
      }
    }
  }
  std::sort(neighbor_ranks_.begin(), neighbor_ranks_.end());
  neighbor_ranks_.erase(std::unique(neighbor_ranks_.begin(), neighbor_ranks_.end()),
                        neighbor_ranks_.end());

  ring_port_.assign(static_cast<std::size_t>(ports_), 0);
  if (topo.kind() == TopologyKind::kTorus) {
    const auto& torus = static_cast<const Torus&>(topo);
    for (int p = 0; p < ports_; ++p) {
      ring_port_[static_cast<std::size_t>(p)] =
          torus.is_ring(Topology::port_dim(static_cast<PortId>(p))) ? 1 : 0;
    }
  }

  // VC classes: a routing that needs R VCs sees class c = VC mod R; configuring more VCs
  // than it needs gives each class several interchangeable VCs.
  const int classes = routing.vcs_required();
  for (int m = 0; m < 256; ++m) {
    unsigned expanded = 0;
    for (int w = 0; w < vcs_; ++w) {
      if ((m >> (w % classes)) & 1) expanded |= 1U << w;
    }
    class_vcs_[static_cast<std::size_t>(m)] = static_cast<VcMask>(expanded);
  }
  escape_vcs_ = class_vcs_[routing.escape_vcs()];

  inputs_ = InputUnit(routers, terminal_ports, vcs_, depth_);
  outputs_ = OutputUnit(routers, terminal_ports, vcs_, depth_);
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int v = 0; v < vcs_; ++v)
      outputs_.set_credits(outputs_.index(r, ports_ * vcs_ + v), 0xFFFF);
  }
  vc_allocator_ = VcAllocator(routers, static_cast<std::uint32_t>(terminal_ports * vcs_));
  switch_allocator_ = SwitchAllocator(routers, terminal_ports);
  injection_.assign(routers, Injection{});
  // Arrivals are due at most max(delay) cycles ahead: a power-of-two ring of buckets.
  wheel_.resize(std::bit_ceil(static_cast<std::size_t>(std::max(flit_delay_, credit_delay_) + 1)));
  wheel_mask_ = wheel_.size() - 1;
  for (int lv = 0; lv < 64; ++lv) {
    port_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv / vcs_);
    vc_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv % vcs_);
  }
  outboxes_.resize(static_cast<std::size_t>(partition.parts()));
  active_.assign((routers + 63) / 64, 0);
  for (std::uint32_t w = 0; w < boundary_.size(); ++w) {
    if (boundary_[w] != 0) boundary_words_.push_back(w);
  }
  channel_flits_.assign(link_.size(), 0);
  since_.assign(static_cast<std::size_t>(routers) * static_cast<std::size_t>(terminal_ports * vcs_),
                0);
}

std::uint64_t RankModel::links_to(int peer) const {
  std::uint64_t n = 0;
  for (const RemoteEnd& e : remote_) n += e.rank == peer ? 1 : 0;
  return n;
}

void RankModel::enqueue(NodeId node, const Message& m) {
  const std::uint32_t r = local_of_[node.value()];
  require(r != kNoLink, "enqueue: the node is not on this rank");
  sources_.queue(r).push(m);
  ++scripted_packets_;
  wake(r);
}

Cycle RankModel::lookahead() const {
  return std::min(flit_delay_, credit_delay_);
}

std::uint64_t RankModel::crossing_limit(Cycle window) const {
  // A window is no longer than the lookahead, so nothing sent over a link during it arrives
  // before it ends: a VC sends at most the credits it holds when the window starts plus those
  // that arrive during it, and pops at most the flits buffered plus those arriving, and either
  // sum is at most the buffer depth (credits + flits on the link + flits buffered + credits on
  // the link = depth). Besides, a channel moves one flit per cycle (shared) or one per VC
  // (per-vc), and an input port pops as many.
  const auto vcs = static_cast<std::uint64_t>(vcs_);
  const auto depth = static_cast<std::uint64_t>(depth_);
  return per_vc_bandwidth_ ? vcs * std::min<std::uint64_t>(window, depth)
                           : std::min<std::uint64_t>(window, vcs * depth);
}

void RankModel::wake(std::uint32_t r) {
  active_[r >> 6] |= std::uint64_t{1} << (r & 63U);
}

bool RankModel::idle(std::uint32_t r) const {
  return inputs_.nonempty(r) == 0 && injection_[r].length == 0 && sources_.queue(r).empty();
}

void RankModel::open_cycle(Cycle t) {
  now_ = t + 1;
  WheelSlot& slot = wheel_[t & wheel_mask_];
  for (const Arrival& a : slot.flits) deposit(a.router, a.local_vc, a.flit, t);
  wheel_flits_ -= slot.flits.size();
  slot.flits.clear();
  for (std::uint32_t o : slot.credits) outputs_.return_credit(o);
  slot.credits.clear();

  sources_.generate_until(t, [this](std::uint32_t r) { wake(r); });
  if (script_ != nullptr && script_->next_release() <= t) {
    released_.clear();
    script_->release(t, released_);
    for (const auto& [node, m] : released_) enqueue(node, m);
  }
  if (t >= measure_begin_ && t < measure_end_) {
    measured_.packet_cycles += sources_.created_packets() + scripted_packets_ - ejected_packets_;
  }
}

template <RankModel::Pass kPass>
void RankModel::step_routers(Cycle t) {
  auto scan = [&](std::size_t w, std::uint64_t bits) {
    for (; bits != 0; bits &= bits - 1) {
      const int b = std::countr_zero(bits);
      const auto r = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(b));
      step_router(r, t);
      if (idle(r)) active_[w] &= ~(std::uint64_t{1} << b);
    }
  };
  if constexpr (kPass == Pass::kBoundary) {
    for (std::uint32_t w : boundary_words_) scan(w, active_[w] & boundary_[w]);
  } else {
    for (std::size_t w = 0; w < active_.size(); ++w) {
      scan(w, kPass == Pass::kAll ? active_[w] : active_[w] & ~boundary_[w]);
    }
  }
}

void RankModel::step(Cycle t) {
  open_cycle(t);
  step_routers<Pass::kAll>(t);
}

void RankModel::step_interior(Cycle t) {
  open_cycle(t);
  step_routers<Pass::kInterior>(t);
  cycle_open_ = true;
}

void RankModel::step_boundary(Cycle t) {
  require(cycle_open_ && now_ == t + 1, "step_boundary(t) without step_interior(t)");
  step_routers<Pass::kBoundary>(t);
  cycle_open_ = false;
}

void RankModel::deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
  const std::uint32_t i = inputs_.index(r, local_vc);
  InputVcState& s = inputs_.state(i);
  if (escape_vcs_ != 0 && f.head() && port_of_[static_cast<std::size_t>(local_vc)] != ports_ &&
      ((escape_vcs_ >> vc_of_[static_cast<std::size_t>(local_vc)]) & 1U) == 0) {
    require(s.count == 0, "a head flit joined another packet in an adaptive VC (Duato)");
  }
  if (s.count == 0) {
    since_[i] = static_cast<std::uint32_t>(t);  // its wait starts now
    if (s.stage == VcStage::kIdle) {
      require(f.head(), "a body flit arrived at an idle input VC");
      inputs_.set_stage(r, local_vc, VcStage::kWaitVc);
      s.ready = t + routing_delay_;
    }
  }
  inputs_.push(r, local_vc, f);
  wake(r);
}

void RankModel::inject(std::uint32_t r, Cycle t) {
  Injection& inj = injection_[r];
  if (inj.length == 0) {
    SourceQueue& q = sources_.queue(r);
    if (q.empty()) return;
    // A new packet takes an empty injection VC, so it never waits behind a blocked one.
    int vc = -1;
    for (int v = 0; v < vcs_; ++v) {
      if (inputs_.state(inputs_.index(r, ports_ * vcs_ + v)).count == 0) {
        vc = v;
        break;
      }
    }
    if (vc < 0) return;
    const Message& m = q.front();
    if (m.created + injection_latency_ > t) return;  // still on the injection channel
    Packet p;
    p.created = m.created;
    p.injected = t;
    p.id = (static_cast<std::uint64_t>(nodes_[r]) << 32) | (m.sequence & 0xFFFFFFFFULL);
    p.source = nodes_[r];
    p.dest = m.dest;
    p.state = routing_.chosen_initial_state(NodeId(p.source), NodeId(p.dest),
                                            initial_choice(p.id, m.sequence));
    p.length = m.length;
    p.measured = m.measured;
    inj.packet = packets_.allocate(p);
    inj.sent = 0;
    inj.length = m.length;
    inj.vc = static_cast<std::uint8_t>(vc);
    q.pop();
    ++window_.injected_packets;
  }
  const int local_vc = ports_ * vcs_ + inj.vc;
  const std::uint32_t i = inputs_.index(r, local_vc);
  if (inputs_.full(i)) return;
  const bool head = inj.sent == 0;
  const bool tail = inj.sent + 1 == inj.length;
  deposit(r, local_vc, Flit(inj.packet, head, tail), t);
  ++inj.sent;
  ++window_.injected_flits;
  if (tail) inj.length = 0;
}

int RankModel::initial_choice(std::uint64_t packet_id, std::uint64_t sequence) const {
  // From the packet's identity alone, so any rank count draws the same choices.
  const auto choices = static_cast<std::uint64_t>(routing_.initial_choices());
  if (choices == 1) return 0;
  if (ring_tie_ == RingTie::kAlternating) return static_cast<int>(sequence % choices);
  return static_cast<int>(mix64(tie_key_ ^ packet_id) % choices);
}

void RankModel::step_router(std::uint32_t r, Cycle t) {
  inject(r, t);
  if (inputs_.waiting(r) != 0) allocate_vcs(r, t);
  if ((inputs_.active(r) & inputs_.nonempty(r)) != 0) allocate_switch(r, t);
}

void RankModel::routing_options(std::uint32_t r, int in_port, int vc, const Packet& p,
                                RouteOptions& out) const {
  out.clear();
  if (p.dest == nodes_[r]) {
    out.add(static_cast<PortId>(ports_), all_vcs(vcs_), p.state);  // the state stays as it was
    return;
  }
  RouteRequest req;
  req.node = NodeId(nodes_[r]);
  req.source = NodeId(p.source);
  req.dest = NodeId(p.dest);
  req.in_port = in_port == ports_ ? kInjectionPort : static_cast<PortId>(in_port);
  req.in_vc = in_port == ports_ ? 0 : static_cast<VcId>(vc % routing_.vcs_required());
  req.state = p.state;
  routing_.route(req, out);
}

int RankModel::least_occupied(std::uint32_t r, const int* candidates, int found) const {
  int best = 0;
  int best_free = -1;
  for (int c = 0; c < found; ++c) {
    const int port = port_of_[static_cast<std::size_t>(candidates[c])];
    int free = 0;
    for (int w = 0; w < vcs_; ++w) free += outputs_.credits(outputs_.index(r, port * vcs_ + w));
    if (free > best_free) {
      best_free = free;
      best = c;
    }
  }
  return best;
}

bool RankModel::bubble_allows(std::uint32_t r, int in_port, int out_port, int out_vc,
                              const Packet& p) const {
  // Virtual cut-through: the whole packet must fit downstream; entering a ring (injection or
  // a change of dimension or direction) must also leave a bubble of one maximum-size packet.
  const std::uint16_t free = outputs_.credits(outputs_.index(r, out_port * vcs_ + out_vc));
  const bool continuing = in_port != ports_ && out_port == (in_port ^ 1);
  const bool entering_ring = ring_port_[static_cast<std::size_t>(out_port)] != 0 && !continuing;
  const int need = p.length + (entering_ring ? max_length_ : 0);
  return free >= need;
}

void RankModel::allocate_vcs(std::uint32_t r, Cycle t) {
  VcAllocator::Request requests[64];
  RouteState next_state[64];
  int n = 0;
  RouteOptions options;
  std::uint64_t mask = inputs_.waiting(r);
  while (mask) {
    const std::uint32_t lv = bit_index(mask);
    const std::uint32_t i = inputs_.index(r, static_cast<int>(lv));
    const InputVcState& s = inputs_.state(i);
    if (s.ready > t) continue;
    const int in_port = port_of_[lv];
    const int in_vc = vc_of_[lv];
    const Packet& p = packets_[inputs_.front(i).packet()];
    routing_options(r, in_port, in_vc, p, options);
    // Input stage: the selection policy picks one free output VC among the options. With
    // priority selection and no escape VCs the first free one ends the search.
    const bool first_only = selection_ == SelectionPolicy::kPriority && escape_vcs_ == 0;
    int candidates[64];
    int candidate_option[64];
    int found = 0;
    int adaptive = 0;  // candidates on adaptive VCs (routings with escape VCs)
    for (int k = 0; k < options.size(); ++k) {
      const RouteOption& o = options[k];
      const VcMask vcs = o.port == ports_ ? o.vcs : class_vcs_[o.vcs];
      for (int w = 0; w < vcs_; ++w) {
        if (!((vcs >> w) & 1U)) continue;
        const int ol = o.port * vcs_ + w;
        if (outputs_.owner(outputs_.index(r, ol)) != OutputUnit::kFree) continue;
        if (bubble_ && o.port != ports_ && !bubble_allows(r, in_port, o.port, w, p)) continue;
        const bool escape = ((escape_vcs_ >> w) & 1U) != 0;
        if (escape_vcs_ != 0 && o.port != ports_ && !escape) {
          // Duato's theory assumes a queue never holds flits of two packets: an adaptive VC
          // goes to a new packet only once the last one has left its downstream buffer.
          if (outputs_.credits(outputs_.index(r, ol)) < depth_) continue;
          ++adaptive;
        }
        candidates[found] = ol;
        candidate_option[found] = k;
        ++found;
        if (first_only) break;
      }
      if (found > 0 && first_only) break;
    }
    if (found == 0) continue;
    if (adaptive > 0 && adaptive < found) {
      // Escape VCs only when no adaptive VC is free: keep the adaptive candidates, in order.
      int kept = 0;
      for (int c = 0; c < found; ++c) {
        if (((escape_vcs_ >> vc_of_[static_cast<std::size_t>(candidates[c])]) & 1U) != 0) continue;
        candidates[kept] = candidates[c];
        candidate_option[kept] = candidate_option[c];
        ++kept;
      }
      found = kept;
    }
    int pick = 0;
    if (selection_ == SelectionPolicy::kRandom && found > 1) {
      pick = static_cast<int>(mix64(p.id * 0x9E3779B97F4A7C15ULL + p.hops + t) %
                              static_cast<std::uint64_t>(found));
    } else if (selection_ == SelectionPolicy::kLeastOccupied && found > 1) {
      pick = least_occupied(r, candidates, found);
    }
    requests[n] = VcAllocator::Request{static_cast<std::uint8_t>(lv),
                                       static_cast<std::uint8_t>(candidates[pick]),
                                       static_cast<std::uint8_t>(candidate_option[pick])};
    next_state[n] = options[candidate_option[pick]].next_state;
    ++n;
  }
  if (n == 0) return;
  bool granted[64];
  vc_allocator_.arbitrate(r, requests, n, granted);
  for (int k = 0; k < n; ++k) {
    if (!granted[k]) continue;
    const std::uint32_t i = inputs_.index(r, requests[k].input_vc);
    InputVcState& s = inputs_.state(i);
    const int ol = requests[k].output_vc;
    inputs_.set_stage(r, requests[k].input_vc, VcStage::kActive);
    s.out_port = port_of_[ol];
    s.out_vc = vc_of_[ol];
    s.ready = t + vc_alloc_delay_;
    outputs_.set_owner(outputs_.index(r, ol), requests[k].input_vc);
    outputs_.set_owner_packet(outputs_.index(r, ol), inputs_.front(i).packet());
    Packet& p = packets_[inputs_.front(i).packet()];
    p.state = next_state[k];
    if (s.out_port != ports_) ++p.hops;
  }
}

void RankModel::allocate_switch(std::uint32_t r, Cycle t) {
  // Eligible input VCs (bit port * vcs + vc): holding an output VC, past their pipeline
  // delay, with a flit, and with a credit downstream (the ejection port never runs out).
  // Flits enter buffers at their arrival cycle, so a buffered flit is always ready.
  std::uint64_t eligible = 0;
  std::uint64_t mask = inputs_.active(r) & inputs_.nonempty(r);
  while (mask) {
    const std::uint32_t lv = bit_index(mask);
    const InputVcState& s = inputs_.state(inputs_.index(r, static_cast<int>(lv)));
    if (s.ready > t) continue;
    if (s.out_port != ports_ &&
        outputs_.credits(outputs_.index(r, s.out_port * vcs_ + s.out_vc)) == 0) {
      continue;
    }
    eligible |= std::uint64_t{1} << lv;
  }
  if (eligible == 0) return;
  if (per_vc_bandwidth_) {
    // Every VC is a channel of its own: each eligible VC moves a flit. Nothing conflicts,
    // since wormhole ownership gives every output VC to one input VC at a time.
    while (eligible) {
      const std::uint32_t lv = bit_index(eligible);
      traverse(r, port_of_[lv], vc_of_[lv], t);
    }
    return;
  }
  // Input stage: one VC per input port (round robin).
  const std::uint64_t port_vcs = all_vcs(vcs_);
  std::uint32_t requested = 0;  // output ports with at least one request
  std::uint32_t requesters[kMaxPorts + 1];
  int chosen_vc[kMaxPorts + 1];
  while (eligible) {
    const int p = port_of_[static_cast<std::size_t>(std::countr_zero(eligible))];
    const int shift = p * vcs_;
    const std::uint64_t vcs = (eligible >> shift) & port_vcs;
    eligible &= ~(port_vcs << shift);
    const int v = switch_allocator_.pick_vc(r, p, vcs);
    chosen_vc[p] = v;
    const int q = inputs_.state(inputs_.index(r, shift + v)).out_port;
    if (!((requested >> q) & 1U)) requesters[q] = 0;
    requested |= 1U << q;
    requesters[q] |= 1U << p;
  }
  // Output stage: one input port per output port (round robin).
  while (requested) {
    const int q = std::countr_zero(requested);
    requested &= requested - 1;
    const int p = switch_allocator_.pick_input(r, q, requesters[q]);
    switch_allocator_.commit(r, p, chosen_vc[p], q);
    traverse(r, p, chosen_vc[p], t);
  }
}

void RankModel::traverse(std::uint32_t r, int in_port, int vc, Cycle t) {
  const int local_vc = in_port * vcs_ + vc;
  const std::uint32_t i = inputs_.index(r, local_vc);
  const int out_port = inputs_.state(i).out_port;
  const int out_vc = inputs_.state(i).out_vc;
  const Flit f = inputs_.pop(r, local_vc);
  since_[i] = static_cast<std::uint32_t>(t);
  if (f.tail()) outputs_.set_owner(outputs_.index(r, out_port * vcs_ + out_vc), OutputUnit::kFree);
  if (out_port == ports_) {
    eject(r, f, t);
  } else {
    send_flit(r, out_port, out_vc, f, t);
  }
  if (in_port != ports_) send_credit(r, in_port, vc, t);
  if (f.tail()) {
    InputVcState& s = inputs_.state(i);
    if (s.count > 0) {
      require(inputs_.front(i).head(), "a packet's flits are not contiguous in a VC");
      inputs_.set_stage(r, local_vc, VcStage::kWaitVc);
      s.ready = t + routing_delay_;
    } else {
      inputs_.set_stage(r, local_vc, VcStage::kIdle);
    }
  }
}

void RankModel::eject(std::uint32_t r, const Flit& f, Cycle t) {
  (void)r;
  ++window_.ejected_flits;
  if (t >= measure_begin_ && t < measure_end_) ++measured_.accepted_flits;
  if (!f.tail()) return;
  const Packet& p = packets_[f.packet()];
  const Cycle done = t + eject_delay_;
  const Cycle latency = done - p.created;
  ++window_.ejected_packets;
  ++ejected_packets_;
  window_.latency_sum += latency;
  if (on_delivery_) on_delivery_(p, done);
  if (script_ != nullptr) script_->delivered(p, done);
  if (p.measured) {
    measured_.total.add(latency);
    measured_.network.add(done - p.injected);
    measured_.queueing.add(p.injected - p.created);
    ++measured_.delivered_packets;
    measured_.delivered_flits += p.length;
    measured_.hops_sum += p.hops;
  }
  packets_.release(f.packet());
}

void RankModel::send_flit(std::uint32_t r, int out_port, int out_vc, Flit f, Cycle t) {
  const std::size_t k = static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_) +
                        static_cast<std::size_t>(out_port);
  ++window_.flit_hops;
  if (t >= measure_begin_ && t < measure_end_) ++channel_flits_[k];
  outputs_.take_credit(outputs_.index(r, out_port * vcs_ + out_vc));
  const Cycle arrival = t + flit_delay_;
  const std::uint32_t target = link_[k];
  const int in_port = out_port ^ 1;
  if ((target & kRemoteBit) != 0) {
    send_remote_flit(target & ~kRemoteBit, in_port, out_vc, f, arrival);
    return;
  }
  wheel_[arrival & wheel_mask_].flits.push_back(
      Arrival{target, static_cast<std::uint16_t>(in_port * vcs_ + out_vc), f});
  ++wheel_flits_;
}

void RankModel::send_remote_flit(std::uint32_t remote, int in_port, int vc, Flit f, Cycle arrival) {
  const RemoteEnd& e = remote_[remote];
  require(arrival >= window_end_, "lookahead violated: a flit would reach another rank too early");
  RemoteFlit rf;
  rf.arrival = arrival;
  rf.node = e.node;
  rf.port = static_cast<std::uint8_t>(in_port);
  rf.vc = static_cast<std::uint8_t>(vc);
  rf.kind = static_cast<std::uint8_t>(f.kind());
  rf.packet_id = packets_[f.packet()].id;
  Outbox& out = outboxes_[e.rank];
  out.flits.push_back(rf);
  if (f.head()) out.heads.push_back(packets_[f.packet()]);
  if (f.tail()) packets_.release(f.packet());
}

void RankModel::send_credit(std::uint32_t r, int in_port, int vc, Cycle t) {
  const std::uint32_t target =
      link_[static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_) +
            static_cast<std::size_t>(in_port)];
  const Cycle arrival = t + credit_delay_;
  const int out_port = in_port ^ 1;
  if ((target & kRemoteBit) != 0) {
    const RemoteEnd& e = remote_[target & ~kRemoteBit];
    require(arrival >= window_end_,
            "lookahead violated: a credit would reach another rank too early");
    outboxes_[e.rank].credits.push_back(RemoteCredit{
        arrival, e.node, static_cast<std::uint8_t>(out_port), static_cast<std::uint8_t>(vc)});
    return;
  }
  wheel_[arrival & wheel_mask_].credits.push_back(outputs_.index(target, out_port * vcs_ + vc));
}

void RankModel::receive(const Outbox& from_peer) {
  // Between step_interior(t) and step_boundary(t) (now_ = t + 1), what arrives at t itself
  // is applied at once: the wheel's bucket for t has been emptied already. Only boundary
  // routers can receive from another rank, and they have not been stepped yet at t.
  const Cycle current = cycle_open_ ? now_ - 1 : now_;
  auto is_boundary = [this](std::uint32_t r) {
    return ((boundary_[r >> 6] >> (r & 63U)) & 1U) != 0;
  };
  std::size_t next_head = 0;
  for (const RemoteFlit& rf : from_peer.flits) {
    const std::uint32_t r = local_of_[rf.node];
    require(r != kNoLink, "a remote flit arrived for a router this rank does not own");
    require(rf.arrival >= current, "a remote flit arrived after its arrival cycle");
    const int local_vc = rf.port * vcs_ + rf.vc;
    const std::uint32_t i = inputs_.index(r, local_vc);
    Flit f = Flit::with_kind(0, rf.kind);
    // The head brings its packet's record; the body and tail that follow on the same input
    // VC (wormhole: no other packet can interleave there) belong to the same packet.
    if (f.head()) {
      require(next_head < from_peer.heads.size() && from_peer.heads[next_head].id == rf.packet_id,
              "a head flit arrived from another rank without its packet record");
      f.set_packet(packets_.allocate(from_peer.heads[next_head++]));
      if (!f.tail()) inbound_[i] = f.packet();
    } else {
      const auto it = inbound_.find(i);
      require(it != inbound_.end() && packets_[it->second].id == rf.packet_id,
              "a body flit arrived from another rank without its head");
      f.set_packet(it->second);
      if (f.tail()) inbound_.erase(it);
    }
    if (rf.arrival < now_) {
      require(is_boundary(r), "a remote flit arrived at a router without a remote link");
      deposit(r, local_vc, f, rf.arrival);
      continue;
    }
    wheel_[rf.arrival & wheel_mask_].flits.push_back(
        Arrival{r, static_cast<std::uint16_t>(local_vc), f});
    ++wheel_flits_;
  }
  require(next_head == from_peer.heads.size(), "packet records without their head flits");
  for (const RemoteCredit& rc : from_peer.credits) {
    const std::uint32_t r = local_of_[rc.node];
    require(r != kNoLink, "a remote credit arrived for a router this rank does not own");
    require(rc.arrival >= current, "a remote credit arrived after its arrival cycle");
    const std::uint32_t o = outputs_.index(r, rc.port * vcs_ + rc.vc);
    if (rc.arrival < now_) {
      require(is_boundary(r), "a remote credit arrived at a router without a remote link");
      outputs_.return_credit(o);
      continue;
    }
    wheel_[rc.arrival & wheel_mask_].credits.push_back(o);
  }
}

TrafficCounters RankModel::take_window() {
  TrafficCounters w = window_;
  w.created_flits = sources_.created_flits() - created_flits_seen_;
  w.created_packets = sources_.created_packets() - created_packets_seen_;
  created_flits_seen_ = sources_.created_flits();
  created_packets_seen_ = sources_.created_packets();
  window_ = TrafficCounters{};
  return w;
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> RankModel::channel_flits() const {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    for (int p = 0; p < ports_; ++p) {
      const ChannelId c = topo_.channel(NodeId(nodes_[r]), static_cast<PortId>(p));
      if (!c.valid()) continue;
      out.emplace_back(
          c.value(), channel_flits_[static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_) +
                                    static_cast<std::size_t>(p)]);
    }
  }
  return out;
}

std::uint64_t RankModel::flits_in_network() const {
  std::uint64_t n = wheel_flits_;
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    std::uint64_t mask = inputs_.nonempty(r);
    while (mask) n += inputs_.state(inputs_.index(r, static_cast<int>(bit_index(mask)))).count;
  }
  for (const Outbox& o : outboxes_) n += o.flits.size();
  return n;
}

std::uint64_t RankModel::flits_at_sources() const {
  std::uint64_t n = 0;
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) {
    n += sources_.queue(r).queued_flits();
    const Injection& inj = injection_[r];
    if (inj.length != 0) n += inj.length - inj.sent;
  }
  return n;
}

std::uint64_t RankModel::messages_at_sources() const {
  std::uint64_t n = 0;
  for (std::uint32_t r = 0; r < nodes_.size(); ++r) n += sources_.queue(r).size();
  return n;
}

std::uint64_t RankModel::stuck_vcs(Cycle t, Cycle threshold) const {
  // Routers that hold flits are active: only those are visited (a cost per control check of
  // a few instructions per busy router).
  std::uint64_t n = 0;
  for (std::size_t w = 0; w < active_.size(); ++w) {
    for (std::uint64_t bits = active_[w]; bits != 0; bits &= bits - 1) {
      const auto r =
          static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      for (std::uint64_t mask = inputs_.nonempty(r); mask != 0; mask &= mask - 1) {
        n += stuck(inputs_.index(r, std::countr_zero(mask)), t, threshold) ? 1 : 0;
      }
    }
  }
  return n;
}

std::vector<WaitEdge> RankModel::wait_for_edges(Cycle t, Cycle threshold) const {
  std::vector<WaitEdge> edges;
  RouteOptions options;
  for (std::size_t word = 0; word < active_.size(); ++word) {
    for (std::uint64_t bits = active_[word]; bits != 0; bits &= bits - 1) {
      const auto r =
          static_cast<std::uint32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      std::uint64_t mask = inputs_.nonempty(r);
      while (mask) {
        const std::uint32_t lv = bit_index(mask);
        const std::uint32_t i = inputs_.index(r, static_cast<int>(lv));
        if (!stuck(i, t, threshold)) continue;
        const InputVcState& s = inputs_.state(i);
        const int in_port = port_of_[lv];
        const int in_vc = vc_of_[lv];
        WaitEdge e{
            nodes_[r], static_cast<std::uint8_t>(in_port), static_cast<std::uint8_t>(in_vc), 0, 0,
            0};
        // The input VC that a flit sent on (port, vc) enters: it must move for a credit.
        auto downstream = [&](int port, int vc) {
          e.on_node = topo_.neighbor(NodeId(nodes_[r]), static_cast<PortId>(port)).value();
          e.on_port = static_cast<std::uint8_t>(port ^ 1);
          e.on_vc = static_cast<std::uint8_t>(vc);
          edges.push_back(e);
        };
        if (s.stage == VcStage::kActive) {
          // Holding an output VC, it moves unless it has no credit (ejection never runs out).
          if (s.out_port != ports_ &&
              outputs_.credits(outputs_.index(r, s.out_port * vcs_ + s.out_vc)) == 0) {
            downstream(s.out_port, s.out_vc);
          }
          continue;
        }
        if (s.stage != VcStage::kWaitVc || s.ready > t) continue;  // still being routed
        // A head waits for every output VC it may take: for the owner of each taken one, and
        // for room behind each free one that bubble flow control refuses. A free one it may
        // take means it moves (it wins, or another packet does and owns it).
        const std::size_t first = edges.size();
        bool way_out = false;
        routing_options(r, in_port, in_vc, packets_[inputs_.front(i).packet()], options);
        for (const RouteOption& o : options) {
          const VcMask vcs = o.port == ports_ ? o.vcs : class_vcs_[o.vcs];
          for (int w = 0; w < vcs_ && !way_out; ++w) {
            if (!((vcs >> w) & 1U)) continue;
            const std::uint8_t owner = outputs_.owner(outputs_.index(r, o.port * vcs_ + w));
            if (owner != OutputUnit::kFree) {
              e.on_node = nodes_[r];
              e.on_port = port_of_[owner];
              e.on_vc = vc_of_[owner];
              edges.push_back(e);
            } else if (o.port != ports_ && bubble_ &&
                       !bubble_allows(r, in_port, o.port, w, packets_[inputs_.front(i).packet()])) {
              downstream(o.port, w);
            } else {
              way_out = true;
            }
          }
        }
        if (way_out || options.size() == 0) edges.resize(first);
      }
    }
  }
  return edges;
}

std::size_t RankModel::bytes() const {
  std::size_t b = inputs_.bytes() + outputs_.bytes() + vc_allocator_.bytes() +
                  switch_allocator_.bytes() + packets_.capacity_bytes() + sources_.bytes();
  b += nodes_.capacity() * 4 + local_of_.capacity() * 4 + link_.capacity() * 4 +
       remote_.capacity() * sizeof(RemoteEnd) + injection_.capacity() * sizeof(Injection) +
       inbound_.size() * 32 + active_.capacity() * 8 + channel_flits_.capacity() * 8 +
       since_.capacity() * 4;
  for (const WheelSlot& w : wheel_) {
    b += w.flits.capacity() * sizeof(Arrival) + w.credits.capacity() * 4;
  }
  return b;
}

}  // namespace wormnet
