// `wormnet run --workload ...`: the options of closed-loop application workloads (motifs and
// trace replay; docs/workloads.md), their rules, and the message graph they describe.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "wormnet/core/text_input.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/workload/completion_report.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet::cli {

struct WorkloadOptions {
  std::string name;   ///< --workload: a motif, an NPB skeleton or "trace"; "" = open-loop traffic
  std::string trace;  ///< --trace (with --workload trace)
  std::uint64_t iterations = 1;  ///< --iterations
  int message_size = 16;         ///< --message-size, flits
  std::string grid;              ///< --grid AxB or AxBxC ("" = the most nearly square)
  std::string mapping = "linear";
  std::string write_trace;               ///< --write-trace: the workload's messages as a trace file
  std::uint64_t processes_per_node = 1;  ///< --processes-per-node
  std::uint64_t local_latency = 4;       ///< --local-latency, cycles (ClosedLoop's default)
  std::uint64_t compute_cycles = 0;      ///< --compute-cycles: per motif step
  double compute_rate = 0;               ///< --compute-rate: NPB operations per cycle (0: none)
  std::string npb_class = "C";           ///< --npb-class
  std::uint64_t npb_scale = 1;           ///< --npb-scale
  [[nodiscard]] bool active() const { return !name.empty(); }
  [[nodiscard]] bool is_trace() const { return name == "trace"; }
  [[nodiscard]] bool is_npb() const;
};

/// Declares the workload options (group "Workload").
void add_workload_options(CLI::App& app, WorkloadOptions& w);

/// The rules that need no network: names, sizes, which options go together, and the
/// open-loop traffic options a workload refuses. InputError naming the option and its value
/// (`shown` gives the value of a given traffic option as the user wrote it).
void check_workload_options(const WorkloadOptions& w, const std::set<std::string>& given,
                            const std::function<std::string(const char*)>& shown);

/// The workload's keys of the effective configuration (TOML), "" without a workload.
std::string workload_toml(const WorkloadOptions& w);

/// The message graph on `topo` with what produced it.
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
Workload build_workload(const WorkloadOptions& w, const Topology& topo, std::uint64_t seed,
                        const StopCheck& stop = {});

/// The workload's packet lengths for the run plan: its shortest and longest message over the
/// network, the longest named by --message-size (a motif), by its id in the trace or by the
/// skeleton and --npb-scale.
MessageLengths workload_lengths(const Workload& w, const WorkloadOptions& o);

/// The lines `run` prints about a finished workload.
std::string describe_completion(const CompletionReport& r, const MessageGraph& g, double flit_rate);

}  // namespace wormnet::cli
