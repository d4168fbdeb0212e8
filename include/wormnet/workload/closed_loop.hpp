// Replays a message graph on one rank, closed loop: a message is issued (enters its source
// queue) at the first cycle when every dependency is satisfied and its earliest cycle has
// come; the engine delivers it and reports the delivery back here, which may issue the next.
// Each rank holds the state of the messages its nodes send and receive; nothing else.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "wormnet/engine/message_script.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

/// Per message: the cycle it was issued, its head injected, its tail delivered, each stored
/// + 1 (0 = not yet, or not known on this rank). Summed over ranks (each entry is known on
/// exactly one), it does not depend on the partition: it is the workload's checkpoint and
/// the input of its report.
struct WorkloadTimes {
  std::vector<std::uint64_t> issued;
  std::vector<std::uint64_t> injected;
  std::vector<std::uint64_t> delivered;
  /// All three, concatenated (the checkpoint's form), and back.
  [[nodiscard]] std::vector<std::uint64_t> flat() const;
  static WorkloadTimes from_flat(const std::vector<std::uint64_t>& v);
};

class ClosedLoop final : public MessageScript {
 public:
  /// `graph` must be valid (MessageGraph::check_message); `local_nodes` = this rank's nodes (global
  /// ids), `nodes` = all.
  ClosedLoop(const MessageGraph& graph, const std::vector<std::uint32_t>& local_nodes,
             std::uint32_t nodes);

  [[nodiscard]] Cycle next_release() const override;
  void release(Cycle t, std::vector<std::pair<NodeId, Message>>& out) override;
  void delivered(const Packet& p, Cycle done) override;
  [[nodiscard]] std::uint64_t delivered_count() const override { return delivered_count_; }
  [[nodiscard]] std::uint64_t total() const override { return graph_.size(); }
  [[nodiscard]] Cycle last_delivery() const override { return last_delivery_; }
  [[nodiscard]] Released released() const override;

  /// What this rank knows (see WorkloadTimes).
  [[nodiscard]] const WorkloadTimes& times() const { return times_; }
  /// Continues from `all` (summed over the ranks of the run that saved it)
  /// : keeps this rank's part and re-derives what waits.
  void restore(const WorkloadTimes& all);

 private:
  struct Due {
    Cycle cycle;
    std::uint32_t id;
    bool operator>(const Due& o) const { return cycle != o.cycle ? cycle > o.cycle : id > o.id; }
  };
  /// Dependency `on` of message `id` satisfied at cycle `at`.
  void satisfy(std::uint32_t id, Cycle at);
  [[nodiscard]] bool local(std::uint32_t node) const { return local_[node] != 0; }

  const MessageGraph& graph_;
  std::vector<std::uint8_t> local_;        ///< [node]: on this rank
  std::vector<std::uint32_t> first_of_;    ///< [node]: index of its first message in by_source_
  std::vector<std::uint32_t> by_source_;   ///< message ids grouped by source, in id order
  std::vector<std::uint32_t> sequence_;    ///< [message]: its place among its source's
  std::vector<std::uint32_t> dependents_;  ///< ids of the messages depending on each one
  std::vector<std::uint32_t> first_dependent_;  ///< [message]: into dependents_ (size + 1)
  std::vector<std::uint32_t> waiting_;          ///< [message]: dependencies not yet satisfied
  std::vector<Cycle> ready_;                    ///< [message]: latest satisfaction so far
  std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;
  WorkloadTimes times_;
  std::uint64_t delivered_count_ = 0;
  Cycle last_delivery_ = 0;
};

}  // namespace wormnet
