// A closed-loop workload built from its description: a motif or NPB skeleton placed on the
// nodes by a process mapping, or a trace read from its file; its limits (processes, messages,
// message sizes, computation) checked before and after building, InputError naming the
// command line's option. The message counts per iteration are the motifs' and skeletons'
// own (motifs.hpp, npb_skeletons.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/core/text_input.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

/// The most messages a workload may have: the per-message state of every rank (about 100
/// bytes each) stays within a few GB.
inline constexpr std::uint64_t kMaxWorkloadMessages = 20'000'000;

/// What a workload is (`wormnet run --workload NAME` and the options that shape it).
struct WorkloadSpec {
  std::string name;   ///< a motif, an NPB skeleton or "trace"; "" = none (open-loop traffic)
  std::string trace;  ///< the trace file (name "trace")
  std::uint64_t iterations = 1;
  int message_size = 16;  ///< flits of every motif message
  std::string grid;       ///< process grid AxB or AxBxC ("" = the most nearly square)
  std::string mapping = "linear";
  std::uint64_t processes_per_node = 1;
  std::uint64_t compute_cycles = 0;  ///< cycles of computation per motif step
  double compute_rate = 0;           ///< NPB operations per cycle (0: none)
  std::string npb_class = "C";
  std::uint64_t npb_scale = 1;  ///< NPB sizes and operations divided by this
  [[nodiscard]] bool is_trace() const { return name == "trace"; }
  [[nodiscard]] bool is_npb() const;
};

/// The message graph on a topology with what produced it.
struct Workload {
  MessageGraph graph;
  std::vector<int> grid;               ///< process grid (motifs, NPB); empty for a trace
  std::vector<std::uint32_t> node_of;  ///< node of each process (motifs, NPB)
};

/// A process grid "AxB" (dims 2) or "AxBxC" (dims 3) of whole numbers >= 1; InputError
/// naming --grid otherwise.
std::vector<int> parse_grid(const std::string& text, int dims);

/// Builds the motif or NPB skeleton (its grid against the process count, its mapping with
/// `seed`) or reads the trace. InputError naming the option for a grid or process count that
/// does not fit, a mapping the topology cannot take, a malformed trace, a workload too large,
/// a message too long or a computation too long; Interrupted when `stop` ended the reading of
/// the trace.
Workload build_workload(const WorkloadSpec& w, const Topology& topo, std::uint64_t seed,
                        const StopCheck& stop = {});

}  // namespace wormnet
