// The prefetch plan of a rank's walk: which state the walk over a rank too large for the
// caches asks the processor for ahead of use, and when (docs/scaling.md, "The prefetch
// plan"). RankModel tells the plan where the walk is (a flit deposited, a block entered, a
// router stepped, a block done); the plan asks the router bank (RouterBank::prefetch), the
// packet table, the links and the counters for the lines the next work touches. Hints only:
// nothing here changes a value a result depends on, and a build without hints
// (WORMNET_PREFETCH_HINTS=OFF: kPrefetchHints false) fills no bucket and asks for nothing,
// with the same results (the test engine.hints_identical). A rank of one block has no plan:
// its state stays in the caches, where the hints cost more than they save.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/engine/arrival_wheel.hpp"
#include "wormnet/engine/rank_counters.hpp"
#include "wormnet/engine/rank_links.hpp"
#include "wormnet/engine/router_set.hpp"
#include "wormnet/engine/wheel_bucket.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_bank.hpp"

namespace wormnet {

class PrefetchPlan {
 public:
  PrefetchPlan() = default;
  /// The plan of a rank of `blocks` blocks (1: none) whose arrival wheel spans `wheel_size`
  /// cycles (a power of two); heads wake their routers `route_delay` cycles after their
  /// arrival (the wheel's RouteDue buckets), or at their arrival when it is 0. The parts
  /// hinted at must outlive the plan.
  PrefetchPlan(const RouterBank& bank, const PacketTable& packets, const RankLinks& links,
               const RankCounters& counters, std::size_t blocks, std::size_t wheel_size,
               Cycle route_delay)
      : bank_(&bank),
        packets_(&packets),
        links_(&links),
        counters_(&counters),
        blocks_(blocks),
        mask_(wheel_size - 1),
        route_at_arrival_(route_delay == 0) {
    // Hints for a VC's next moves wait on the wheel for up to 2 cycles, where it spans them.
    move_span_ = blocks > 1 ? std::min<Cycle>(2, wheel_size - 1) : 0;
    if (kPrefetchHints && blocks > 1) moves_.resize(wheel_size * blocks);
  }

  /// A flit was deposited at cycle c into input VC local_vc of router r (of `block`):
  /// if the VC holds an output VC, hints for its move now, and on the wheel for its next
  /// moves. `measuring`: the cycle counts channel flits.
  void deposited(std::size_t block, std::uint32_t r, int local_vc, bool tail, Cycle c,
                 bool measuring) {
    if constexpr (!kPrefetchHints) return;
    // The record the deposit has just written: in the cache.
    const RouterBank::Outlet s = bank_->outlet(r, local_vc);
    if (!s.holds) return;
    const bool network = s.port != bank_->params().ports;
    const MoveDue m{s.output,
                    network ? static_cast<std::uint32_t>(links_->slot(r, s.port)) : kNoLink};
    // The flit at the front moves in this cycle's step (a flit arriving in a VC that streams
    // its packet finds one there).
    ask_move(m, measuring);
    // With s.flits buffered, the VC moves one in each of the next s.flits - 1 cycles when
    // nothing holds it up. The next cycle's arrival, if any, hints at its own cycle's move,
    // but only just before the block's steps; from the wheel, the hint comes while the walk
    // is a block before. After a tail nothing more arrives, so a tail leaves the hint for the
    // cycle after next as well. Ejection moves take no credit and send nothing over a link:
    // not worth a hint.
    if (!network || s.flits < 2) return;  // a rank of blocks: move_span_ >= 1
    moves(c + 1, block).push_back(m);
    if (tail && s.flits >= 3 && move_span_ >= 2) moves(c + 2, block).push_back(m);
  }

  /// The walk has applied the arrivals due at cycle c at `block` and steps its routers next;
  /// `next` holds the arrivals due at c at the block walked after it (null: none), which
  /// the next router steps ask for a few at a time (their state was last touched a cycle
  /// ago and has left the caches of a large rank; asked for during this block's steps, the
  /// fetches overlap them).
  void entered(Cycle c, std::size_t block, const WheelBucket<Arrival>* next_flits,
               const WheelBucket<std::uint32_t>* next_credits,
               const WheelBucket<RouteDue>* next_routes, std::size_t next) {
    if constexpr (!kPrefetchHints) return;
    moves(c, block).clear();
    if (next_flits == nullptr) {
      ahead_ = Ahead{};
      return;
    }
    const WheelBucket<MoveDue>& m = moves(c, next);
    ahead_ = Ahead{next_flits->begin(),
                   next_flits->end(),
                   next_credits->begin(),
                   next_credits->end(),
                   next_routes->begin(),
                   next_routes->end(),
                   m.begin(),
                   m.end()};
  }

