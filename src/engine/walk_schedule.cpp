#include "wormnet/engine/walk_schedule.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wormnet {

WalkSchedule::WalkSchedule(std::size_t blocks)
    : first_{0, static_cast<std::uint32_t>(blocks)}, blocks_(blocks), next_(1, 0) {
  // Never lagging: one layer, its blocks walked in index order (forwards through memory,
  // which the layer order, deepest first, is not).
  for (std::size_t b = 0; b < blocks; ++b) blocks_[b] = static_cast<std::uint32_t>(b);
}

WalkSchedule::WalkSchedule(const BlockGraph& graph, Cycle skew) : WalkSchedule(graph.blocks()) {
  require(skew >= 1, "walk schedule: a skew of 1 cycle or more");
  skew_ = skew;
  if (skew == 1) return;
  // Breadth-first from the blocks with a remote link; a part of the rank that has none (the
  // whole rank, on one rank) starts from its lowest block.
  const std::size_t blocks = graph.blocks();
  constexpr std::uint32_t kUnseen = 0xFFFFFFFFU;
  std::vector<std::uint32_t> layer(blocks, kUnseen);
  std::vector<std::uint32_t> queue;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (graph.boundary[b]) {
      layer[b] = 0;
      queue.push_back(static_cast<std::uint32_t>(b));
    }
  }
  for (std::size_t seed = 0, head = 0;; ++seed) {
    for (; head < queue.size(); ++head) {
      const std::uint32_t b = queue[head];
      for (std::uint32_t k = graph.first[b]; k < graph.first[b + 1]; ++k) {
        const std::uint32_t a = graph.adjacent[k];
        if (layer[a] != kUnseen) continue;
        layer[a] = layer[b] + 1;
        queue.push_back(a);
      }
    }
    while (seed < blocks && layer[seed] != kUnseen) ++seed;
    if (seed == blocks) break;
    layer[seed] = 0;
    queue.push_back(static_cast<std::uint32_t>(seed));
  }
  const std::uint32_t layers = blocks == 0 ? 1 : *std::max_element(layer.begin(), layer.end()) + 1;
  first_.assign(layers + 1, 0);
  for (std::uint32_t l : layer) ++first_[l + 1];
  for (std::uint32_t l = 0; l < layers; ++l) first_[l + 1] += first_[l];
  std::vector<std::uint32_t> fill(first_.begin(), first_.end() - 1);
  for (std::size_t b = 0; b < blocks; ++b)
    blocks_[fill[layer[b]]++] = static_cast<std::uint32_t>(b);
  next_.assign(layers, 0);
}

void WalkSchedule::anchor(Cycle t) {
  require(level(), "the walk's layers are not level where the engine starts");
  std::fill(next_.begin(), next_.end(), t);
  level_since_ = t;
  anchored_ = true;
}

void WalkSchedule::reset() {
  std::fill(next_.begin(), next_.end(), 0);
  anchored_ = false;
}

}  // namespace wormnet
