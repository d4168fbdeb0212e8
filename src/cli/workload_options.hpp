// `wormnet run --workload ...`: the options of closed-loop application workloads (motifs and
// trace replay; docs/workloads.md) and their rules; the workload itself is built by
// workload/workload_factory.hpp.
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
#include "wormnet/workload/workload_factory.hpp"

namespace wormnet::cli {

struct WorkloadOptions {
  WorkloadSpec spec;        ///< --workload and the options that shape it (workload_factory.hpp)
  std::string write_trace;  ///< --write-trace: the workload's messages as a trace file
  std::uint64_t local_latency = 4;  ///< --local-latency, cycles (ClosedLoop's default)
  [[nodiscard]] bool active() const { return !spec.name.empty(); }
  [[nodiscard]] bool is_trace() const { return spec.is_trace(); }
  [[nodiscard]] bool is_npb() const { return spec.is_npb(); }
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

/// The workload's packet lengths for the run plan: its shortest and longest message over the
/// network, the longest named by --message-size (a motif), by its id in the trace or by the
/// skeleton and --npb-scale.
MessageLengths workload_lengths(const Workload& w, const WorkloadOptions& o);

/// The lines `run` prints about a finished workload.
std::string describe_completion(const CompletionReport& r, const MessageGraph& g, double flit_rate);

}  // namespace wormnet::cli
