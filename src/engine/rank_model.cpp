#include "wormnet/engine/rank_model.hpp"

#include <algorithm>
#include <bit>

#include "rank_model_walk.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/core/rng.hpp"

namespace wormnet {

namespace {

RouterParams router_params(const SimConfig& config, const RunPlan& plan, const Topology& topo) {
  const NetworkConfig& n = config.network;
  RouterParams p;
  p.ports = topo.num_ports();
  p.vcs = plan.vcs;
  p.depth = n.buffer_depth;
  p.routing_delay = static_cast<Cycle>(n.routing_delay);
  p.vc_alloc_delay = static_cast<Cycle>(n.vc_alloc_delay);
  p.injection_latency = static_cast<Cycle>(n.injection_latency);
  p.bubble = plan.bubble;
  p.max_length = plan.lengths.longest;  // the workload's, or --length-max
  p.selection = n.selection;
  p.per_vc_bandwidth = n.vc_bandwidth == VcBandwidth::kPerVc;
  p.ring_tie = n.ring_tie;
  p.tie_key = mix64(config.measure.seed ^ 0x7469652D64726177ULL);
  p.congestion = config.measure.congestion != CongestionMode::kOff;
  p.measure_begin = plan.window.begin;
  p.measure_end = plan.window.end();
  return p;
}

}  // namespace

RankModel::RankModel(const SimConfig& config, const RunPlan& plan, const Topology& topo,
                     const RoutingFunction& routing, const DestinationPattern& pattern,
                     const Partition& partition, int rank, double rate, WalkLayout layout)
    : topo_(topo),
      ports_(topo.num_ports()),
      vcs_(plan.vcs),
      flit_delay_(static_cast<Cycle>(config.network.switch_alloc_delay +
                                     config.network.switch_delay + config.network.link_latency)),
      eject_delay_(static_cast<Cycle>(config.network.switch_alloc_delay +
                                      config.network.switch_delay +
                                      config.network.ejection_latency)),
      credit_delay_(static_cast<Cycle>(config.network.credit_latency)),
      measure_begin_(plan.window.begin),
      measure_end_(plan.window.end()),
      bank_(router_params(config, plan, topo), topo, routing, partition.nodes_of(rank), packets_),
      links_(topo, partition, rank, bank_.nodes()),
      sources_(bank_.nodes(), config.traffic, pattern, rate, config.measure.seed, measure_begin_,
               measure_end_) {
  const auto routers = bank_.routers();

  // Arrivals are due at most max(delay) cycles after the cycle that sends them, and the
  // layers of the skewed walk are fewer than `skew` cycles apart: a power-of-two ring of
  // buckets spanning both.
  require(layout.block_shift >= 6 && layout.block_shift < 32 && layout.skew >= 1,
          "walk layout: blocks of 2^6 routers or more and a skew of 1 cycle or more");
  block_shift_ = layout.block_shift;
  if (routers >= layout.blocked_min && routers > 0) {
    blocks_ = ((static_cast<std::size_t>(routers) - 1) >> block_shift_) + 1;
  }
  const Cycle skew = blocks_ > 1 && routers >= layout.skewed_min ? layout.skew : 1;
  const Cycle spread = blocks_ > 1 ? skew - 1 : 0;
  wheel_.resize(
      std::bit_ceil(static_cast<std::size_t>(std::max(flit_delay_, credit_delay_) + spread + 1)));
  wheel_mask_ = wheel_.size() - 1;
  for (WheelSlot& slot : wheel_) {
    slot.flits.resize(blocks_);
    slot.credits.resize(blocks_);
    slot.routes.resize(blocks_);
    slot.moves.resize(blocks_);
  }
  // A head routes routing_delay cycles after its arrival: the hints for it are of use then,
  // not at the arrival (a cycle's walk over a large rank evicts them in between).
  const Cycle routing_delay = bank_.params().routing_delay;
  if (blocks_ > 1 && routing_delay >= 1 && routing_delay < wheel_.size()) {
    route_hint_delay_ = routing_delay;
  }
  // Hints for a VC's next moves wait on the wheel for up to 2 cycles, where it spans them.
  move_hint_span_ = blocks_ > 1 ? std::min<Cycle>(2, wheel_.size() - 1) : 0;
  active_.assign(router_set::words(routers), 0);
  counters_ = RankCounters(links_.slots(), wheel_.size(), measure_begin_, measure_end_);
  walk_ = skew > 1 ? WalkSchedule(block_graph(), skew) : WalkSchedule(blocks_);
  if (blocks_ > 1) sources_.group_by_block(block_shift_);
}

void RankModel::enqueue(NodeId node, const Message& m) {
  // A lagging layer would inject the message before its cycle, and its packet-cycles would
  // count from a cycle before this call.
  require(level(), "enqueue() while the walk's layers are not level");
  const std::uint32_t r = links_.local(node.value());
  require(r != kNoLink, "enqueue: the node is not on this rank");
  sources_.queue(r).push(m);
  bank_.source_filled(r);
  counters_.scripted();
  wake(r);
}

std::uint64_t RankModel::crossing_limit(Cycle window) const {
  // A window is no longer than the lookahead, so nothing sent over a link during it arrives
  // before it ends: a VC sends at most the credits it holds when the window starts plus those
  // that arrive during it, and pops at most the flits buffered plus those arriving, and either
  // sum is at most the buffer depth (credits + flits on the link + flits buffered + credits on
  // the link = depth). Besides, a channel moves one flit per cycle (shared) or one per VC
  // (per-vc), and an input port pops as many.
  const auto vcs = static_cast<std::uint64_t>(vcs_);
  const auto depth = static_cast<std::uint64_t>(bank_.params().depth);
  return bank_.params().per_vc_bandwidth ? vcs * std::min<std::uint64_t>(window, depth)
                                         : std::min<std::uint64_t>(window, vcs * depth);
}

void RankModel::wake(std::uint32_t r) {
  active_[router_set::word(r)] |= router_set::bit(r);
}

void RankModel::enter_cycle(Cycle c) {
  flits_due_ = wheel_[(c + flit_delay_) & wheel_mask_].flits.data();
  credits_due_ = wheel_[(c + credit_delay_) & wheel_mask_].credits.data();
  arriving_ = &wheel_[c & wheel_mask_];
  in_measurement_ = c >= measure_begin_ && c < measure_end_;
}

void RankModel::prefetch_move(const MoveDue& m) const {
  bank_.prefetch_credit(m.output);
  if (m.channel != kNoLink) {
    links_.prefetch(m.channel);
    if (in_measurement_) counters_.prefetch_hop(m.channel);
  }
}

void RankModel::hint_moves(std::size_t block, std::uint32_t r, int local_vc, bool tail, Cycle c) {
  // The record the deposit has just written: in the cache.
  const RouterBank::Outlet s = bank_.outlet(r, local_vc);
  if (!s.holds) return;
  const bool network = s.port != ports_;
  const MoveDue m{s.output, network ? static_cast<std::uint32_t>(links_.slot(r, s.port)) : kNoLink};
  // The flit at the front moves in this cycle's step (a flit arriving in a VC that streams
  // its packet finds one there).
  prefetch_move(m);
  // With s.count flits buffered, the VC moves one in each of the next s.count - 1 cycles
  // when nothing holds it up. The next cycle's arrival, if any, hints at its own cycle's
  // move, but only just before the block's steps (arrive()); from the wheel, the hint comes
  // while the walk is a block before. After a tail nothing more arrives, so a tail leaves
  // the hint for the cycle after next as well. Ejection moves take no credit and send
  // nothing over a link: not worth a hint.
  if (!network || s.flits < 2) return;  // a rank of blocks: move_hint_span_ >= 1
  wheel_[(c + 1) & wheel_mask_].moves[block].push_back(m);
  if (tail && s.flits >= 3 && move_hint_span_ >= 2) {
    wheel_[(c + 2) & wheel_mask_].moves[block].push_back(m);
  }
}

void RankModel::ask_ahead(std::size_t n) {
  // The heads due for their route first: asked for last, their hints came too late for the
  // first steps of the block. Hinted at their arrival instead, a cycle before the route, they
  // were evicted by the walk over the rank in between (docs/scaling.md: up to 10 % on
  // torus:100x100x50, one rank, in some hours of this machine, nothing in others).
  for (; n != 0 && ahead_.route != ahead_.routes_end; --n, ++ahead_.route) {
    packets_.prefetch(ahead_.route->packet);
    bank_.prefetch_route(ahead_.route->router);
  }
  for (; n != 0 && ahead_.move != ahead_.moves_end; --n, ++ahead_.move) prefetch_move(*ahead_.move);
  for (; n != 0 && ahead_.flit != ahead_.flits_end; --n, ++ahead_.flit) {
    bank_.prefetch_deposit(ahead_.flit->router, ahead_.flit->local_vc);
    // A head's route and VC allocation read its packet's record, in this cycle when there
    // is no routing delay (else from the wheel's hints above, when it routes).
    if (route_hint_delay_ == 0 && ahead_.flit->flit.head()) {
      packets_.prefetch(ahead_.flit->flit.packet());
      bank_.prefetch_route(ahead_.flit->router);
    }
  }
  for (; n != 0 && ahead_.credit != ahead_.credits_end; --n, ++ahead_.credit) {
    bank_.prefetch_credit(*ahead_.credit);
  }
}

// The observed walk is instantiated in rank_model_observed.cpp.
extern template void RankModel::step_blocks<RankModel::Pass::kAll, false, true>(std::size_t,
                                                                                std::size_t, Cycle);
extern template void RankModel::step_blocks<RankModel::Pass::kAll, true, true>(std::size_t,
                                                                               std::size_t, Cycle);
extern template void RankModel::step_blocks<RankModel::Pass::kInterior, false, true>(std::size_t,
                                                                                     std::size_t,
                                                                                     Cycle);
extern template void RankModel::step_blocks<RankModel::Pass::kInterior, true, true>(std::size_t,
                                                                                    std::size_t,
                                                                                    Cycle);
extern template void RankModel::step_blocks<RankModel::Pass::kBoundary, false, true>(std::size_t,
                                                                                     std::size_t,
                                                                                     Cycle);
extern template void RankModel::step_blocks<RankModel::Pass::kBoundary, true, true>(std::size_t,
                                                                                    std::size_t,
                                                                                    Cycle);

template <RankModel::Pass kPass>
void RankModel::step_layer(std::size_t layer, Cycle c) {
  enter_cycle(c);
  const std::size_t first = walk_.layer_begin(layer);
  const std::size_t end = walk_.layer_end(layer);
  if (observer_ != nullptr) [[unlikely]] {
    if (blocks_ > 1) {
      step_blocks<kPass, true, true>(first, end, c);
    } else {
      step_blocks<kPass, false, true>(first, end, c);
    }
  } else if (blocks_ > 1) {
    step_blocks<kPass, true, false>(first, end, c);
  } else {
    step_blocks<kPass, false, false>(first, end, c);
  }
}

// The schedule of the layers (rank_model_layers.cpp) steps whole layers.
template void RankModel::step_layer<RankModel::Pass::kAll>(std::size_t layer, Cycle c);

void RankModel::step(Cycle t) {
  begin_cycle(t);
  step_layer<Pass::kAll>(0, t);
  end_cycle(t);
}

void RankModel::step_interior(Cycle t) {
  begin_cycle(t);
  step_layer<Pass::kInterior>(0, t);
  cycle_open_ = true;
}

void RankModel::step_boundary(Cycle t) {
  require(cycle_open_ && now_ == t + 1, "step_boundary(t) without step_interior(t)");
  step_layer<Pass::kBoundary>(0, t);
  cycle_open_ = false;
  end_cycle(t);
}

void RankModel::deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
  bank_.deposit(r, local_vc, f, t);
  wake(r);
}

