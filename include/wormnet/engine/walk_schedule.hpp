// The schedule of a rank's walk over its blocks of routers: which blocks form each layer, and
// which layer simulates which cycle before the engine's cycle t. It knows blocks and the links
// between them, never a router (RankModel steps the layers it names).
//
// The level walk (skew 1): one layer, every block in index order, every cycle.
//
// The skewed walk (skew > 1): layer 0 holds the blocks with a link to another rank (or,
// without one, a seed block), layer k + 1 the blocks linked to layer k that are in no lower
// layer, so a link joins blocks of the same or adjacent layers. A router at cycle c needs only
// what its neighbours sent at c - 1 or before, so a layer may simulate cycle c as soon as its
// adjacent layers have simulated c - 1: layers need not be level. Layer 0 follows the engine's
// cycle (it trades with other ranks); between the cycles the engine reads the state (at
// set_level_at()), the deeper layers lag behind it, a layer k at most min(k, skew - 1) cycles,
// and catch up every `skew` cycles in a wave from the deepest layer to layer 1 that advances a
// band of adjacent layers through several cycles while their state is in the caches
// (docs/scaling.md, "The skewed walk"). Results are those of the level walk, bit for bit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

/// Which of a layer's active routers a pass of the walk steps: all, those without a link to
/// another rank (before the exchange), or those with one (after it).
enum class WalkPass { kAll, kInterior, kBoundary };

/// How a rank walks its routers. The defaults suit the caches of today's machines
/// (docs/scaling.md, "The skewed walk"); the tests take small blocks to reach the blocked,
/// layered walk on small networks.
struct WalkLayout {
  /// Ranks of at least this many routers keep their arrivals by block and walk in layers;
  /// smaller ranks (some 16 MB of state) are one block: their state stays in the caches.
  std::uint32_t blocked_min = 16384;
  /// log2 routers per block, 6 or more (a block is whole words of the active set). 1,024
  /// routers: the fastest block size measured (docs/scaling.md).
  int block_shift = 10;
  /// Ranks of at least this many blocked routers let their deeper layers lag (by `skew`);
  /// smaller ones keep them level: a layer's state must be large against the caches for a
  /// level walk to lose it every cycle (docs/scaling.md).
  std::uint32_t skewed_min = 262144;
  Cycle skew = 4;  ///< cycles between the catch-ups of the deeper layers (1: always level)
};

/// The blocks of a rank and their links: block b's neighbours are
/// adjacent[first[b] .. first[b + 1]) (every block that sends it flits or credits), and
/// boundary[b] says whether b has a link to another rank.
struct BlockGraph {
  std::vector<std::uint32_t> first{0};
  std::vector<std::uint32_t> adjacent;
  std::vector<bool> boundary;
  [[nodiscard]] std::size_t blocks() const { return first.size() - 1; }
};

class WalkSchedule {
 public:
  /// The level walk of `blocks` blocks.
  explicit WalkSchedule(std::size_t blocks);
  /// The skewed walk of `graph`'s blocks, its deeper layers catching up every `skew` cycles
  /// (skew 1: the level walk of its blocks).
  WalkSchedule(const BlockGraph& graph, Cycle skew);

  [[nodiscard]] std::size_t layers() const { return next_.size(); }
  /// Layer k's blocks are block(i) for i in [layer_begin(k), layer_end(k)), ascending.
  [[nodiscard]] std::size_t layer_begin(std::size_t k) const { return first_[k]; }
  [[nodiscard]] std::size_t layer_end(std::size_t k) const { return first_[k + 1]; }
  [[nodiscard]] std::size_t block(std::size_t i) const { return blocks_[i]; }
  /// The first cycle layer k has not simulated.
  [[nodiscard]] Cycle next(std::size_t k) const { return next_[k]; }
  /// Whether every layer has simulated the same cycles.
  [[nodiscard]] bool level() const {
    return std::all_of(next_.begin(), next_.end(), [this](Cycle c) { return c == next_[0]; });
  }
  /// Every layer has simulated the cycles before this one.
  [[nodiscard]] Cycle settled() const { return *std::min_element(next_.begin(), next_.end()); }
  [[nodiscard]] Cycle skew() const { return skew_; }

