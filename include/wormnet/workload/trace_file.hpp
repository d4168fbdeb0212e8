// The workload trace format: a CSV file with one message per line (docs/workloads.md):
//
//   # comments and blank lines are skipped
//   id,source,destination,flits,after,iteration,depends
//   0,0,1,16,0,0,
//   1,1,0,16,0,0,
//   2,0,1,16,0,1,1
//
// id = 0, 1, 2, ... in file order; source and destination are node ids; flits the message's
// size; after the earliest cycle it may be issued; iteration a label the report groups by;
// depends the ids of earlier messages it waits for, separated by spaces (received by its
// source: waits for their delivery; sent by its source: waits for their issue).
#pragma once

#include <string>

#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

/// The header line every trace starts with (after comments).
inline constexpr const char* kTraceHeader = "id,source,destination,flits,after,iteration,depends";

/// Reads a trace for a network of `nodes` nodes. InputError naming `option`, the file and
/// the line for anything malformed (and for a graph that fails MessageGraph::check).
MessageGraph read_trace(const std::string& path, std::uint32_t nodes, const std::string& option);

/// Writes `graph` as a trace into the file `path` (created, or emptied first): the caller
/// names the partial file of a claimed output and publishes it (io/output_file.hpp, which
/// also checks the path). OutputError naming the file when it cannot be written completely.
void write_trace(const MessageGraph& graph, const std::string& path);

}  // namespace wormnet