void RankModel::eject(const Flit& f, Cycle t) {
  counters_.ejected_flit(in_measurement_);
  if (!f.tail()) return;
  const Packet& p = packets_[f.packet()];
  const Cycle done = t + eject_delay_;
  counters_.delivered(p, t, done);
  if (on_delivery_) on_delivery_(p, done);
  if (script_ != nullptr) script_->delivered(p, done);
  packets_.release(f.packet());
}

void RankModel::send_remote_flit(std::uint32_t remote, int in_port, int vc, Flit f, Cycle arrival) {
  Outbox& out = links_.outbox(remote, arrival,
                              "lookahead violated: a flit would reach another rank too early");
  RemoteFlit rf;
  rf.arrival = arrival;
  rf.node = links_.remote_end(remote).node;
  rf.port = static_cast<std::uint8_t>(in_port);
  rf.vc = static_cast<std::uint8_t>(vc);
  rf.kind = static_cast<std::uint8_t>(f.kind());
  rf.packet_id = packets_[f.packet()].id;
  out.flits.push_back(rf);
  if (f.head()) out.heads.push_back(packets_[f.packet()]);
  if (f.tail()) packets_.release(f.packet());
}

void RankModel::send_remote_credit(std::uint32_t remote, int out_port, int vc, Cycle arrival) {
  links_.outbox(remote, arrival, "lookahead violated: a credit would reach another rank too early")
      .credits.push_back(RemoteCredit{arrival, links_.remote_end(remote).node,
                                      static_cast<std::uint8_t>(out_port),
                                      static_cast<std::uint8_t>(vc)});
}

