// Builds a workload's message graph over processes (private to src/workload: the motifs and
// the NPB skeletons). A process runs its steps in program order: a step computes once the
// receives it waits for have arrived and the process's previous step is done, then sends its
// messages one after the other (each waits for the previous one being issued, or delivered
// when it stays within the node: its sender copies it). Processes sit on nodes
// (node_of[process]); a message to a process of the same node is local.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "wormnet/workload/message_graph.hpp"

namespace wormnet::workload_detail {

/// One message of a step: to process `to`, `flits` long (>= 1).
struct Send {
  std::uint32_t to = 0;
  std::uint32_t flits = 0;
};

class GraphBuilder {
 public:
  explicit GraphBuilder(std::span<const std::uint32_t> node_of)
      : node_of_(node_of), last_(node_of.size(), kNone), carried_(node_of.size()) {}

  /// Process p's step in iteration `it`: `compute` cycles once `waits` (messages p received)
  /// have arrived and its previous step is done, then `sends` in order. Returns the sent
  /// messages' ids (same order). A step that sends nothing still ends after its computation:
  /// with computation it leaves a step marker (a message of 0 flits to p's own node, which
  /// p's next step waits for); without, its waits pass on to p's next step (waiting for
  /// them there is the same, max being associative).
  std::vector<std::uint32_t> step(std::uint32_t p, std::span<const Send> sends, std::uint32_t it,
                                  std::span<const std::uint32_t> waits, std::uint32_t compute) {
    std::vector<std::uint32_t> deps(carried_[p]);
    carried_[p].clear();
    deps.insert(deps.end(), waits.begin(), waits.end());
    std::vector<std::uint32_t> ids;
    if (sends.empty() && compute == 0) {
      carried_[p] = std::move(deps);
      return ids;
    }
    if (last_[p] != kNone) deps.push_back(last_[p]);
    if (sends.empty()) {
      last_[p] = graph_.add(node_of_[p], node_of_[p], 0, it, 0, deps, compute);
      return ids;
    }
    for (const Send& s : sends) {
      const std::uint32_t id =
          graph_.add(node_of_[p], node_of_[s.to], s.flits, it, 0, deps, ids.empty() ? compute : 0);
      last_[p] = id;
      ids.push_back(id);
      deps.assign(1, id);
    }
    return ids;
  }

  /// The same with every message `flits` long.
  std::vector<std::uint32_t> step(std::uint32_t p, std::span<const std::uint32_t> to,
                                  std::uint32_t flits, std::uint32_t it,
                                  std::span<const std::uint32_t> waits, std::uint32_t compute) {
    std::vector<Send> sends;
    for (const std::uint32_t q : to) sends.push_back(Send{q, flits});
    return step(p, sends, it, waits, compute);
  }

  [[nodiscard]] std::uint32_t processes() const {
    return static_cast<std::uint32_t>(node_of_.size());
  }
  MessageGraph take() { return std::move(graph_); }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::span<const std::uint32_t> node_of_;
  MessageGraph graph_;
  std::vector<std::uint32_t> last_;                  ///< [process]: its last message
  std::vector<std::vector<std::uint32_t>> carried_;  ///< [process]: waits of an empty step
};

}  // namespace wormnet::workload_detail
