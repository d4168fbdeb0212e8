// A rank's arrival wheel: the flits and credits on its local links, each in the bucket of the
// cycle it arrives at (modulo the wheel's size) and of its router's block, and the heads whose
// routers wake at their route. Every delay is fixed and at least one cycle, so what a cycle
// sends lands a fixed number of slots ahead of the slot being applied.
//
// Buckets by block of 2^shift routers (local index >> shift): the walk over a block applies
// its arrivals just before it steps the block's routers. On a rank too large for the caches,
// applying them all in a pass before the walk touched each receiving router's state twice
// from memory: the deposit, then the router's own step, after the state had left the cache.
// Ranks smaller than WalkLayout::blocked_min keep one block: their state stays in the
// caches, and the buckets would only add work.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/engine/wheel_bucket.hpp"
#include "wormnet/router/flit.hpp"

namespace wormnet {

/// A flit on a local link, due at an input VC.
struct Arrival {
  std::uint32_t router;    ///< local router index
  std::uint16_t local_vc;  ///< port * vcs + vc
  Flit flit;
};

/// A head that reached the front of an input VC on a rank of blocks, due for its route: its
/// router wakes for it then (not at its arrival); the prefetch plan asks for the packet's
/// record and the router's output VCs just before.
struct RouteDue {
  std::uint32_t router;  ///< local router index
  std::uint32_t packet;  ///< PacketTable slot
};

class ArrivalWheel {
 public:
  /// The arrivals due at one cycle, one bucket per block of routers.
  struct Slot {
    std::vector<WheelBucket<Arrival>> flits;
    std::vector<WheelBucket<std::uint32_t>> credits;  ///< OutputUnit indices
    /// Heads deposited routing_delay cycles before this slot's cycle: the routers to wake
    /// for their route.
    std::vector<WheelBucket<RouteDue>> routes;
  };

  ArrivalWheel() = default;
  /// The wheel of a rank whose arrivals are due at most `max_delay` cycles after the cycle
  /// that sends them and whose walk's layers are at most `spread` cycles apart (a layer may
  /// send to one that lags): 2^k slots spanning both, each of `blocks` buckets of 2^shift
  /// routers (blocks 1: every router in one bucket).
  ArrivalWheel(Cycle max_delay, Cycle spread, std::size_t blocks, int shift)
      : slots_(std::bit_ceil(static_cast<std::size_t>(max_delay + spread + 1))),
        mask_(slots_.size() - 1),
        blocks_(blocks),
        shift_(shift) {
    require(max_delay >= 1 && blocks >= 1, "arrival wheel: delays of 1 cycle or more");
    for (Slot& s : slots_) {
      s.flits.resize(blocks);
      s.credits.resize(blocks);
      s.routes.resize(blocks);
    }
  }

  /// Cycles the wheel spans (a power of two).
  [[nodiscard]] std::size_t size() const { return slots_.size(); }
  [[nodiscard]] std::size_t blocks() const { return blocks_; }
  /// log2 routers a block.
  [[nodiscard]] int block_shift() const { return shift_; }
  /// The block (bucket) of local router r.
  [[nodiscard]] std::size_t block_of(std::uint32_t r) const {
    return blocks_ > 1 ? r >> shift_ : 0;
  }
  /// The slot of the arrivals due at cycle c (the wheel holds c while c is less than size()
  /// cycles ahead of the oldest cycle not yet applied).
  [[nodiscard]] Slot& slot(Cycle c) { return slots_[c & mask_]; }
  [[nodiscard]] const Slot& slot(Cycle c) const { return slots_[c & mask_]; }

  /// Flit f due at cycle c at input VC local_vc of local router r.
  void add_flit(Cycle c, std::uint32_t r, int local_vc, Flit f) {
    slot(c).flits[block_of(r)].push_back(Arrival{r, static_cast<std::uint16_t>(local_vc), f});
  }
  /// A credit due at cycle c at output VC o (an OutputUnit index) of local router r.
  void add_credit(Cycle c, std::uint32_t r, std::uint32_t o) {
    slot(c).credits[block_of(r)].push_back(o);
  }

  /// Calls f(cycle, arrival) for every flit on the wheel, and g(cycle, o) for every credit,
  /// `now` being the first cycle not yet applied (slot by slot, block by block).
  template <class F, class G>
  void for_each(Cycle now, F&& f, G&& g) const {
    for (std::size_t w = 0; w < slots_.size(); ++w) {
      const Cycle c = cycle_of(w, now);
      for (const WheelBucket<Arrival>& b : slots_[w].flits) {
        for (const Arrival& a : b) f(c, a);
      }
      for (const WheelBucket<std::uint32_t>& b : slots_[w].credits) {
        for (std::uint32_t o : b) g(c, o);
      }
    }
  }
  /// Flits on the wheel.
  [[nodiscard]] std::uint64_t flits() const {
    std::uint64_t n = 0;
    for (const Slot& s : slots_) {
      for (const WheelBucket<Arrival>& b : s.flits) n += b.size();
    }
    return n;
  }
  /// Empties every bucket (a restore).
  void clear() {
    for (Slot& s : slots_) {
      for (WheelBucket<Arrival>& b : s.flits) b.clear();
      for (WheelBucket<std::uint32_t>& b : s.credits) b.clear();
      for (WheelBucket<RouteDue>& b : s.routes) b.clear();
    }
  }
  /// Bytes held by the buckets.
  [[nodiscard]] std::size_t bytes() const {
    std::size_t n = 0;
    for (const Slot& s : slots_) {
      for (const WheelBucket<Arrival>& b : s.flits) n += sizeof(b) + b.bytes();
      for (const WheelBucket<std::uint32_t>& b : s.credits) n += sizeof(b) + b.bytes();
      for (const WheelBucket<RouteDue>& b : s.routes) n += sizeof(b) + b.bytes();
    }
    return n;
  }

 private:
  /// The cycle of slot w's arrivals: the one of the next size() cycles from `now` that is w
  /// modulo size().
  [[nodiscard]] Cycle cycle_of(std::size_t w, Cycle now) const {
    const Cycle c = (now & ~static_cast<Cycle>(mask_)) + w;
    return c < now ? c + slots_.size() : c;
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t blocks_ = 1;
  int shift_ = 10;
};

}  // namespace wormnet
