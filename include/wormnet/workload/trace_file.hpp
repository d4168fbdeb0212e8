// The workload trace format: a CSV file with one message per line (docs/workloads.md):
//
//   # comments and blank lines are skipped
//   id,source,destination,flits,after,iteration,depends
//   0,0,1,16,0,0,
//   1,1,0,16,0,0,
//   2,0,1,16,0,1,1
//
// id = 0, 1, 2, ... in file order; source and destination are node ids; flits the message's
// size; after the earliest cycle it may be issued; iteration a label the report groups by
// (below the number of messages); depends the ids of earlier messages it waits for,
// separated by spaces (received by its source: waits for their delivery; sent by its source:
// waits for their issue).
//
// A second header adds an eighth column, compute (cycles between the last dependency and
// the issue), and with it messages within a node (source = destination: between two of its
// processes; 0 flits: a step marker):
//
//   id,source,destination,flits,after,iteration,depends,compute
//   0,0,1,16,0,0,,100
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "wormnet/core/text_input.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

/// The header line every trace starts with (after comments).
inline constexpr const char* kTraceHeader = "id,source,destination,flits,after,iteration,depends";
/// The header of a trace with computation and messages within a node (eight columns).
inline constexpr const char* kTraceHeaderCompute =
    "id,source,destination,flits,after,iteration,depends,compute";

/// What a trace may hold (docs/workloads.md), each refused at the line that crosses it. Every
/// structure a trace sizes follows from these: per message the graph, the closed loop's
/// state, the times and the results file's rows (about 200 bytes in all); per dependency 8
/// bytes (the graph's list and the closed loop's reverse list); per iteration label one row
/// of the completion report, labels being below the message count.
struct TraceLimits {
  std::size_t max_line = 1'000'000;              ///< characters per line
  std::uint32_t max_messages = 20'000'000;       ///< as many as a motif's workload may have
  std::uint64_t max_dependencies = 200'000'000;  ///< in all; 10 per message at the most messages
};

/// Reads a trace for a network of `nodes` nodes (a regular file: text_input.hpp). InputError
/// naming `option`, the file and the line for anything malformed or beyond `limits` (and for
/// a message that fails MessageGraph::check_message); Interrupted when `stop` says so
/// (asked between reads of the file).
MessageGraph read_trace(const std::string& path, std::uint32_t nodes, const std::string& option,
                        const StopCheck& stop = {}, const TraceLimits& limits = {});

/// Writes `graph` as a trace into the file `path` (created, or emptied first), with seven
/// columns when it has no computation and no message within a node (as wormnet wrote every
/// trace before), else with eight (kTraceHeaderCompute): the caller
/// names the partial file of a claimed output and publishes it (io/output_file.hpp, which
/// also checks the path). OutputError naming the file when it cannot be written completely.
void write_trace(const MessageGraph& graph, const std::string& path);

}  // namespace wormnet