  /// The engine reads the state after cycle t - 1 and no sooner (0: after every cycle).
  void set_level_at(Cycle t) { level_at_ = t; }
  /// Whether the layers follow the engine's cycles (not before the first cycle, nor after
  /// reset()).
  [[nodiscard]] bool anchored() const { return anchored_; }
  /// The first cycle stepped, or the first after a reset: every layer is level at t.
  void anchor(Cycle t);
  /// Forgets the cycles (a restore): the next begin() anchors anew.
  void reset();

  /// Opens the engine's cycle t: steps the deeper layers, by step(layer, cycle), to where
  /// layer 0 can simulate t (layer k: t + 1 - k), or all of them to t + 1 when `catch_up`
  /// or when the engine reads the state after t or the layers have lagged `skew` cycles.
  template <class Step>
  void begin(Cycle t, bool catch_up, Step&& step);
  /// Closes the engine's cycle t: layer 0 has simulated it.
  void end(Cycle t) {
    next_[0] = t + 1;
    if (level()) level_since_ = t + 1;
  }

 private:
  std::vector<std::uint32_t> first_;   ///< layer k's blocks: blocks_[first_[k] .. first_[k + 1])
  std::vector<std::uint32_t> blocks_;  ///< blocks, layer by layer
  std::vector<Cycle> next_;            ///< [layer]: the first cycle it has not simulated
  Cycle skew_ = 1;
  Cycle level_at_ = 0;     ///< set_level_at()
  Cycle level_since_ = 0;  ///< the cycle at which the layers were last level
  bool anchored_ = false;
};

template <class Step>
void WalkSchedule::begin(Cycle t, bool catch_up, Step&& step) {
  require(next_[0] == t, "the engine skipped or repeated a cycle");
  const std::size_t n = next_.size();
  if (n <= 1) return;
  catch_up = catch_up || t + 1 >= level_at_ || t + 1 - level_since_ >= skew_;
  const auto target = [&](std::size_t k) {
    return catch_up ? t + 1 : std::max(next_[k], t + 1 > k ? t + 1 - k : 0);
  };
  // Layer k may simulate cycle c = next_[k] once its adjacent layers have simulated c - 1
  // (layer 0 is at t: it never holds back a layer below its target).
  const auto ready = [&](std::size_t k) {
    const Cycle c = next_[k];
    return next_[k - 1] >= c && (k + 1 == n || next_[k + 1] >= c);
  };
  const auto advance = [&](std::size_t k) {
    step(k, next_[k]);
    ++next_[k];
  };
  Cycle depth = 0;  // the most cycles a layer lacks
  for (std::size_t k = 1; k < n; ++k) depth = std::max(depth, target(k) - next_[k]);
  if (depth == 0) return;
  // The wave: a band of `depth` adjacent layers moves from the deepest layer up to layer 1,
  // one layer per pass; a pass steps each layer of the band one cycle, the shallowest (the
  // band's front, entering it) first. A layer is stepped in `depth` consecutive passes, with
  // only the band's other layers stepped in between: its state is still in the cache.
  const auto layers = static_cast<std::ptrdiff_t>(n);
  const auto width = static_cast<std::ptrdiff_t>(depth);
  for (std::ptrdiff_t front = layers - 1; front + width > 1; --front) {
    const std::ptrdiff_t end = std::min(front + width, layers);
    for (std::ptrdiff_t k = std::max<std::ptrdiff_t>(front, 1); k < end; ++k) {
      const auto u = static_cast<std::size_t>(k);
      if (next_[u] < target(u) && ready(u)) advance(u);
    }
  }
  // Whatever the wave left (it leaves nothing when the layers were a staircase): deepest
  // first, until every layer is at its target. A layer below its target waits only for a
  // neighbour below its own, so each sweep advances one.
  for (bool behind = true; behind;) {
    behind = false;
    bool moved = false;
    for (std::size_t k = n - 1; k >= 1; --k) {
      if (next_[k] >= target(k)) continue;
      behind = true;
      if (ready(k)) {
        advance(k);
        moved = true;
      }
    }
    require(moved || !behind, "the skewed walk's layers are stuck");
  }
}

}  // namespace wormnet
