#include "wormnet/engine/rank_model.hpp"

#include <algorithm>

#include "rank_model_walk.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/engine/router_set.hpp"

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
  p.congestion_series = config.measure.congestion == CongestionMode::kSeries;
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
  counted_ = bank_.params().congestion;

  require(layout.block_shift >= 6 && layout.block_shift < 32 && layout.skew >= 1,
          "walk layout: blocks of 2^6 routers or more and a skew of 1 cycle or more");
  std::size_t blocks = 1;
  if (routers >= layout.blocked_min && routers > 0) {
    blocks = ((static_cast<std::size_t>(routers) - 1) >> layout.block_shift) + 1;
  }
  // The layers of the skewed walk are fewer than `skew` cycles apart: a layer's sends may
  // land while another lags by up to skew - 1 cycles.
  const Cycle skew = blocks > 1 && routers >= layout.skewed_min ? layout.skew : 1;
  wheel_ = ArrivalWheel(std::max(flit_delay_, credit_delay_), skew - 1, blocks, layout.block_shift);
  // On a rank of blocks, a head at the front of an idle VC wakes its router when it routes,
  // routing_delay cycles after its arrival, where the wheel spans them (arrive()).
  const Cycle routing_delay = bank_.params().routing_delay;
  if (blocks > 1 && routing_delay >= 1 && routing_delay < wheel_.size()) {
    route_wake_delay_ = routing_delay;
  }
  active_.assign(router_set::words(routers), 0);
  counters_ = RankCounters(links_.slots(), wheel_.size(), measure_begin_, measure_end_);
  if (blocks > 1) {
    plan_ =
        PrefetchPlan(bank_, packets_, links_, counters_, blocks, wheel_.size(), route_wake_delay_);
  }
  walk_ = skew > 1 ? WalkSchedule(block_graph(), skew) : WalkSchedule(blocks);
  // --congestion totals counts nothing before the window nor after it: one layer runs the
  // uncounted walk then (step_layer()). The skewed walk's layers would open at different cycles,
  // and series counts every window's flits: both count from cycle 0.
  if (counted_ && walk_.layers() == 1 && config.measure.congestion == CongestionMode::kTotals) {
    count_from_ = measure_begin_;
    count_opened_ = false;
    count_until_ = measure_end_;
  }
  if (blocks > 1) sources_.group_by_block(layout.block_shift);
}

void RankModel::enqueue(NodeId node, const Message& m) {
  // A lagging layer would inject the message before its cycle, and its packet-cycles would
  // count from a cycle before this call.
  require(level(), "enqueue() while the walk's layers are not level");
  const std::uint32_t r = links_.local(node.value());
  require(r != RankLinks::kNoLink, "enqueue: the node is not on this rank");
  sources_.queue(r).push(m);
  bank_.source_filled(r);
  counters_.scripted(m.length);
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

// Points the walk at cycle c: the wheel's buckets of what c sends (its local sends all arrive
// together: the delays are fixed), the slot of what arrives at c, the measurement flag.
void RankModel::enter_cycle(Cycle c) {
  flits_due_ = wheel_.slot(c + flit_delay_).flits.data();
  credits_due_ = wheel_.slot(c + credit_delay_).credits.data();
  arriving_ = &wheel_.slot(c);
  in_measurement_ = c >= measure_begin_ && c < measure_end_;
}

// The observed walks are instantiated in rank_model_observed.cpp, the counted ones in
// rank_model_counted.cpp and rank_model_counted_wide.cpp, the plain wide one in
// rank_model_wide.cpp; the plain narrow one here.
WORMNET_WALK_COPIES(extern template, true, false, MaskWidth::kNarrow);
WORMNET_WALK_COPIES(extern template, true, true, MaskWidth::kNarrow);
WORMNET_WALK_COPIES(extern template, false, true, MaskWidth::kNarrow);
WORMNET_WALK_COPIES(extern template, true, false, MaskWidth::kWide);
WORMNET_WALK_COPIES(extern template, true, true, MaskWidth::kWide);
WORMNET_WALK_COPIES(extern template, false, true, MaskWidth::kWide);
WORMNET_WALK_COPIES(extern template, false, false, MaskWidth::kWide);

// The walk's copy for the layout of the routers' headers and VC states (MaskWidth: 16-bit masks
// and 8-byte states where every router's input VCs fit them and buffers hold at most 255
// flits, else 64-bit masks and 12-byte states), the same for the whole run.
template <WalkPass kPass, bool kBlocked, bool kObserved, bool kCounted>
void RankModel::step_blocks_as(std::size_t first, std::size_t end, Cycle c) {
  if (bank_.core().inputs.wide()) [[unlikely]] {
    step_blocks<kPass, kBlocked, kObserved, kCounted, MaskWidth::kWide>(first, end, c);
  } else {
    step_blocks<kPass, kBlocked, kObserved, kCounted, MaskWidth::kNarrow>(first, end, c);
  }
}

// Simulates cycle c at the routers of `layer` (kBoundary: its boundary routers only), in the
// walk's copy for the rank: of several blocks or one, observed or not, counted or not.
template <WalkPass kPass>
void RankModel::step_layer(std::size_t layer, Cycle c) {
  enter_cycle(c);
  const std::size_t first = walk_.layer_begin(layer);
  const std::size_t end = walk_.layer_end(layer);
  const bool blocked = wheel_.blocks() > 1;
  // --congestion totals on one layer: the walk counts from the window's first cycle, when the
  // accumulators are set to what counting from cycle 0 would hold (open_congestion()).
  // Past the window it closes them (close_congestion()) and runs uncounted again.
  bool counting = counted_;
  if (counted_) [[unlikely]] {
    if (c >= count_from_ && !count_opened_) [[unlikely]] {
      bank_.open_congestion();
      count_opened_ = true;
    }
    if (c >= count_until_) {
      if (!count_closed_) [[unlikely]] {
        bank_.close_congestion();
        count_closed_ = true;
      }
      counting = false;
    } else if (c < count_from_) {
      counting = false;
    } else {
      bank_.count_cycle(c);
    }
  }
  if (observer_ != nullptr) [[unlikely]] {
    if (counting) {
      blocked ? step_blocks_as<kPass, true, true, true>(first, end, c)
              : step_blocks_as<kPass, false, true, true>(first, end, c);
    } else {
      blocked ? step_blocks_as<kPass, true, true, false>(first, end, c)
              : step_blocks_as<kPass, false, true, false>(first, end, c);
    }
  } else if (counting) [[unlikely]] {
    blocked ? step_blocks_as<kPass, true, false, true>(first, end, c)
            : step_blocks_as<kPass, false, false, true>(first, end, c);
  } else if (blocked) {
    step_blocks_as<kPass, true, false, false>(first, end, c);
  } else {
    step_blocks_as<kPass, false, false, false>(first, end, c);
  }
}

// The schedule of the layers (rank_model_layers.cpp) steps whole layers.
template void RankModel::step_layer<WalkPass::kAll>(std::size_t layer, Cycle c);

void RankModel::step(Cycle t) {
  begin_cycle(t);
  step_layer<WalkPass::kAll>(0, t);
  end_cycle(t);
}

void RankModel::step_interior(Cycle t) {
  begin_cycle(t);
  step_layer<WalkPass::kInterior>(0, t);
  cycle_open_ = true;
}

void RankModel::step_boundary(Cycle t) {
  require(cycle_open_ && now_ == t + 1, "step_boundary(t) without step_interior(t)");
  step_layer<WalkPass::kBoundary>(0, t);
  cycle_open_ = false;
  end_cycle(t);
}

// A flit enters router r's input VC at t (and the router has work). Inlined: every flit taken
// off a link comes here.
void RankModel::deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
  bank_.deposit(r, local_vc, f, t);
  wake(r);
}

