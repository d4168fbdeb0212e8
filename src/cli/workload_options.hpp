// `wormnet run --workload ...`: the options of closed-loop application workloads (motifs and
// trace replay; docs/workloads.md), bound into SimConfig's WorkloadConfig
// (config/workload_config.hpp), and the rules on which go together; the rules on their values
// alone are validate_workload()'s, the workload itself is built by
// workload/workload_factory.hpp.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "wormnet/config/workload_config.hpp"
#include "wormnet/core/text_input.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/workload/completion_report.hpp"
#include "wormnet/workload/message_graph.hpp"
#include "wormnet/workload/workload_factory.hpp"

namespace wormnet::cli {

/// What the command line keeps of the workload beside WorkloadConfig: the names of --workload,
/// --mapping and --npb-class as written (read into the config's enums by
/// check_workload_options(), after the rules that come first: an option given without
/// --workload, or with a workload that does not read it, is refused as such, whatever its
/// value), and --write-trace, an output.
struct WorkloadOptions {
  std::string name;                                               ///< --workload ("" = none)
  std::string mapping = enum_name(WorkloadConfig{}.mapping);      ///< --mapping
  std::string npb_class = enum_name(WorkloadConfig{}.npb_class);  ///< --npb-class
  std::string write_trace;  ///< --write-trace: the workload's messages as a trace file
};

/// Declares the workload options (group "Workload"): the names into `text`, the numbers into
/// `w`.
void add_workload_options(CLI::App& app, WorkloadOptions& text, WorkloadConfig& w);

/// Reads the names of `text` into `w` (an unknown one refused with the names its table
/// allows) and checks which options go together: the options of another kind of workload,
/// the open-loop traffic options a workload refuses. InputError naming the option and its
/// value (`shown` gives the value of a given traffic option as the user wrote it). The values'
/// own rules follow in validate_values().
void check_workload_options(const WorkloadOptions& text, WorkloadConfig& w,
                            const std::set<std::string>& given,
                            const std::function<std::string(const char*)>& shown);

/// The workload's packet lengths for the run plan: its shortest and longest message over the
/// network, the longest named by --message-size (a motif), by its id in the trace or by the
/// skeleton and --npb-scale.
MessageLengths workload_lengths(const Workload& w, const WorkloadConfig& c);

/// The lines `run` prints about a finished workload.
std::string describe_completion(const CompletionReport& r, const MessageGraph& g, double flit_rate);

}  // namespace wormnet::cli
