// The schedule of the skewed walk (rank_model.hpp): the layers of a rank's blocks, which layer
// simulates which cycle before the engine's cycle t, and the counters kept per cycle that are
// final once every layer has simulated it.
#include "wormnet/engine/rank_model.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet {

void RankModel::build_layers() {
  if (skew_ == 1) {
    // Never lagging: one layer, its blocks walked in index order (forwards through memory,
    // which the layer order, deepest first, is not).
    layer_first_ = {0, static_cast<std::uint32_t>(blocks_)};
    layer_blocks_.resize(blocks_);
    for (std::size_t b = 0; b < blocks_; ++b) layer_blocks_[b] = static_cast<std::uint32_t>(b);
    layer_next_.assign(1, 0);
    return;
  }
  // The blocks linked to each block (links come in pairs, one each way: a block's list names
  // every block that sends it flits or credits). kNoLink has kRemoteBit set: skipped as well.
  std::vector<std::uint32_t> first{0};
  std::vector<std::uint32_t> adjacent;
  std::vector<std::uint32_t> mine;
  const auto routers = static_cast<std::uint32_t>(bank_.routers());
  for (std::size_t b = 0; b < blocks_; ++b) {
    mine.clear();
    const auto begin = static_cast<std::uint32_t>(blocks_ > 1 ? b << block_shift_ : 0);
    const std::uint32_t end =
        blocks_ > 1 ? std::min<std::uint32_t>(routers, begin + (1U << block_shift_)) : routers;
    for (std::uint32_t r = begin; r < end; ++r) {
      for (int p = 0; p < ports_; ++p) {
        const std::uint32_t m = link(r, p);
        if ((m & kRemoteBit) == 0 && block_of(m) != b) {
          mine.push_back(static_cast<std::uint32_t>(block_of(m)));
        }
      }
    }
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    adjacent.insert(adjacent.end(), mine.begin(), mine.end());
    first.push_back(static_cast<std::uint32_t>(adjacent.size()));
  }
  // Breadth-first from the blocks with a remote link; a part of the rank that has none (the
  // whole rank, on one rank) starts from its lowest block.
  constexpr std::uint32_t kUnseen = 0xFFFFFFFFU;
  std::vector<std::uint32_t> layer(blocks_, kUnseen);
  std::vector<std::uint32_t> queue;
  for (std::size_t b = 0; b < blocks_; ++b) {
    const std::size_t w0 = blocks_ > 1 ? b << (block_shift_ - 6) : 0;
    const std::size_t w1 =
        blocks_ > 1 ? std::min(boundary_.size(), w0 + (std::size_t{1} << (block_shift_ - 6)))
                    : boundary_.size();
    for (std::size_t w = w0; w < w1; ++w) {
      if (boundary_[w] != 0) {
        layer[b] = 0;
        queue.push_back(static_cast<std::uint32_t>(b));
        break;
      }
    }
  }
  for (std::size_t seed = 0, head = 0;; ++seed) {
    for (; head < queue.size(); ++head) {
      const std::uint32_t b = queue[head];
      for (std::uint32_t k = first[b]; k < first[b + 1]; ++k) {
        if (layer[adjacent[k]] != kUnseen) continue;
        layer[adjacent[k]] = layer[b] + 1;
        queue.push_back(adjacent[k]);
      }
    }
    while (seed < blocks_ && layer[seed] != kUnseen) ++seed;
    if (seed == blocks_) break;
    layer[seed] = 0;
    queue.push_back(static_cast<std::uint32_t>(seed));
  }
  const std::uint32_t layers = *std::max_element(layer.begin(), layer.end()) + 1;
  layer_first_.assign(layers + 1, 0);
  for (std::uint32_t l : layer) ++layer_first_[l + 1];
  for (std::uint32_t l = 0; l < layers; ++l) layer_first_[l + 1] += layer_first_[l];
  layer_blocks_.resize(blocks_);
  std::vector<std::uint32_t> fill(layer_first_.begin(), layer_first_.end() - 1);
  for (std::size_t b = 0; b < blocks_; ++b) {
    layer_blocks_[fill[layer[b]]++] = static_cast<std::uint32_t>(b);
  }
  layer_next_.assign(layers, 0);
}