void RankModel::receive(const Outbox& from_peer) {
  // Between step_interior(t) and step_boundary(t) (now_ = t + 1), what arrives at t itself
  // is applied at once: the wheel's bucket for t has been emptied already. Only boundary
  // routers can receive from another rank, and they have not been stepped yet at t.
  const Cycle current = cycle_open_ ? now_ - 1 : now_;
  std::size_t next_head = 0;
  for (const RemoteFlit& rf : from_peer.flits) {
    const std::uint32_t r = links_.local(rf.node);
    require(r != kNoLink, "a remote flit arrived for a router this rank does not own");
    require(rf.arrival >= current, "a remote flit arrived after its arrival cycle");
    const int local_vc = rf.port * vcs_ + rf.vc;
    const std::uint32_t i = bank_.input_vc(r, local_vc);
    Flit f = Flit::with_kind(0, rf.kind);
    // The head brings its packet's record; the body and tail that follow on the same input
    // VC (wormhole: no other packet can interleave there) belong to the same packet.
    if (f.head()) {
      require(next_head < from_peer.heads.size() && from_peer.heads[next_head].id == rf.packet_id,
              "a head flit arrived from another rank without its packet record");
      f.set_packet(packets_.allocate(from_peer.heads[next_head++]));
      if (!f.tail()) links_.stream_in(i, f.packet());
    } else {
      const std::uint32_t slot = links_.streaming(i);
      require(slot != kNoLink && packets_[slot].id == rf.packet_id,
              "a body flit arrived from another rank without its head");
      f.set_packet(slot);
      if (f.tail()) links_.stream_ends(i);
    }
    if (rf.arrival < now_) {
      require(links_.boundary(r), "a remote flit arrived at a router without a remote link");
      deposit(r, local_vc, f, rf.arrival);
      continue;
    }
    wheel_[rf.arrival & wheel_mask_].flits[block_of(r)].push_back(
        Arrival{r, static_cast<std::uint16_t>(local_vc), f});
  }
  require(next_head == from_peer.heads.size(), "packet records without their head flits");
  for (const RemoteCredit& rc : from_peer.credits) {
    const std::uint32_t r = links_.local(rc.node);
    require(r != kNoLink, "a remote credit arrived for a router this rank does not own");
    require(rc.arrival >= current, "a remote credit arrived after its arrival cycle");
    const std::uint32_t o = bank_.output_vc(r, rc.port * vcs_ + rc.vc);
    if (rc.arrival < now_) {
      require(links_.boundary(r), "a remote credit arrived at a router without a remote link");
      if (observer_ != nullptr) observe_credit(o, rc.arrival);
      bank_.return_credit(o, rc.arrival);
      continue;
    }
    wheel_[rc.arrival & wheel_mask_].credits[block_of(r)].push_back(o);
  }
}

