// RankModel's walk over its routers in a cycle (rank_model.hpp): the arrivals of a block, the
// router steps and the carrying of each flit and credit a step sends. Templates on the pass,
// on whether the rank has several blocks (kBlocked: the hints), on whether an observer is
// told of every move and credit (kObserved), on whether the routers count where packets
// wait (kCounted, --congestion) and on the layout of the routers' stage masks (kWidth:
// MaskWidth::kNarrow or kWide, the input unit's, chosen by RankModel::step_layer). Included by
// rank_model.cpp, which instantiates the unobserved uncounted narrow walk, by
// rank_model_wide.cpp (its wide copy), by rank_model_counted.cpp and
// rank_model_counted_wide.cpp (the counted ones) and by rank_model_observed.cpp, which
// instantiates the observed ones:
// in one translation unit both walks pushed GCC past its unit growth limit for inlining, and
// the unobserved walk lost inlined calls (docs/simulator.md, "The reference router").
#pragma once

#include <algorithm>
#include <bit>

#include "wormnet/core/error.hpp"
#include "wormnet/engine/rank_model.hpp"
#include "wormnet/engine/router_set.hpp"

namespace wormnet {

// Router r has work (bit r of the active set). Here, inline, with eject(), so that every
// unit that instantiates the walk (rank_model.cpp, rank_model_counted.cpp,
// rank_model_observed.cpp) inlines them: defined in one of them, the others called them for
// every flit (the counted walk did: 1.5 % of its mesh:16x16 bench run in wake
// alone).
inline void RankModel::wake(std::uint32_t r) {
  active_[router_set::word(r)] |= router_set::bit(r);
}

// A flit leaves the network at router r's terminal at cycle t.
inline void RankModel::eject(const Flit& f, Cycle t) {
  counters_.ejected_flit(in_measurement_);
  if (!f.tail()) return;
  const Packet& p = packets_[f.packet()];
  const Cycle done = t + eject_delay_;
  counters_.delivered(p, t, done);
  if (on_delivery_) on_delivery_(p, done);
  if (script_ != nullptr) script_->delivered(p, done);
  packets_.release(f.packet());
}

/// RouterBank::step's on_move for router r of `model` at cycle t: carries on each flit that
/// crosses the switch, ejected or onto its link, and sends a credit back upstream when it
/// left a network input port. A functor whose call is always inlined: the per-flit path
/// makes no call.
template <bool kBlocked, bool kObserved>
struct CarryMove {
  RankModel& model;
  std::uint32_t r;
  Cycle t;
  [[gnu::always_inline]] inline void operator()(int in_port, int in_vc, int out_port, int out_vc,
                                                Flit f) const {
    // Before the move, which may release the packet's record (its tail ejected, or gone to
    // another rank).
    if constexpr (kObserved) model.observe_move(r, in_port, in_vc, out_port, out_vc, f, t);
    if (out_port == model.ports_) {
      model.eject(f, t);
    } else {
      model.send_flit<kBlocked>(r, out_port, out_vc, f, t);
    }
    if (in_port != model.ports_) model.send_credit<kBlocked>(r, in_port, in_vc, t);
  }
};

// The flits and credits due at cycle c at the routers of `block`, applied in the walk just
// before the block's routers are stepped; `next` (or kNoBlock) is the block walked next,
// whose arrivals the prefetch plan then asks for. kBlocked: a rank of several blocks.
template <bool kBlocked, bool kObserved, bool kCounted, MaskWidth kWidth>
void RankModel::arrive(std::size_t block, std::size_t next, Cycle c) {
  WheelBucket<std::uint32_t>& credits = arriving_->credits[block];
  if constexpr (kCounted) bank_.reserve_unblocks(credits.size());
  for (std::uint32_t o : credits) {
    if constexpr (kObserved) observe_credit(o, c);
    bank_.return_credit<kBlocked, kCounted, kWidth>(o, c);
  }
  if constexpr (kCounted) bank_.count_unblocked();  // before the flits: their deposits read
  credits.clear();
  WheelBucket<Arrival>& flits = arriving_->flits[block];
  WheelBucket<RouteDue>* routes = kBlocked && route_wake_delay_ != 0
                                      ? &wheel_.slot(c + route_wake_delay_).routes[block]
                                      : nullptr;
  for (const Arrival& a : flits) {
    bank_.deposit<kCounted, kWidth>(a.router, a.local_vc, a.flit, c);
    // A head at the front of an idle VC routes routing_delay cycles from now (one behind
    // another packet later). Its router is woken then, not now: a step before the route
    // would find nothing to do unless the router holds other flits, and then it is awake
    // already (only such heads leave a router with flits asleep). That step would be a pass
    // through the stages for nothing, a large share of the steps at low load
    // (docs/scaling.md, "Measured figures behind the engine's rules"). A head behind
    // another packet wakes its router for nothing, and a step of an idle router changes
    // nothing.
    if (routes != nullptr && a.flit.head()) {
      routes->push_back(RouteDue{a.router, a.flit.packet()});
    } else {
      wake(a.router);
    }
    if constexpr (kBlocked) {
      plan_.deposited(block, a.router, a.local_vc, a.flit.tail(), c, in_measurement_);
    }
  }
  flits.clear();
  // Heads due for their route at c: their routers wake for it.
  for (const RouteDue& d : arriving_->routes[block]) wake(d.router);
  arriving_->routes[block].clear();
  if constexpr (kBlocked) {
    if (next != kNoBlock) {
      plan_.entered(c, block, &arriving_->flits[next], &arriving_->credits[next],
                    &arriving_->routes[next], next);
    } else {
      plan_.entered(c, block, nullptr, nullptr, nullptr, 0);
    }
  }
}

// The blocks [first, end) of the walk's order at cycle c. Their routers with work, the active
// set (bit r % 64 of word r / 64), are stepped in index order: routers are laid out by index,
// so a large rank walks its state forwards (prefetch-friendly) rather than in wake order;
// nothing wakes another router within a cycle's router loop (arrivals land on the wheel), so
// the bit scan meets every router that was active at its start. A router that holds flits is
// active, except while its only flits are heads waiting out their routing delay at idle VCs
// (a rank of blocks: arrive() wakes it when they route). kObserved: observer_ is told of every
// move and credit (RankModel::set_router_observer()). kCounted: the routers count where
// packets wait (--congestion; step_layer() has set the counters' cycle), an instance of its
// own so that the walk without counting has none of it, not even a test of a flag per flit.
template <WalkPass kPass, bool kBlocked, bool kObserved, bool kCounted, MaskWidth kWidth>
void RankModel::step_blocks(std::size_t first, std::size_t end, Cycle c) {
  auto scan = [&](std::size_t w, std::uint64_t bits, std::uint64_t one_on = 0,
                  std::uint64_t two_on = 0) {
    for (; bits != 0; bits &= bits - 1) {
      const int b = std::countr_zero(bits);
      const std::uint32_t r = router_set::router(w, b);
      step_router<kBlocked, kObserved, kCounted, kWidth>(r, c);
      if constexpr (kBlocked) plan_.stepped<kWidth>(w, one_on, two_on, in_measurement_);
      if (idle<kWidth>(r)) active_[w] &= ~(std::uint64_t{1} << b);
    }
  };
  if constexpr (kPass == WalkPass::kBoundary) {
    // The interior pass applied the arrivals and generated the messages of the boundary
    // routers' blocks (all in layer 0).
    for (std::uint32_t w : links_.boundary_words()) scan(w, active_[w] & links_.boundary_word(w));
    return;
  }
  const std::uint64_t created = sources_.created_packets();
  for (std::size_t i = first; i < end; ++i) {
    const std::size_t block = walk_.block(i);
    sources_.generate_until(block, c, [this](std::uint32_t r) {
      bank_.source_filled<kWidth>(r);
      wake(r);
    });
    arrive<kBlocked, kObserved, kCounted, kWidth>(block,
                                                  i + 1 < end ? walk_.block(i + 1) : kNoBlock, c);
    // The block's words (one block: all of them). The interior pass steps the block's
    // boundary routers later in the cycle, after the exchange.
    const int shift = wheel_.block_shift() - router_set::kWordShift;  // log2 words a block
    const std::size_t w0 = kBlocked ? block << shift : 0;
    const std::size_t w1 =
        kBlocked ? std::min(active_.size(), w0 + (std::size_t{1} << shift)) : active_.size();
    for (std::size_t w = w0; w < w1; ++w) {
      scan(w, kPass == WalkPass::kAll ? active_[w] : active_[w] & ~links_.boundary_word(w),
           w + 1 < w1 ? active_[w + 1] : 0, w + 2 < w1 ? active_[w + 2] : 0);
    }
    if constexpr (kBlocked) plan_.block_done<kWidth>(in_measurement_);
  }
  counters_.created(c, sources_.created_packets() - created);
}

// Router r at cycle t, its moves carried on (links, ejection) as they happen. Inlined into the
// loop over routers (a call per router saved and restored every register).
template <bool kBlocked, bool kObserved, bool kCounted, MaskWidth kWidth>
void RankModel::step_router(std::uint32_t r, Cycle t) {
  // RouterBank::step() split in two, so that a router with nothing to inject (most of them)
  // does not add its zero counts.
  if (bank_.has_injection<kWidth>(r)) {
    const RouterBank::Injected injected = bank_.inject<kCounted, kWidth>(r, t, sources_.queue(r));
    counters_.injected(injected.packets, injected.flits);
  }
  bank_.allocate<kCounted, kWidth>(r, t, CarryMove<kBlocked, kObserved>{*this, r, t});
}

// send_flit() and send_credit() run for every flit that crosses a switch: inlined into the
// router step, their rare remote paths (send_remote_*) kept out of line.
template <bool kBlocked>
void RankModel::send_flit(std::uint32_t r, int out_port, int out_vc, Flit f, Cycle t) {
  const std::size_t k = links_.slot(r, out_port);
  counters_.hop(k, in_measurement_);
  const std::uint32_t target = links_.target(k);
  const int in_port = Topology::reverse_port(out_port);
  if (RankLinks::remote(target)) {
    send_remote_flit(target & ~RankLinks::kRemoteBit, in_port, out_vc, f, t + flit_delay_);
    return;
  }
  flits_due_[kBlocked ? target >> wheel_.block_shift() : 0].push_back(
      Arrival{target, static_cast<std::uint16_t>(in_port * vcs_ + out_vc), f});
}

template <bool kBlocked>
void RankModel::send_credit(std::uint32_t r, int in_port, int vc, Cycle t) {
  const std::uint32_t target = links_.link(r, in_port);
  const int out_port = Topology::reverse_port(in_port);
  if (RankLinks::remote(target)) {
    send_remote_credit(target & ~RankLinks::kRemoteBit, out_port, vc, t + credit_delay_);
    return;
  }
  credits_due_[kBlocked ? target >> wheel_.block_shift() : 0].push_back(
      bank_.output_vc(target, out_port * vcs_ + vc));
}

}  // namespace wormnet