bool RankModel::level() const {
  return std::all_of(layer_next_.begin(), layer_next_.end(),
                     [this](Cycle c) { return c == layer_next_[0]; });
}

void RankModel::begin_cycle(Cycle t) {
  require(!cycle_open_, "step(t) or step_interior(t) before step_boundary() of the last cycle");
  if (!anchored_) {
    // The first cycle stepped, or the first after restore(): the layers are level at t.
    require(level(), "the walk's layers are not level where the engine starts");
    std::fill(layer_next_.begin(), layer_next_.end(), t);
    settled_ = level_since_ = t;
    settled_created_ = sources_.created_packets();
    settled_ejected_ = ejected_packets_;
    anchored_ = true;
  }
  require(layer_next_[0] == t, "the engine skipped or repeated a cycle");
  now_ = t + 1;
  if (script_ != nullptr && script_->next_release() <= t) {
    released_.clear();
    script_->release(t, released_);
    for (const auto& [node, m] : released_) enqueue(node, m);
  }
  // A script hears of each delivery before it releases the next messages, and the engine
  // reads the state at level_at_: then every layer simulates t before the engine goes on.
  const bool catch_up = script_ != nullptr || t + 1 >= level_at_ || t + 1 - level_since_ >= skew_;
  advance_layers(t, catch_up);
}

void RankModel::end_cycle(Cycle t) {
  layer_next_[0] = t + 1;
  if (level()) level_since_ = t + 1;
  settle();
}

void RankModel::advance_layers(Cycle t, bool catch_up) {
  const std::size_t n = layer_next_.size();
  if (n <= 1) return;
  const auto target = [&](std::size_t k) {
    return catch_up ? t + 1 : std::max(layer_next_[k], t + 1 > k ? t + 1 - k : 0);
  };
  // Layer k may simulate cycle c = layer_next_[k] once its adjacent layers have simulated
  // c - 1 (layer 0 is at t: it never holds back a layer below its target).
  const auto ready = [&](std::size_t k) {
    const Cycle c = layer_next_[k];
    return layer_next_[k - 1] >= c && (k + 1 == n || layer_next_[k + 1] >= c);
  };
  const auto advance = [&](std::size_t k) {
    step_layer<Pass::kAll>(k, layer_next_[k]);
    ++layer_next_[k];
  };
  Cycle depth = 0;  // the most cycles a layer lacks
  for (std::size_t k = 1; k < n; ++k) depth = std::max(depth, target(k) - layer_next_[k]);
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
      if (layer_next_[u] < target(u) && ready(u)) advance(u);
    }
  }
  // Whatever the wave left (it leaves nothing when the layers were a staircase): deepest
  // first, until every layer is at its target. A layer below its target waits only for a
  // neighbour below its own, so each sweep advances one.
  for (bool behind = true; behind;) {
    behind = false;
    bool moved = false;
    for (std::size_t k = n - 1; k >= 1; --k) {
      if (layer_next_[k] >= target(k)) continue;
      behind = true;
      if (ready(k)) {
        advance(k);
        moved = true;
      }
    }
    require(moved || !behind, "the skewed walk's layers are stuck");
  }
}

void RankModel::settle() {
  const Cycle done = *std::min_element(layer_next_.begin(), layer_next_.end());
  for (; settled_ < done; ++settled_) {
    const std::size_t k = settled_ & wheel_mask_;
    settled_created_ += created_at_[k];
    created_at_[k] = 0;
    if (settled_ >= measure_begin_ && settled_ < measure_end_) {
      measured_.packet_cycles += settled_created_ + scripted_packets_ - settled_ejected_;
    }
    settled_ejected_ += ejected_at_[k];
    ejected_at_[k] = 0;
  }
}

}  // namespace wormnet
