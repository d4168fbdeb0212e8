// An application workload as a graph of messages: each message has a source and a
// destination node, a size in flits, an iteration it belongs to, an earliest issue cycle, a
// compute time and dependencies on earlier messages. A dependency is what the source process
// can observe itself: a message it received (satisfied when that message is delivered) or a
// message it sent earlier (satisfied when that one is issued, which orders a phase's sends).
// A message whose source and destination are the same node runs between two processes of
// that node (several processes per node): it never enters the network, its sender copies it
// (it is satisfied when delivered, for its sender too), and one of 0 flits marks the end of a
// step that sends nothing. Motifs and traces both produce one; the closed loop replays it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/config/workload_config.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

struct WorkloadMessage {
  std::uint32_t source = 0;  ///< node id
  std::uint32_t dest = 0;    ///< node id; = source: a local message (two processes of a node)
  std::uint32_t flits = 0;   ///< size in flits, 1..65535 (one packet); 0: a step marker (local)
  std::uint32_t iteration = 0;
  Cycle after = 0;              ///< issued no earlier than this cycle
  std::uint32_t first_dep = 0;  ///< into MessageGraph::deps()
  std::uint32_t dep_count = 0;
  /// Cycles of computation between the last dependency satisfied (cycle 0 without any) and
  /// the issue: the message is issued at max(after, that cycle + compute).
  std::uint32_t compute = 0;

  [[nodiscard]] bool local() const { return source == dest; }
  [[nodiscard]] bool marker() const { return flits == 0; }
};

class MessageGraph {
 public:
  /// The largest message (flits) and the longest computation before one (cycles): the
  /// configuration's limits (config/workload_config.hpp gives their reasons).
  static constexpr std::uint32_t kMaxFlits = kMaxMessageFlits;
  static constexpr std::uint32_t kMaxCompute = kMaxStepCompute;

  /// Appends a message (its id is the number of messages before it); `deps` are ids of
  /// earlier messages. Nothing is checked here: check_message() does it.
  std::uint32_t add(std::uint32_t source, std::uint32_t dest, std::uint32_t flits,
                    std::uint32_t iteration, Cycle after, std::span<const std::uint32_t> deps,
                    std::uint32_t compute = 0);

  /// "" when message `id` is valid on a network of `nodes` nodes, else its problem, naming
  /// the message: a node out of range, a size out of 1..kMaxFlits (0 only for a local
  /// message: a step marker), a computation above kMaxCompute, a dependency that is not an
  /// earlier message or that the source neither sent nor received. With `local_allowed`
  /// false a message to its own node is refused too (the trace format without compute).
  /// The trace reader checks every message it adds; the motifs build valid ones.
  [[nodiscard]] std::string check_message(std::uint32_t id, std::uint32_t nodes,
                                          bool local_allowed = true) const;

  [[nodiscard]] const std::vector<WorkloadMessage>& messages() const { return messages_; }
  [[nodiscard]] std::span<const std::uint32_t> deps_of(std::uint32_t id) const {
    const WorkloadMessage& m = messages_[id];
    return {deps_.data() + m.first_dep, m.dep_count};
  }
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(messages_.size()); }
  /// 1 + the largest iteration (0 for an empty graph).
  [[nodiscard]] std::uint32_t iterations() const;

  /// Whether dependency `dep` of a message sent from node `source` is one it received
  /// (satisfied at its delivery) rather than one it sent to another node (at its issue). A
  /// local message counts as received: its sender copies it, so its delivery ends the send.
  [[nodiscard]] bool received_by(std::uint32_t dep, std::uint32_t source) const {
    return messages_[dep].dest == source;
  }

  /// What the graph holds besides messages over the network: local messages (between the
  /// processes of a node), step markers, computation.
  struct Kinds {
    std::uint64_t network = 0;  ///< messages between two nodes
    std::uint64_t local = 0;    ///< messages within a node, of 1 flit or more
    std::uint64_t markers = 0;  ///< steps that send nothing (0 flits, within a node)
    std::uint64_t compute = 0;  ///< cycles of computation, summed over the messages
  };
  [[nodiscard]] Kinds kinds() const;

  /// The sizes of the messages that cross the network (flits): the run plan's packet
  /// lengths (bubble flow control reserves room for the longest).
  struct FlitRange {
    std::uint32_t shortest = 0;    ///< 0 when no message crosses the network
    std::uint32_t longest = 0;     ///< 0 when no message crosses the network
    std::uint32_t longest_id = 0;  ///< the first message of the longest size
  };
  [[nodiscard]] FlitRange flit_range() const;

 private:
  std::vector<WorkloadMessage> messages_;
  std::vector<std::uint32_t> deps_;
};

}  // namespace wormnet