TrafficCounters RankModel::take_window() {
  require(level(), "take_window() while the walk's layers are not level");
  return counters_.take_window(sources_.created_flits(), sources_.created_packets());
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> RankModel::channel_flits() const {
  require(level(), "channel_flits() while the walk's layers are not level");
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    for (int p = 0; p < ports_; ++p) {
      const ChannelId c = topo_.channel(NodeId(bank_.nodes()[r]), static_cast<PortId>(p));
      if (!c.valid()) continue;
      out.emplace_back(c.value(), counters_.channel_flits(links_.slot(r, p)));
    }
  }
  return out;
}

std::uint64_t RankModel::flits_in_network() const {
  require(level(), "flits_in_network() while the walk's layers are not level");
  std::uint64_t n = 0;
  for (const WheelSlot& w : wheel_) {  // flits on local links
    for (const WheelBucket<Arrival>& b : w.flits) n += b.size();
  }
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) n += bank_.buffered_flits(r);
  for (const Outbox& o : links_.outboxes()) n += o.flits.size();
  return n;
}

std::uint64_t RankModel::flits_at_sources() const {
  require(level(), "flits_at_sources() while the walk's layers are not level");
  std::uint64_t n = 0;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    n += sources_.queue(r).queued_flits() + bank_.unsent_flits(r);
  }
  return n;
}

