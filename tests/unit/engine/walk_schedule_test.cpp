// The walk's schedule on toy graphs of blocks (no router): the layers against hand-worked
// breadth-first distances, and the cycles each layer simulates against the rules of the
// skewed walk (each cycle once and in order, never before its adjacent layers simulated the
// cycle before, a lag of at most min(k, skew - 1), level whenever the engine reads).
#include "wormnet/engine/walk_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace wormnet {
namespace {

/// Blocks 0..n-1 joined by `links` (each pair both ways); `boundary`: blocks with a link to
/// another rank.
BlockGraph graph(std::uint32_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                 const std::vector<std::uint32_t>& boundary) {
  std::vector<std::vector<std::uint32_t>> adjacent(n);
  for (const auto& [a, b] : links) {
    adjacent[a].push_back(b);
    adjacent[b].push_back(a);
  }
  BlockGraph g;
  for (std::uint32_t b = 0; b < n; ++b) {
    std::sort(adjacent[b].begin(), adjacent[b].end());
    g.adjacent.insert(g.adjacent.end(), adjacent[b].begin(), adjacent[b].end());
    g.first.push_back(static_cast<std::uint32_t>(g.adjacent.size()));
    g.boundary.push_back(std::find(boundary.begin(), boundary.end(), b) != boundary.end());
  }
  return g;
}

std::vector<std::vector<std::size_t>> layers_of(const WalkSchedule& w) {
  std::vector<std::vector<std::size_t>> out(w.layers());
  for (std::size_t k = 0; k < w.layers(); ++k) {
    for (std::size_t i = w.layer_begin(k); i < w.layer_end(k); ++i) out[k].push_back(w.block(i));
  }
  return out;
}

using Layers = std::vector<std::vector<std::size_t>>;

TEST(WalkSchedule, LayersAreTheDistancesFromTheBoundaryBlocks) {
  // A path 0-1-2-3-4.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> path{{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  EXPECT_EQ(layers_of(WalkSchedule(graph(5, path, {0}), 4)), (Layers{{0}, {1}, {2}, {3}, {4}}));
  EXPECT_EQ(layers_of(WalkSchedule(graph(5, path, {2}), 4)), (Layers{{2}, {1, 3}, {0, 4}}));
  EXPECT_EQ(layers_of(WalkSchedule(graph(5, path, {0, 4}), 4)), (Layers{{0, 4}, {1, 3}, {2}}));
  // Two parts, 0-1 and 2-3, one with a remote link at 3: the other starts from its lowest
  // block.
  EXPECT_EQ(layers_of(WalkSchedule(graph(4, {{0, 1}, {2, 3}}, {3}), 4)), (Layers{{0, 3}, {1, 2}}));
  // No remote link (one rank): from block 0.
  EXPECT_EQ(layers_of(WalkSchedule(graph(3, {{0, 1}, {1, 2}}, {}), 4)), (Layers{{0}, {1}, {2}}));
  // The level walk: one layer, the blocks in index order, whatever the links.
  EXPECT_EQ(layers_of(WalkSchedule(graph(5, path, {2}), 1)), (Layers{{0, 1, 2, 3, 4}}));
  EXPECT_EQ(layers_of(WalkSchedule(3)), (Layers{{0, 1, 2}}));
}

/// Drives `w` through the engine's cycles 0..cycles-1 (layer 0 stepped by the engine after
/// begin()), reading the state (set_level_at) at the cycles of `reads`, and checks every
/// step against the rules. Returns the most cycles a layer lagged behind layer 0.
Cycle drive(WalkSchedule& w, Cycle cycles, const std::vector<Cycle>& reads) {
  const std::size_t n = w.layers();
  std::vector<Cycle> done(n, 0);  // cycles each layer simulated, as the steps tell
  const auto step = [&](std::size_t k, Cycle c) {
    EXPECT_EQ(c, done[k]) << "layer " << k << " skipped or repeated a cycle";
    if (k > 0) {
      EXPECT_GE(done[k - 1], c) << "layer " << k << " ran ahead of layer " << k - 1;
    }
    if (k + 1 < n) {
      EXPECT_GE(done[k + 1], c) << "layer " << k << " ran ahead of layer " << k + 1;
    }
    ++done[k];
  };
  Cycle lag = 0;
  std::size_t read = 0;
  for (Cycle t = 0; t < cycles; ++t) {
    if (read < reads.size() && t == 0) w.set_level_at(reads[read]);
    if (t == 0) w.anchor(0);
    w.begin(t, false, step);
    step(0, t);
    w.end(t);
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_EQ(w.next(k), done[k]);
      lag = std::max(lag, done[0] - done[k]);
      EXPECT_LE(done[0] - done[k], std::min<Cycle>(k, w.skew() - 1)) << "layer " << k;
    }
    if (read < reads.size() && t + 1 == reads[read]) {
      EXPECT_TRUE(w.level()) << "the engine reads after cycle " << t;
      EXPECT_EQ(w.settled(), t + 1);
      if (++read < reads.size()) w.set_level_at(reads[read]);
    }
  }
  return lag;
}

TEST(WalkSchedule, LayersLagAtMostTheirDepthAndTheSkewAndAreLevelWhenRead) {
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> path{{0, 1}, {1, 2}, {2, 3},
                                                                  {3, 4}, {4, 5}, {5, 6}};
  for (Cycle skew : {2U, 3U, 4U, 7U}) {
    WalkSchedule w(graph(7, path, {0}), skew);
    ASSERT_EQ(w.layers(), 7U);
    // Reads far apart (the lag builds up) and on consecutive cycles (no lag at all).
    const Cycle lag = drive(w, 60, {25, 26, 27, 50});
    EXPECT_EQ(lag, std::min<Cycle>(6, skew - 1)) << "skew " << skew;
  }
  // A read after every cycle: level throughout.
  WalkSchedule every(graph(7, path, {0}), 4);
  std::vector<Cycle> reads;
  for (Cycle t = 1; t <= 20; ++t) reads.push_back(t);
  EXPECT_EQ(drive(every, 20, reads), 0U);
}

TEST(WalkSchedule, ALevelWalkNeverLagsAndARestartAnchorsAnew) {
  WalkSchedule w(4);
  EXPECT_EQ(drive(w, 10, {100}), 0U);
  EXPECT_TRUE(w.level());
  w.reset();
  EXPECT_FALSE(w.anchored());
  w.anchor(37);
  EXPECT_TRUE(w.anchored());
  EXPECT_EQ(w.next(0), 37U);
}

}  // namespace
}  // namespace wormnet
