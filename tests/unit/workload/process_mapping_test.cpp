// Processes per node: the blocks of K processes each mapping puts on a node, checked
// against the definitions (docs/workloads.md, "Mapping") on small tori.
#include "wormnet/workload/process_mapping.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

TEST(ProcessMapping, LinearPutsConsecutiveProcessesOnANode) {
  const auto topo = make_topology("torus:4x2");
  const std::vector<int> grid = {16};
  const std::vector<std::uint32_t> m = map_processes(ProcessMapping::kLinear, *topo, grid, 1, 2);
  ASSERT_EQ(m.size(), 16U);
  for (std::uint32_t p = 0; p < 16; ++p) EXPECT_EQ(m[p], p / 2);
}

TEST(ProcessMapping, RandomMovesBlocksWhole) {
  const auto topo = make_topology("torus:4x4");
  const std::vector<int> grid64 = {64};
  const std::vector<int> grid16 = {16};
  const std::vector<std::uint32_t> single =
      map_processes(ProcessMapping::kRandom, *topo, grid16, 7);
  const std::vector<std::uint32_t> four =
      map_processes(ProcessMapping::kRandom, *topo, grid64, 7, 4);
  // Block b (processes 4b..4b+3) goes where process b goes with one per node: the same
  // permutation of the nodes.
  for (std::uint32_t p = 0; p < 64; ++p) EXPECT_EQ(four[p], single[p / 4]);
  EXPECT_EQ(std::set<std::uint32_t>(four.begin(), four.end()).size(), 16U);
}

TEST(ProcessMapping, NodeBlockIsTheMostNearlyCubicBoxThatTiles) {
  const std::vector<int> g16x8 = {16, 8};
  EXPECT_EQ(node_block(g16x8, 4), (std::vector<int>{2, 2}));
  EXPECT_EQ(node_block(g16x8, 2), (std::vector<int>{2, 1}));  // grid of boxes 8x8, not 16x4
  EXPECT_EQ(node_block(g16x8, 8), (std::vector<int>{4, 2}));  // 4x2 and 2x4: boxes 4x4
  const std::vector<int> g4x4x8 = {4, 4, 8};
  // 2x1x2 (boxes 2x4x4) rather than 2x2x1 (boxes 2x2x8), and before 1x2x2.
  EXPECT_EQ(node_block(g4x4x8, 4), (std::vector<int>{2, 1, 2}));
  const std::vector<int> g6x5 = {6, 5};
  EXPECT_TRUE(node_block(g6x5, 4).empty());  // 4 does not divide 30
  EXPECT_EQ(node_block(g6x5, 10), (std::vector<int>{2, 5}));
  // Whenever K divides the product, a box exists (each prime power spread over the sides).
  for (int a = 1; a <= 12; ++a) {
    for (int b = 1; b <= 12; ++b) {
      for (std::uint32_t k = 1; k <= 24; ++k) {
        const std::vector<int> g = {a, b};
        const std::vector<int> box = node_block(g, k);
        if ((a * b) % static_cast<int>(k) != 0) {
          EXPECT_TRUE(box.empty());
          continue;
        }
        ASSERT_EQ(box.size(), 2U) << a << "x" << b << " " << k;
        EXPECT_EQ(a % box[0], 0);
        EXPECT_EQ(b % box[1], 0);
        EXPECT_EQ(static_cast<std::uint32_t>(box[0] * box[1]), k);
      }
    }
  }
  const std::vector<int> g3 = {3};
  EXPECT_EQ(node_block(g3, 1), (std::vector<int>{1}));
}

TEST(ProcessMapping, TopologyPutsABoxOnANodeAndBoxesOnTheTorus) {
  // An 8x4 grid of 32 processes on torus:4x2 with 4 per node: boxes of 2x2, a 4x2 grid of
  // boxes that lands on the torus one to one (box (X, Y) on node (X, Y)).
  const auto topo = make_topology("torus:4x2");
  const std::vector<int> grid = {8, 4};
  const std::vector<std::uint32_t> m = map_processes(ProcessMapping::kTopology, *topo, grid, 1, 4);
  std::map<std::uint32_t, int> per_node;
  for (std::uint32_t p = 0; p < 32; ++p) {
    const std::uint32_t x = p % 8;
    const std::uint32_t y = p / 8;
    const Coord c = topo->coords(NodeId(m[p]));
    EXPECT_EQ(static_cast<std::uint32_t>(c[0]), x / 2) << p;
    EXPECT_EQ(static_cast<std::uint32_t>(c[1]), y / 2) << p;
    ++per_node[m[p]];
  }
  EXPECT_EQ(per_node.size(), 8U);
  for (const auto& [node, count] : per_node) EXPECT_EQ(count, 4) << node;
}

TEST(ProcessMapping, OneProcessPerNodeIsAsBefore) {
  // K = 1: the same maps as the one-process mapping (linear: the identity).
  const auto topo = make_topology("torus:4x4");
  const std::vector<int> grid = {4, 4};
  const std::vector<std::uint32_t> m = map_processes(ProcessMapping::kTopology, *topo, grid, 1, 1);
  for (std::uint32_t p = 0; p < 16; ++p) {
    const Coord c = topo->coords(NodeId(m[p]));
    EXPECT_EQ(static_cast<std::uint32_t>(c[0]), p % 4);
    EXPECT_EQ(static_cast<std::uint32_t>(c[1]), p / 4);
  }
}

}  // namespace
}  // namespace wormnet
