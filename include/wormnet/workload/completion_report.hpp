// The workload's metric, from the per-message times of a finished run: completion time (the
// last delivery), per iteration and in total, and its breakdown along the critical path.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/workload/closed_loop.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

struct IterationTimes {
  Cycle start = 0;             ///< first issue of a message of the iteration
  Cycle end = 0;               ///< last delivery of a message of the iteration
  std::uint64_t messages = 0;  ///< every message of the iteration (local ones and markers too)
  std::uint64_t flits = 0;
  /// Cycles from issue to head injection, mean over the iteration's messages that cross the
  /// network (0 when none does).
  double mean_queueing = 0;
  double mean_network = 0;  ///< cycles from head injection to tail delivery, mean as above
  Cycle max_network = 0;
};

struct CompletionReport {
  bool complete = false;  ///< every message delivered
  Cycle completion = 0;   ///< cycle of the last delivery
  std::vector<IterationTimes> iterations;
  /// The critical path: from the last delivered message back through the dependency that
  /// issued each message last (ids, first message first). Its cycles split exactly:
  /// completion = wait + compute + queueing + network + local, where compute is the path's
  /// messages' computation, wait what neither it nor a dependency explains (earliest-issue
  /// times, a release at a cycle boundary), queueing the source-queue time and network the
  /// head-injection-to-delivery time of the path's received messages that crossed the
  /// network, local the copy time of those that stayed within a node.
  std::vector<std::uint32_t> critical_path;
  Cycle path_wait = 0;
  Cycle path_compute = 0;
  Cycle path_queueing = 0;
  Cycle path_network = 0;
  Cycle path_local = 0;
};

/// `times` summed over ranks (every entry known).
CompletionReport report_completion(const MessageGraph& graph, const WorkloadTimes& times);

}  // namespace wormnet
