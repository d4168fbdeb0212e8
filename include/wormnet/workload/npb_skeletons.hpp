// Skeletons of five NAS Parallel Benchmarks (NPB 3.3.1, MPI): LU, MG, CG, FT and IS as
// message graphs, their communication per iteration as the benchmarks' published description
// gives it (NAS technical reports RNR-94-007 and NAS-95-020, and the structure of the NPB 3.x
// MPI programs), with the computation between the messages from the operation counts the
// benchmarks report. Sizes are the class's (S, W, A, B, C) divided by a scale factor: the
// number and order of the messages stay the class's, the bytes of every message and the
// operations of every step shrink by the factor. Definitions: docs/workloads.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/config/workload_config.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

enum class NpbBenchmark : std::uint8_t {
  kLu,  ///< SSOR: 2-D pipelined wavefront sweeps both ways, then a two-deep halo exchange
  kMg,  ///< multigrid V-cycle: 3-D periodic halo exchanges on every level, final reductions
  kCg,  ///< conjugate gradient: row reductions, transpose exchanges, dot-product reductions
  kFt,  ///< 3-D FFT: an all-to-all transpose per iteration, then a checksum reduction
  kIs,  ///< integer sort: an allreduce of bucket counts, an all-to-all of counts and of keys
};

/// The benchmark of a workload kind (config/workload_config.hpp, where its name is: npb-lu,
/// npb-mg, npb-cg, npb-ft, npb-is); kind must be one (WorkloadConfig::is_npb()). The classes,
/// NpbClass, are the configuration's too.
NpbBenchmark npb_of(WorkloadKind kind);

/// The bytes of a flit: 16, the 128-bit flit of the Angara interconnect (its header flit).
inline constexpr std::uint32_t kNpbFlitBytes = 16;

struct NpbSpec {
  NpbBenchmark benchmark = NpbBenchmark::kLu;
  NpbClass size_class = NpbClass::kC;
  std::uint32_t iterations = 1;  ///< of the benchmark's main loop (CG: outer iterations)
  std::uint64_t scale = 1;       ///< bytes and operations divided by this (>= 1)
  /// Operations (the benchmark's own count: flops, keys for IS) a process performs per
  /// cycle; 0: no computation, communication alone.
  double rate = 0;
};

/// The benchmark's process grid for `processes` processes (x fastest): LU xdim x ydim, MG
/// px x py x pz, CG npcols x nprows, FT and IS one dimension.
std::vector<int> npb_grid(NpbBenchmark b, std::uint32_t processes);

/// "" when the benchmark runs class `c` on `processes` processes, else what it needs (a
/// power of two, at least 2; a grid point per process along every dimension; ...).
std::string npb_fits(NpbBenchmark b, NpbClass c, std::uint32_t processes);

/// Messages (step markers included) of the whole workload at most: a bound computed before
/// anything is built.
std::uint64_t npb_messages_bound(const NpbSpec& spec, std::uint32_t processes);

/// A skeleton's graph, with the extremes the command line checks against the graph's limits.
struct NpbWorkload {
  MessageGraph graph;
  std::uint64_t largest_flits = 0;    ///< of the messages (may exceed MessageGraph::kMaxFlits)
  std::uint64_t largest_compute = 0;  ///< cycles of one step (may exceed kMaxCompute)
};

/// The skeleton's messages, process p on node node_of[p] (node_of.size() = processes, which
/// npb_fits() accepts). Message sizes above kMaxFlits and computations above kMaxCompute are
/// clipped to one more than the limit: the caller refuses them (largest_*).
NpbWorkload make_npb(const NpbSpec& spec, std::span<const std::uint32_t> node_of);

}  // namespace wormnet
