// A closed-loop workload built from its configuration (WorkloadConfig,
// config/workload_config.hpp, with the rules on its values alone): a motif or NPB skeleton placed
// on the nodes by a process mapping, or a trace read from its file; its limits (processes,
// messages, message sizes, computation) checked before and after building, InputError naming the
// command line's option. The message counts per iteration are the motifs' and skeletons'
// own (motifs.hpp, npb_skeletons.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/config/workload_config.hpp"
#include "wormnet/core/text_input.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

/// The most messages a workload may have: the per-message state of every rank (about 100
/// bytes each) stays within a few GB.
inline constexpr std::uint64_t kMaxWorkloadMessages = 20'000'000;

/// The message graph on a topology with what produced it.
struct Workload {
  MessageGraph graph;
  std::vector<int> grid;               ///< process grid (motifs, NPB); empty for a trace
  std::vector<std::uint32_t> node_of;  ///< node of each process (motifs, NPB)
};

/// Builds the motif or NPB skeleton (its grid against the process count, its mapping with
/// `seed`) or reads the trace. InputError naming the option for a grid or process count that
/// does not fit, a mapping the topology cannot take, a malformed trace, a workload too large,
/// a message too long or a computation too long; Interrupted when `stop` ended the reading of
/// the trace.
Workload build_workload(const WorkloadConfig& w, const Topology& topo, std::uint64_t seed,
                        const StopCheck& stop = {});

}  // namespace wormnet