  /// After a router step in word w of the active set: one or two hints of each kind, so that
  /// the fetches overlap the steps without filling the queue of misses: the next block's
  /// arrivals; the header of the next active router two words on (two_on: those routers not
  /// yet asked for); and, from those headers (asked for a word earlier), the records of the
  /// VCs holding flits at the next active router a word on (one_on). W: the layout of the
  /// routers' headers (MaskWidth, the walk's).
  template <MaskWidth W = MaskWidth::kAny>
  void stepped(std::size_t w, std::uint64_t& one_on, std::uint64_t& two_on, bool measuring) {
    if constexpr (!kPrefetchHints) return;
    ask_ahead<W>(2, measuring);
    if (two_on != 0) {
      bank_->prefetch<RouterPart::kHeader, W>(router_set::router(w + 2, std::countr_zero(two_on)));
      two_on &= two_on - 1;
    }
    if (one_on != 0) {
      bank_->prefetch<RouterPart::kInputs, W>(router_set::router(w + 1, std::countr_zero(one_on)));
      one_on &= one_on - 1;
    }
  }

  /// The walk has stepped the block's routers: the next block's arrivals not yet asked for.
  template <MaskWidth W = MaskWidth::kAny>
  void block_done(bool measuring) {
    if constexpr (kPrefetchHints) ask_ahead<W>(~std::size_t{0}, measuring);
  }

  /// Forgets every hint left on the wheel (a restore).
  void clear() {
    for (WheelBucket<MoveDue>& b : moves_) b.clear();
    ahead_ = Ahead{};
  }
  [[nodiscard]] std::size_t bytes() const {
    std::size_t b = 0;
    for (const WheelBucket<MoveDue>& m : moves_) b += sizeof(m) + m.bytes();
    return b;
  }

 private:
  static constexpr std::uint32_t kNoLink = RankLinks::kNoLink;
  /// A VC expected to move a flit over a link (after the flits it holds): the output VC's
  /// record, whose credit the move takes, the link and its flit counter.
  struct MoveDue {
    std::uint32_t output;   ///< OutputUnit index
    std::uint32_t channel;  ///< RankLinks::slot() (links and channel counters), or kNoLink
  };
  /// The next block's arrivals not yet asked for.
  struct Ahead {
    const Arrival* flit = nullptr;
    const Arrival* flits_end = nullptr;
    const std::uint32_t* credit = nullptr;
    const std::uint32_t* credits_end = nullptr;
    const RouteDue* route = nullptr;
    const RouteDue* routes_end = nullptr;
    const MoveDue* move = nullptr;
    const MoveDue* moves_end = nullptr;
  };

  /// The moves due at cycle c at `block`.
  WheelBucket<MoveDue>& moves(Cycle c, std::size_t block) {
    return moves_[(c & mask_) * blocks_ + block];
  }
  /// Hints for a move: the output VC's record, the link's neighbour and its flit counter.
  void ask_move(const MoveDue& m, bool measuring) const {
    bank_->prefetch<RouterPart::kOutputVc>(m.output);
    if (m.channel != kNoLink) {
      links_->prefetch(m.channel);
      if (measuring) counters_->prefetch_hop(m.channel);
    }
  }
  /// Asks for the next n of the next block's arrivals.
  template <MaskWidth W>
  void ask_ahead(std::size_t n, bool measuring) {
    // The heads due for their route first: asked for last, their hints came too late for
    // the first steps of the block; asked for at their arrival, a cycle or more before the
    // route, the walk over the rank evicted them in between (docs/scaling.md, "The prefetch
    // plan").
    for (; n != 0 && ahead_.route != ahead_.routes_end; --n, ++ahead_.route) {
      packets_->prefetch(ahead_.route->packet);
      bank_->prefetch<RouterPart::kRoute>(ahead_.route->router);
    }
    for (; n != 0 && ahead_.move != ahead_.moves_end; --n, ++ahead_.move) {
      ask_move(*ahead_.move, measuring);
    }
    for (; n != 0 && ahead_.flit != ahead_.flits_end; --n, ++ahead_.flit) {
      bank_->prefetch<RouterPart::kDeposit, W>(ahead_.flit->router, ahead_.flit->local_vc);
      // A head's route and VC allocation read its packet's record, in this cycle when its
      // router wakes at its arrival (else from the wheel's RouteDue, above, when it routes).
      if (route_at_arrival_ && ahead_.flit->flit.head()) {
        packets_->prefetch(ahead_.flit->flit.packet());
        bank_->prefetch<RouterPart::kRoute>(ahead_.flit->router);
      }
    }
    for (; n != 0 && ahead_.credit != ahead_.credits_end; --n, ++ahead_.credit) {
      bank_->prefetch<RouterPart::kOutputVc>(*ahead_.credit);
    }
  }

  const RouterBank* bank_ = nullptr;
  const PacketTable* packets_ = nullptr;
  const RankLinks* links_ = nullptr;
  const RankCounters* counters_ = nullptr;
  std::size_t blocks_ = 1;
  std::size_t mask_ = 0;  ///< the wheel's size - 1
  /// Heads route at the cycle of their arrival (else route_delay cycles later).
  bool route_at_arrival_ = true;
  /// Cycles ahead that deposited() leaves hints on the wheel for (0: none, a small rank).
  Cycle move_span_ = 0;
  /// The moves due, by cycle (modulo the wheel's size) and block: index cycle * blocks + block.
  std::vector<WheelBucket<MoveDue>> moves_;
  /// The next block's arrivals not yet asked for (within the current cycle's buckets, which
  /// no send of the cycle grows: sends are a cycle or more ahead).
  Ahead ahead_;
};

}  // namespace wormnet
