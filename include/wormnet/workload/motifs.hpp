// Bulk-synchronous communication motifs as message graphs, written over processes (0..P-1)
// and placed on nodes by a process-to-node map (several processes may share a node: their
// messages to each other stay within it). Every motif runs `iterations` times; a process's
// sends of one step wait for the receives that step depends on and for `compute` cycles after
// them, and its sends of one step go out in a fixed order (each waits for the previous one to
// be issued).
// Definitions: docs/workloads.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/config/workload_config.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

enum class Motif : std::uint8_t {
  kHalo2d,         ///< 5-point stencil on a 2-D process grid (no wraparound)
  kHalo3d,         ///< 7-point stencil on a 3-D process grid (no wraparound)
  kAllreduceRing,  ///< reduce-scatter + allgather around a ring: 2(P-1) steps
  kAllreduceRd,    ///< recursive doubling (non-powers of two fold the extra processes in)
  kAllToAll,       ///< every process to every other, shifted order
  kSweep2d,        ///< wavefront from process (0, 0) across a 2-D grid, pipelined iterations
};

/// The motif of a workload kind (config/workload_config.hpp, where its name is); kind must
/// be a motif (WorkloadConfig::is_motif()).
Motif motif_of(WorkloadKind kind);

/// Dimensions of the process grid a motif reads: 2 or 3, or 0 when it needs none.
int grid_dimensions(Motif m);

/// The most nearly cubic grid of `dims` dimensions with `processes` processes, largest
/// dimension first (96 processes in 2-D: 12x8).
std::vector<int> balanced_grid(std::uint32_t processes, int dims);

/// At most how many messages one iteration of motif `m` on `processes` processes has, step
/// markers included when the steps compute (`compute`): 2 x dims x P for a halo (every
/// process to each grid neighbour), 2P for a sweep, 2(P-1)P for the ring allreduce (2(P-1)
/// steps of P messages), 64P for recursive doubling (at most 64 rounds), P(P-1) for
/// all-to-all, plus P markers with computation. Bounds the workload before it is built (P
/// up to 2^31: no overflow in 64 bits).
std::uint64_t motif_messages_per_iteration(Motif m, std::uint64_t processes, bool compute);

struct MotifSpec {
  Motif motif = Motif::kHalo2d;
  std::uint32_t iterations = 1;
  std::uint32_t flits = 16;   ///< size of every message
  std::uint32_t compute = 0;  ///< cycles of computation of every step, before its sends
  /// Process grid (x fastest: process = x + A * (y + B * z)); its product is the number of
  /// processes. For motifs without a grid, one entry: the process count.
  std::vector<int> grid;
};

/// The motif's messages, process p sending from node node_of[p] (node_of.size() = number of
/// processes = product of spec.grid; a node may hold several).
MessageGraph make_motif(const MotifSpec& spec, std::span<const std::uint32_t> node_of);

}  // namespace wormnet