// The walk's six copies for one (observed, counted) pair and one layout of the routers'
// headers (MaskWidth::kNarrow or kWide): every pass, with and without blocks. `kind` is
// `template` in the unit that compiles them and `extern template` where they are only called
// (rank_model.cpp compiles the plain narrow walk, rank_model_wide.cpp the plain wide one,
// rank_model_observed.cpp the observed ones, rank_model_counted.cpp the counted ones: each
// unit's inlining stays its own).
#define WORMNET_WALK_COPIES(kind, kObserved, kCounted, kWidth)                               \
  kind void RankModel::step_blocks<WalkPass::kAll, false, kObserved, kCounted, kWidth>(      \
      std::size_t, std::size_t, Cycle);                                                      \
  kind void RankModel::step_blocks<WalkPass::kAll, true, kObserved, kCounted, kWidth>(       \
      std::size_t, std::size_t, Cycle);                                                      \
  kind void RankModel::step_blocks<WalkPass::kInterior, false, kObserved, kCounted, kWidth>( \
      std::size_t, std::size_t, Cycle);                                                      \
  kind void RankModel::step_blocks<WalkPass::kInterior, true, kObserved, kCounted, kWidth>(  \
      std::size_t, std::size_t, Cycle);                                                      \
  kind void RankModel::step_blocks<WalkPass::kBoundary, false, kObserved, kCounted, kWidth>( \
      std::size_t, std::size_t, Cycle);                                                      \
  kind void RankModel::step_blocks<WalkPass::kBoundary, true, kObserved, kCounted, kWidth>(  \
      std::size_t, std::size_t, Cycle)
