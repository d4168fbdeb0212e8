// Replays a message graph on one rank, closed loop: a message is issued (enters its source
// queue) at the first cycle when every dependency is satisfied, its computation is done and
// its earliest cycle has come; the engine delivers it and reports the delivery back here,
// which may issue the next. A message between two processes of one node never reaches the
// engine: it is delivered here, a fixed latency plus a cycle per flit after its issue. Each
// rank holds the state of the messages its nodes send and receive; nothing else.
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
  /// All three, concatenated (the checkpoint's form), and back. A local message's head
  /// "injection" is its issue (it waits in no queue); a step marker is delivered at its issue.
  [[nodiscard]] std::vector<std::uint64_t> flat() const;
  static WorkloadTimes from_flat(const std::vector<std::uint64_t>& v);
};

class ClosedLoop final : public MessageScript {
 public:
  /// `graph` must be valid (MessageGraph::check_message); `local_nodes` = this rank's nodes (global
  /// ids), `nodes` = all; `local_latency` >= 1 (cycles: the first flit of a local message; the
  /// default, kDefaultLocalLatency, is the configuration's: config/workload_config.hpp).
  ClosedLoop(const MessageGraph& graph, const std::vector<std::uint32_t>& local_nodes,
             std::uint32_t nodes, Cycle local_latency = kDefaultLocalLatency);

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
  /// A message due for issue at `cycle`, or (`delivery`) a local message delivered then:
  /// handled in (cycle, deliveries first, id) order, an order of keys that never goes back
  /// (an event at a cycle only makes later keys due: a local delivery is >= 1 cycle after its
  /// issue, a dependent has a larger id), so every node sees its events in the same order on
  /// any partition.
  struct Due {
    Cycle cycle;
    std::uint32_t id;
    bool delivery = false;
    bool operator>(const Due& o) const {
      if (cycle != o.cycle) return cycle > o.cycle;
      if (delivery != o.delivery) return o.delivery;
      return id > o.id;
    }
  };
  /// A dependency of message `id` satisfied at cycle `at`.
  void satisfy(std::uint32_t id, Cycle at);
  /// Message `id`, local, delivered at cycle `at`: its dependents may go.
  void deliver_local(std::uint32_t id, Cycle at);
  /// The cycle a local message issued at `issued` is delivered.
  [[nodiscard]] Cycle local_delivery(std::uint32_t id, Cycle issued) const;
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
  Cycle local_latency_;
  std::uint64_t delivered_count_ = 0;
  Cycle last_delivery_ = 0;
};

}  // namespace wormnet