std::uint64_t RankModel::messages_at_sources() const {
  require(level(), "messages_at_sources() while the walk's layers are not level");
  std::uint64_t n = 0;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) n += sources_.queue(r).size();
  return n;
}

template <class F>
void RankModel::for_each_stuck_vc(Cycle t, Cycle threshold, F&& f) const {
  // Routers that hold flits are active: only those are visited (a cost per control check of
  // a few instructions per busy router). A router whose only flits are heads that reached an
  // idle VC in the last routing_delay cycles sleeps until they route (arrive()); they are
  // not stuck, since the threshold exceeds the routing delay (config validation).
  require(level(), "a deadlock check while the walk's layers are not level");
  for (std::size_t w = 0; w < active_.size(); ++w) {
    for (std::uint64_t bits = active_[w]; bits != 0; bits &= bits - 1) {
      const std::uint32_t r = router_set::router(w, std::countr_zero(bits));
      bank_.for_each_stuck_vc(r, t, threshold,
                              [&](int lv) { f(r, static_cast<std::uint32_t>(lv)); });
    }
  }
}

std::uint64_t RankModel::stuck_vcs(Cycle t, Cycle threshold) const {
  std::uint64_t n = 0;
  for_each_stuck_vc(t, threshold, [&](std::uint32_t, std::uint32_t) { ++n; });
  return n;
}

std::vector<WaitEdge> RankModel::wait_for_edges(Cycle t, Cycle threshold) const {
  std::vector<WaitEdge> edges;
  std::vector<VcWait> waits;
  for_each_stuck_vc(t, threshold, [&](std::uint32_t r, std::uint32_t lv) {
    const NodeId node(bank_.nodes()[r]);
    waits.clear();
    bank_.wait_for(r, static_cast<int>(lv), t, waits);
    for (const VcWait& w : waits) {
      WaitEdge e{node.value(),
                 static_cast<std::uint8_t>(bank_.port_of(lv)),
                 static_cast<std::uint8_t>(bank_.vc_of(lv)),
                 node.value(),
                 w.port,
                 w.vc};
      if (w.kind == VcWait::kDownstream) {
        // The input VC that a flit sent on (port, vc) enters: it must move for a credit.
        const auto port = static_cast<PortId>(w.port);
        e.on_node = topo_.neighbor(node, port).value();
        e.on_port = static_cast<std::uint8_t>(Topology::reverse_port(port));
      }
      edges.push_back(e);
    }
  });
  return edges;
}

std::size_t RankModel::bytes() const {
  std::size_t b = bank_.bytes() + packets_.capacity_bytes() + sources_.bytes();
  b += links_.bytes() + active_.capacity() * 8 + counters_.bytes();
  for (const WheelSlot& w : wheel_) {
    for (const WheelBucket<Arrival>& f : w.flits) b += sizeof(f) + f.bytes();
    for (const WheelBucket<std::uint32_t>& c : w.credits) b += sizeof(c) + c.bytes();
    for (const WheelBucket<RouteDue>& h : w.routes) b += sizeof(h) + h.bytes();
    for (const WheelBucket<MoveDue>& m : w.moves) b += sizeof(m) + m.bytes();
  }
  return b;
}

}  // namespace wormnet
