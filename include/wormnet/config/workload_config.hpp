// The closed-loop application workload of a run (`wormnet run --workload ...`;
// docs/workloads.md), typed: what it is (a motif, an NPB skeleton or a trace), how its
// processes are placed and the numbers that shape it. The rules on these values alone are
// validate_workload() (config_validation.hpp); the ones that need the network are the workload
// factory's (workload/workload_factory.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/core/enum_names.hpp"

namespace wormnet {

/// What a run's messages are: open-loop traffic (kNone), a motif, an NPB skeleton or a trace.
enum class WorkloadKind : std::uint8_t {
  kNone,  ///< no workload: open-loop traffic (--traffic, --load)
  kAllreduceRd,
  kAllreduceRing,
  kAllToAll,
  kHalo2d,
  kHalo3d,
  kSweep2d,
  kNpbCg,
  kNpbFt,
  kNpbIs,
  kNpbLu,
  kNpbMg,
  kTrace,
};
/// The spellings of --workload, in the order the messages list them (the motifs, the NPB
/// skeletons, the trace); kNone's is "" (the option not given).
inline constexpr EnumName<WorkloadKind> kWorkloadKindNames[] = {
    {WorkloadKind::kNone, "", "no workload: open-loop traffic"},
    {WorkloadKind::kAllreduceRd, "allreduce-rd", "allreduce by recursive doubling"},
    {WorkloadKind::kAllreduceRing, "allreduce-ring", "reduce-scatter and allgather around a ring"},
    {WorkloadKind::kAllToAll, "alltoall", "every process to every other, shifted order"},
    {WorkloadKind::kHalo2d, "halo2d", "5-point stencil on a 2-D process grid"},
    {WorkloadKind::kHalo3d, "halo3d", "7-point stencil on a 3-D process grid"},
    {WorkloadKind::kSweep2d, "sweep2d", "wavefront across a 2-D process grid"},
    {WorkloadKind::kNpbCg, "npb-cg", "NPB CG: row reductions and transpose exchanges"},
    {WorkloadKind::kNpbFt, "npb-ft", "NPB FT: an all-to-all transpose per iteration"},
    {WorkloadKind::kNpbIs, "npb-is", "NPB IS: allreduce and all-to-all of keys"},
    {WorkloadKind::kNpbLu, "npb-lu", "NPB LU: pipelined wavefront sweeps, halo exchange"},
    {WorkloadKind::kNpbMg, "npb-mg", "NPB MG: multigrid V-cycle, 3-D periodic halos"},
    {WorkloadKind::kTrace, "trace", "the messages of a trace file (--trace)"},
};
constexpr std::span<const EnumName<WorkloadKind>> enum_names(WorkloadKind) {
  return kWorkloadKindNames;
}

/// Where a workload's processes run (--mapping; workload/process_mapping.hpp).
enum class ProcessMapping : std::uint8_t {
  kLinear,    ///< process p on node p / K (K processes per node)
  kRandom,    ///< block p / K on a seeded random permutation of the nodes
  kTopology,  ///< recursive bisection of the grid of blocks against the nodes' geometry
};
inline constexpr EnumName<ProcessMapping> kProcessMappingNames[] = {
    {ProcessMapping::kLinear, "linear", "process p on node p / K"},
    {ProcessMapping::kRandom, "random", "blocks on a random permutation of the nodes (--seed)"},
    {ProcessMapping::kTopology, "topology", "recursive bisection on the network's geometry"},
};
constexpr std::span<const EnumName<ProcessMapping>> enum_names(ProcessMapping) {
  return kProcessMappingNames;
}

/// The problem classes of the NPB skeletons (--npb-class), smallest first.
enum class NpbClass : std::uint8_t { kS, kW, kA, kB, kC };
/// The classes keep the benchmarks' own upper-case letters (the NPB reports' spelling).
inline constexpr EnumName<NpbClass> kNpbClassNames[] = {
    {NpbClass::kS, "S", "sample"},     {NpbClass::kW, "W", "workstation"},
    {NpbClass::kA, "A", "standard A"}, {NpbClass::kB, "B", "standard B"},
    {NpbClass::kC, "C", "standard C"},
};
constexpr std::span<const EnumName<NpbClass>> enum_names(NpbClass) {
  return kNpbClassNames;
}

/// Limits of the workload's values (validate_workload()).
inline constexpr std::uint64_t kMaxWorkloadIterations = 1'000'000;
/// Processes per node: as many as the cores of a large node.
inline constexpr std::uint64_t kMaxProcessesPerNode = 1024;
/// A local message's latency (cycles): up to 50 ms at the default 20 flits per us.
inline constexpr std::uint64_t kMaxLocalLatency = 1'000'000;
/// Operations per cycle a process may perform (a rate of more would be a typo).
inline constexpr double kMaxComputeRate = 1e9;
/// The divisor of the NPB classes' sizes.
inline constexpr std::uint64_t kMaxNpbScale = std::uint64_t{1} << 30;
/// The largest message (flits): one packet, whose length the engine holds in 16 bits.
inline constexpr std::uint32_t kMaxMessageFlits = 65535;
/// The longest computation before a message (cycles, 1e9: 50 s at the default 20 flits per
/// us): a chain of the most messages a workload may have, each after this much, stays far
/// below the simulator's cycle limit of 2^62.
inline constexpr std::uint32_t kMaxStepCompute = 1'000'000'000;

/// The latency of a message between two processes of one node, by default (cycles): it is
/// delivered this + flits - 1 cycles after its issue, as a copy at a flit per cycle
/// (ClosedLoop's default too).
inline constexpr std::uint64_t kDefaultLocalLatency = 4;

/// The workload and the options that shape it; kind kNone: none (open-loop traffic).
struct WorkloadConfig {
  WorkloadKind kind = WorkloadKind::kNone;  ///< --workload
  std::string trace;                        ///< --trace: the trace file (kind kTrace)
  std::uint64_t iterations = 1;             ///< --iterations
  int message_size = 16;                    ///< --message-size: flits of every motif message
  std::string grid;  ///< --grid: process grid AxB or AxBxC ("" = the most nearly square)
  ProcessMapping mapping = ProcessMapping::kLinear;  ///< --mapping
  std::uint64_t processes_per_node = 1;              ///< --processes-per-node
  /// --local-latency: cycles of a message within a node before its first flit arrives
  std::uint64_t local_latency = kDefaultLocalLatency;
  std::uint64_t compute_cycles = 0;   ///< --compute-cycles: per motif step
  double compute_rate = 0;            ///< --compute-rate: NPB operations per cycle (0: none)
  NpbClass npb_class = NpbClass::kC;  ///< --npb-class
  std::uint64_t npb_scale = 1;        ///< --npb-scale: NPB sizes and operations divided by this
  [[nodiscard]] bool active() const { return kind != WorkloadKind::kNone; }
  [[nodiscard]] bool is_trace() const { return kind == WorkloadKind::kTrace; }
  [[nodiscard]] bool is_npb() const {
    return kind >= WorkloadKind::kNpbCg && kind <= WorkloadKind::kNpbMg;
  }
  [[nodiscard]] bool is_motif() const { return active() && !is_trace() && !is_npb(); }
};

/// Dimensions of the process grid a workload reads (--grid): 2 (halo2d, sweep2d), 3 (halo3d),
/// or 0 when it reads none.
int grid_dimensions(WorkloadKind k);

/// A process grid "AxB" (dims 2) or "AxBxC" (dims 3) of whole numbers >= 1; InputError
/// naming --grid otherwise.
std::vector<int> parse_grid(const std::string& text, int dims);

}  // namespace wormnet