// The rare paths of send_flit() and send_credit() (rank_model_walk.hpp): the link crosses to
// another rank.
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
  links_.count_sent();
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
  links_.count_received(from_peer.flits.size());
  std::size_t next_head = 0;
  for (const RemoteFlit& rf : from_peer.flits) {
    const std::uint32_t r = links_.local(rf.node);
    require(r != RankLinks::kNoLink, "a remote flit arrived for a router this rank does not own");
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
      require(slot != RankLinks::kNoLink && packets_[slot].id == rf.packet_id,
              "a body flit arrived from another rank without its head");
      f.set_packet(slot);
      if (f.tail()) links_.stream_ends(i);
    }
    if (rf.arrival < now_) {
      require(links_.boundary(r), "a remote flit arrived at a router without a remote link");
      deposit(r, local_vc, f, rf.arrival);
      continue;
    }
    wheel_.add_flit(rf.arrival, r, local_vc, f);
  }
  require(next_head == from_peer.heads.size(), "packet records without their head flits");
  for (const RemoteCredit& rc : from_peer.credits) {
    const std::uint32_t r = links_.local(rc.node);
    require(r != RankLinks::kNoLink, "a remote credit arrived for a router this rank does not own");
    require(rc.arrival >= current, "a remote credit arrived after its arrival cycle");
    const std::uint32_t o = bank_.output_vc(r, rc.port * vcs_ + rc.vc);
    if (rc.arrival < now_) {
      require(links_.boundary(r), "a remote credit arrived at a router without a remote link");
      if (observer_ != nullptr) observe_credit(o, rc.arrival);
      bank_.return_credit(o, rc.arrival);
      continue;
    }
    wheel_.add_credit(rc.arrival, r, o);
  }
}

TrafficCounters RankModel::take_window() {
  require(level(), "take_window() while the walk's layers are not level");
  return counters_.take_window(sources_.created_flits(), sources_.created_packets());
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> RankModel::take_channel_window() {
  require(level(), "take_channel_window() while the walk's layers are not level");
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  bank_.take_channel_window(topo_, out);
  return out;
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> RankModel::take_channel_blocked() {
  require(level(), "take_channel_blocked() while the walk's layers are not level");
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  bank_.take_channel_blocked(topo_, now_, out);
  return out;
}

RankStateView RankModel::state() const {
  require(level(), "the rank's state read while the walk's layers are not level");
  return RankStateView(topo_, bank_, packets_, sources_, links_, wheel_, counters_, active_, now_);
}

std::size_t RankModel::bytes() const {
  std::size_t b = bank_.bytes() + packets_.capacity_bytes() + sources_.bytes();
  b += links_.bytes() + active_.capacity() * 8 + counters_.bytes() + wheel_.bytes();
  return b + plan_.bytes();
}

}  // namespace wormnet
