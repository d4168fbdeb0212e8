#include "wormnet/workload/completion_report.hpp"

#include <algorithm>

#include "wormnet/core/error.hpp"

namespace wormnet {

CompletionReport report_completion(const MessageGraph& graph, const WorkloadTimes& times) {
  CompletionReport r;
  const std::vector<WorkloadMessage>& ms = graph.messages();
  const std::uint32_t n = graph.size();
  // One row per label up to the largest: the trace reader keeps labels below the message
  // count and the motifs number their iterations 0..I-1 (I <= messages), so the rows are no
  // more than the messages. A label beyond that is a bug here, not a 2^32-row allocation.
  require(graph.iterations() <= std::max<std::uint32_t>(n, 1),
          "workload: an iteration label at or above the number of messages");
  r.iterations.resize(graph.iterations());
  std::vector<std::uint8_t> started(r.iterations.size(), 0);
  r.complete = true;
  std::uint32_t last = n;
  std::vector<std::uint64_t> network(r.iterations.size(), 0);  // messages that crossed it
  for (std::uint32_t id = 0; id < n; ++id) {
    if (times.delivered[id] == 0 || times.injected[id] == 0 || times.issued[id] == 0) {
      r.complete = false;
      continue;
    }
    const Cycle issued = times.issued[id] - 1;
    const Cycle injected = times.injected[id] - 1;
    const Cycle delivered = times.delivered[id] - 1;
    IterationTimes& it = r.iterations[ms[id].iteration];
    if (!started[ms[id].iteration] || issued < it.start) it.start = issued;
    started[ms[id].iteration] = 1;
    it.end = std::max(it.end, delivered);
    ++it.messages;
    it.flits += ms[id].flits;
    if (!ms[id].local()) {
      ++network[ms[id].iteration];
      it.mean_queueing += static_cast<double>(injected - issued);
      it.mean_network += static_cast<double>(delivered - injected);
      it.max_network = std::max(it.max_network, delivered - injected);
    }
    if (last == n || delivered > times.delivered[last] - 1) last = id;
  }
  for (std::size_t k = 0; k < r.iterations.size(); ++k) {
    if (network[k] == 0) continue;
    r.iterations[k].mean_queueing /= static_cast<double>(network[k]);
    r.iterations[k].mean_network /= static_cast<double>(network[k]);
  }
  if (last == n || !r.complete) return r;
  r.completion = times.delivered[last] - 1;
  // Walk back: a message received on the path adds its queueing and network time (its copy
  // time when it stayed within a node); the dependency satisfied last (the first of equals)
  // issued it, its computation after; a predecessor that is an earlier send of the same
  // source to another node was issued before it and adds nothing. A message is issued at
  // max(after, ready + compute) or later (ready: the last dependency, 0 without any), so
  // issued - ready - compute >= 0 is wait.
  std::uint32_t id = last;
  bool received = true;
  while (true) {
    r.critical_path.push_back(id);
    const WorkloadMessage& m = ms[id];
    const Cycle issued = times.issued[id] - 1;
    if (received && m.local()) {
      r.path_local += times.delivered[id] - times.issued[id];
    } else if (received) {
      r.path_queueing += times.injected[id] - 1 - issued;
      r.path_network += times.delivered[id] - times.injected[id];
    }
    Cycle best = 0;
    std::uint32_t pred = n;
    bool pred_received = false;
    for (const std::uint32_t d : graph.deps_of(id)) {
      const bool is_receive = graph.received_by(d, m.source);
      const Cycle at = (is_receive ? times.delivered[d] : times.issued[d]) - 1;
      if (pred == n || at > best) {
        best = at;
        pred = d;
        pred_received = is_receive;
      }
    }
    require(issued >= best + m.compute, "workload: a message issued before its computation ended");
    r.path_compute += m.compute;
    r.path_wait += issued - best - m.compute;
    if (pred == n) break;
    id = pred;
    received = pred_received;
  }
  std::reverse(r.critical_path.begin(), r.critical_path.end());
  return r;
}

}  // namespace wormnet
