// RankModel's side of the skewed walk (WalkSchedule says which layer simulates which cycle):
// the graph of the rank's blocks the layers are built from, and the opening and closing of
// the engine's cycles.
#include "wormnet/engine/rank_model.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet {

// The rank's blocks and the links between them, for the skewed walk's layers.
BlockGraph RankModel::block_graph() const {
  // The blocks linked to each block (links come in pairs, one each way: a block's list names
  // every block that sends it flits or credits). kNoLink counts as remote: skipped as well.
  BlockGraph g;
  std::vector<std::uint32_t> mine;
  const auto routers = static_cast<std::uint32_t>(bank_.routers());
  const std::size_t blocks = wheel_.blocks();
  const int shift = wheel_.block_shift();
  for (std::size_t b = 0; b < blocks; ++b) {
    mine.clear();
    const auto begin = static_cast<std::uint32_t>(blocks > 1 ? b << shift : 0);
    const std::uint32_t end =
        blocks > 1 ? std::min<std::uint32_t>(routers, begin + (1U << shift)) : routers;
    bool boundary = false;
    for (std::uint32_t r = begin; r < end; ++r) {
      for (int p = 0; p < ports_; ++p) {
        const std::uint32_t m = links_.link(r, p);
        if (!RankLinks::remote(m) && wheel_.block_of(m) != b) {
          mine.push_back(static_cast<std::uint32_t>(wheel_.block_of(m)));
        }
      }
      boundary = boundary || links_.boundary(r);
    }
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    g.adjacent.insert(g.adjacent.end(), mine.begin(), mine.end());
    g.first.push_back(static_cast<std::uint32_t>(g.adjacent.size()));
    g.boundary.push_back(boundary);
  }
  return g;
}

// Opens the engine's cycle t: the messages a script releases at t, and the deeper layers
// brought to where layer 0 can simulate t (and further, at a catch-up).
void RankModel::begin_cycle(Cycle t) {
  require(!cycle_open_, "step(t) or step_interior(t) before step_boundary() of the last cycle");
  if (!walk_.anchored()) {
    // The first cycle stepped, or the first after restore(): the layers are level at t.
    walk_.anchor(t);
    counters_.anchor(t, sources_.created_packets());
    // After a restore at t: the window's first cycle was stepped before it, counted (and the
    // checkpoint's counts are counted from cycle 0 then), or the counters open when it is.
    if (t > count_from_) count_opened_ = true;
  }
  now_ = t + 1;
  if (script_ != nullptr && script_->next_release() <= t) {
    released_.clear();
    script_->release(t, released_);
    for (const auto& [node, m] : released_) enqueue(node, m);
  }
  // A script hears of each delivery before it releases the next messages: then every layer
  // simulates t before the engine goes on.
  walk_.begin(t, script_ != nullptr,
              [this](std::size_t layer, Cycle c) { step_layer<WalkPass::kAll>(layer, c); });
}

// Closes the engine's cycle t: layer 0 has simulated it.
void RankModel::end_cycle(Cycle t) {
  walk_.end(t);
  counters_.settle(walk_.settled());
}

}  // namespace wormnet
