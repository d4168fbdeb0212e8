// The motifs' message graphs against their definitions (docs/workloads.md): message counts
// per iteration from the formulas, and who sends to whom from the definitions (grid
// neighbours, every ordered pair once, recursive-doubling partners), one process per node.
#include "wormnet/workload/motifs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

namespace wormnet {
namespace {

std::vector<std::uint32_t> one_per_node(std::uint32_t processes) {
  std::vector<std::uint32_t> node_of(processes);
  std::iota(node_of.begin(), node_of.end(), 0U);
  return node_of;
}

MessageGraph motif(Motif m, std::vector<int> grid, std::uint32_t iterations = 1) {
  MotifSpec spec;
  spec.motif = m;
  spec.iterations = iterations;
  spec.grid = std::move(grid);
  std::uint32_t processes = 1;
  for (int g : spec.grid) processes *= static_cast<std::uint32_t>(g);
  return make_motif(spec, one_per_node(processes));
}

/// Messages over the network (not step markers) of iteration `it`, as (source, dest) pairs.
std::multiset<std::pair<std::uint32_t, std::uint32_t>> sends(const MessageGraph& g,
                                                             std::uint32_t it = 0) {
  std::multiset<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const WorkloadMessage& m : g.messages()) {
    if (m.iteration == it && !m.marker()) out.emplace(m.source, m.dest);
  }
  return out;
}

/// Whether processes a and b of a grid (x fastest) differ by one in exactly one coordinate.
bool grid_neighbours(std::uint32_t a, std::uint32_t b, const std::vector<int>& grid) {
  int differing = 0;
  for (int d : grid) {
    const auto n = static_cast<std::uint32_t>(d);
    const int delta = static_cast<int>(a % n) - static_cast<int>(b % n);
    if (delta != 0) {
      if (std::abs(delta) != 1) return false;
      ++differing;
    }
    a /= n;
    b /= n;
  }
  return differing == 1;
}

TEST(Motifs, Halo2dSendsOnceToEachGridNeighbour) {
  for (const std::vector<int>& grid : {std::vector<int>{4, 3}, {5, 1}, {2, 2}, {7, 6}}) {
    const int a = grid[0];
    const int b = grid[1];
    const MessageGraph g = motif(Motif::kHalo2d, grid, 3);
    const auto s = sends(g, 1);
    EXPECT_EQ(s.size(), static_cast<std::size_t>(2 * (2 * a * b - a - b))) << a << "x" << b;
    for (const auto& [from, to] : s) EXPECT_TRUE(grid_neighbours(from, to, grid));
    // Every neighbour pair exactly once in each direction.
    const std::set<std::pair<std::uint32_t, std::uint32_t>> distinct(s.begin(), s.end());
    EXPECT_EQ(distinct.size(), s.size());
    EXPECT_EQ(g.iterations(), 3U);
  }
}

TEST(Motifs, Halo3dSendsOnceToEachGridNeighbour) {
  const std::vector<int> grid{3, 4, 2};
  const MessageGraph g = motif(Motif::kHalo3d, grid);
  const auto s = sends(g);
  // Directed neighbour pairs: 2 (A-1)BC + 2 A(B-1)C + 2 AB(C-1).
  EXPECT_EQ(s.size(), static_cast<std::size_t>(2 * (2 * 4 * 2 + 3 * 3 * 2 + 3 * 4 * 1)));
  for (const auto& [from, to] : s) EXPECT_TRUE(grid_neighbours(from, to, grid));
}

TEST(Motifs, Sweep2dSendsDownstreamOnly) {
  const std::vector<int> grid{5, 3};
  const MessageGraph g = motif(Motif::kSweep2d, grid, 2);
  for (std::uint32_t it = 0; it < 2; ++it) {
    const auto s = sends(g, it);
    EXPECT_EQ(s.size(), static_cast<std::size_t>((5 - 1) * 3 + 5 * (3 - 1)));
    // To (x+1, y) or (x, y+1): the destination is one or five processes further.
    for (const auto& [from, to] : s) EXPECT_TRUE(to == from + 1 || to == from + 5) << from;
  }
}

TEST(Motifs, AllreduceRingSendsToTheNextProcessAtEachOf2PMinus2Steps) {
  for (int p : {2, 5, 8}) {
    const auto s = sends(motif(Motif::kAllreduceRing, {p}));
    EXPECT_EQ(s.size(), static_cast<std::size_t>(2 * (p - 1) * p)) << p;
    for (const auto& [from, to] : s) EXPECT_EQ(to, (from + 1) % static_cast<std::uint32_t>(p));
  }
}

TEST(Motifs, AllreduceRdExchangesWithTheXorPartners) {
  // A power of two: log2(P) steps, partner p xor 2^k.
  const auto s8 = sends(motif(Motif::kAllreduceRd, {8}));
  EXPECT_EQ(s8.size(), 8U * 3U);
  for (const auto& [from, to] : s8) {
    const std::uint32_t x = from ^ to;
    EXPECT_TRUE(x == 1 || x == 2 || x == 4) << from << "->" << to;
  }
  // P = 6: P2 = 4, R = 2; the extra processes 4 and 5 fold into 0 and 1 and get the result
  // back: P2 log2(P2) + 2R = 8 + 4 messages.
  const auto s6 = sends(motif(Motif::kAllreduceRd, {6}));
  EXPECT_EQ(s6.size(), 12U);
  EXPECT_EQ(s6.count({4, 0}), 1U);
  EXPECT_EQ(s6.count({5, 1}), 1U);
  EXPECT_EQ(s6.count({0, 4}), 1U);
  EXPECT_EQ(s6.count({1, 5}), 1U);
}

TEST(Motifs, AllToAllSendsEveryOrderedPairOnce) {
  const int p = 7;
  const auto s = sends(motif(Motif::kAllToAll, {p}, 2), 1);
  EXPECT_EQ(s.size(), static_cast<std::size_t>(p * (p - 1)));
  const std::set<std::pair<std::uint32_t, std::uint32_t>> distinct(s.begin(), s.end());
  EXPECT_EQ(distinct.size(), s.size());
  for (const auto& [from, to] : s) EXPECT_NE(from, to);
}

TEST(Motifs, EveryMotifBuildsAValidGraph) {
  const std::map<Motif, std::vector<int>> grids{
      {Motif::kHalo2d, {4, 3}},   {Motif::kHalo3d, {2, 3, 2}}, {Motif::kAllreduceRing, {6}},
      {Motif::kAllreduceRd, {7}}, {Motif::kAllToAll, {5}},     {Motif::kSweep2d, {3, 4}}};
  for (const auto& [m, grid] : grids) {
    const MessageGraph g = motif(m, grid, 2);
    std::uint32_t nodes = 1;
    for (int d : grid) nodes *= static_cast<std::uint32_t>(d);
    for (std::uint32_t id = 0; id < g.size(); ++id) {
      EXPECT_EQ(g.check_message(id, nodes), "") << static_cast<int>(m) << " message " << id;
    }
  }
}

TEST(Motifs, BalancedGridIsTheMostNearlyCubicLargestFirst) {
  EXPECT_EQ(balanced_grid(96, 2), (std::vector<int>{12, 8}));  // the header's example
  EXPECT_EQ(balanced_grid(64, 3), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(balanced_grid(7, 2), (std::vector<int>{7, 1}));  // a prime: a line
  EXPECT_EQ(balanced_grid(36, 2), (std::vector<int>{6, 6}));
}

TEST(Motifs, MessagesPerIterationAreBoundedByHandCountedFormulas) {
  // Hand-counted: halo2d on 12 processes 2 x 2 x 12 = 48; halo3d on 8, 2 x 3 x 8 = 48; sweep2d
  // on 6, 12; the ring on 4, 2 x 3 x 4 = 24; recursive doubling on 5, 64 x 5 = 320; all-to-all
  // on 5, 5 x 4 = 20; computing steps add a marker per process.
  EXPECT_EQ(motif_messages_per_iteration(Motif::kHalo2d, 12, false), 48U);
  EXPECT_EQ(motif_messages_per_iteration(Motif::kHalo3d, 8, false), 48U);
  EXPECT_EQ(motif_messages_per_iteration(Motif::kSweep2d, 6, false), 12U);
  EXPECT_EQ(motif_messages_per_iteration(Motif::kAllreduceRing, 4, false), 24U);
  EXPECT_EQ(motif_messages_per_iteration(Motif::kAllreduceRd, 5, false), 320U);
  EXPECT_EQ(motif_messages_per_iteration(Motif::kAllToAll, 5, false), 20U);
  EXPECT_EQ(motif_messages_per_iteration(Motif::kAllToAll, 5, true), 25U);
  // 2^31 processes (the most a workload may have) do not overflow: 2 x (2^31 - 1) x 2^31.
  EXPECT_EQ(motif_messages_per_iteration(Motif::kAllreduceRing, std::uint64_t{1} << 31, false),
            ((std::uint64_t{1} << 31) - 1) << 32);
  // The graphs: the ring and all-to-all reach their bound, a 3 x 4 halo sends twice over each
  // of its 17 grid edges (3 x 3 along x, 2 x 4 along y): 34 of 48.
  EXPECT_EQ(sends(motif(Motif::kAllreduceRing, {4})).size(), 24U);
  EXPECT_EQ(sends(motif(Motif::kAllToAll, {5})).size(), 20U);
  EXPECT_EQ(sends(motif(Motif::kHalo2d, {3, 4})).size(), 34U);
}

}  // namespace
}  // namespace wormnet
