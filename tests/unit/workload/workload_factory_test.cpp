// The workload factory against hand-counted workloads: the grid it picks or parses, the
// messages a motif has on a network, the processes per node, and the limits it refuses
// naming the option.
#include "wormnet/workload/workload_factory.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../support/input_refusal.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/workload/motifs.hpp"
#include "wormnet/workload/npb_skeletons.hpp"

namespace wormnet {
namespace {

std::uint64_t network_messages(const MessageGraph& g) {
  std::uint64_t n = 0;
  for (const WorkloadMessage& m : g.messages()) n += m.marker() ? 0 : 1;
  return n;
}

using test::refusal;

TEST(WorkloadFactory, EveryKindNamesItsMotifOrSkeleton) {
  // The configuration's kinds (their names: config/workload_config.hpp) against the motifs and
  // benchmarks built, pair by pair as docs/workloads.md names them.
  const std::pair<WorkloadKind, Motif> motifs[] = {
      {WorkloadKind::kHalo2d, Motif::kHalo2d},
      {WorkloadKind::kHalo3d, Motif::kHalo3d},
      {WorkloadKind::kAllreduceRing, Motif::kAllreduceRing},
      {WorkloadKind::kAllreduceRd, Motif::kAllreduceRd},
      {WorkloadKind::kAllToAll, Motif::kAllToAll},
      {WorkloadKind::kSweep2d, Motif::kSweep2d}};
  for (const auto& [kind, motif] : motifs) {
    EXPECT_EQ(motif_of(kind), motif) << enum_name(kind);
    // The grid the command line checks is the one the motif reads.
    EXPECT_EQ(grid_dimensions(kind), grid_dimensions(motif)) << enum_name(kind);
  }
  const std::pair<WorkloadKind, NpbBenchmark> skeletons[] = {
      {WorkloadKind::kNpbLu, NpbBenchmark::kLu},
      {WorkloadKind::kNpbMg, NpbBenchmark::kMg},
      {WorkloadKind::kNpbCg, NpbBenchmark::kCg},
      {WorkloadKind::kNpbFt, NpbBenchmark::kFt},
      {WorkloadKind::kNpbIs, NpbBenchmark::kIs}};
  for (const auto& [kind, benchmark] : skeletons) EXPECT_EQ(npb_of(kind), benchmark);
  EXPECT_THROW(motif_of(WorkloadKind::kNpbLu), std::logic_error);
  EXPECT_THROW(motif_of(WorkloadKind::kTrace), std::logic_error);
  EXPECT_THROW(npb_of(WorkloadKind::kHalo2d), std::logic_error);
  EXPECT_THROW(npb_of(WorkloadKind::kNone), std::logic_error);
}

TEST(WorkloadFactory, Halo2dOnA4x4TorusHasTwoMessagesPerGridEdge) {
  const auto topo = make_topology("torus:4x4");
  WorkloadConfig s;
  s.kind = WorkloadKind::kHalo2d;
  s.iterations = 2;
  const Workload w = build_workload(s, *topo, 1);
  // 16 processes on the most nearly square grid, 4x4: 2 x 4 x 3 = 24 edges without
  // wraparound, a message each way, per iteration.
  EXPECT_EQ(w.grid, (std::vector<int>{4, 4}));
  EXPECT_EQ(w.node_of.size(), 16U);
  EXPECT_EQ(network_messages(w.graph), 2U * 2U * 24U);
}

TEST(WorkloadFactory, ProcessesPerNodeMultiplyTheProcesses) {
  const auto topo = make_topology("torus:4x2");
  WorkloadConfig s;
  s.kind = WorkloadKind::kAllToAll;
  s.processes_per_node = 2;
  const Workload w = build_workload(s, *topo, 1);
  // 2 x 8 = 16 processes, every ordered pair once: 16 x 15 = 240 messages, each node
  // holding two processes.
  EXPECT_EQ(w.node_of.size(), 16U);
  EXPECT_EQ(w.graph.size(), 240U);
  std::vector<int> per_node(8, 0);
  for (const std::uint32_t n : w.node_of) ++per_node.at(n);
  EXPECT_EQ(per_node, std::vector<int>(8, 2));
}

TEST(WorkloadFactory, RefusesAGridThatDoesNotHoldEveryProcess) {
  const auto topo = make_topology("torus:4x4");
  WorkloadConfig s;
  s.kind = WorkloadKind::kHalo2d;
  s.grid = "3x3";
  const InputError e = refusal([&] { build_workload(s, *topo, 1); });
  EXPECT_EQ(e.option(), "--grid");
  EXPECT_NE(e.allowed().find("a grid of 16 processes"), std::string::npos) << e.allowed();
}

TEST(WorkloadFactory, RefusesMoreMessagesThanTheLimitBeforeBuilding) {
  // All-to-all on 64 x 64 = 4096 nodes: 4096 x 4095 = 16,773,120 messages per iteration, within
  // the 20,000,000; two iterations, 33,546,240, are not.
  const auto topo = make_topology("torus:64x64");
  WorkloadConfig s;
  s.kind = WorkloadKind::kAllToAll;
  s.iterations = 2;
  const InputError e = refusal([&] { build_workload(s, *topo, 1); });
  EXPECT_EQ(e.option(), "--iterations");
  EXPECT_NE(e.allowed().find("sends up to 16773120 per iteration"), std::string::npos)
      << e.allowed();
  EXPECT_EQ(kMaxWorkloadMessages, 20'000'000U);
}

}  // namespace
}  // namespace wormnet
