// An application workload as a graph of messages: each message has a source and a
// destination node, a size in flits, an iteration it belongs to, an earliest issue cycle and
// dependencies on earlier messages. A dependency is what the source process can observe
// itself: a message it received (satisfied when that message is delivered) or a message it
// sent earlier (satisfied when that one is issued, which orders a phase's sends). Motifs and
// traces both produce one; the closed loop replays it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/core/ids.hpp"

namespace wormnet {

struct WorkloadMessage {
  std::uint32_t source = 0;  ///< node id
  std::uint32_t dest = 0;    ///< node id, != source
  std::uint32_t flits = 0;   ///< size in flits, 1..65535 (one packet)
  std::uint32_t iteration = 0;
  Cycle after = 0;              ///< issued no earlier than this cycle
  std::uint32_t first_dep = 0;  ///< into MessageGraph::deps()
  std::uint32_t dep_count = 0;
};

class MessageGraph {
 public:
  /// The largest message (flits): one packet, whose length the engine holds in 16 bits.
  static constexpr std::uint32_t kMaxFlits = 65535;

  /// Appends a message (its id is the number of messages before it); `deps` are ids of
  /// earlier messages. Nothing is checked here: check_message() does it.
  std::uint32_t add(std::uint32_t source, std::uint32_t dest, std::uint32_t flits,
                    std::uint32_t iteration, Cycle after, std::span<const std::uint32_t> deps);

  /// "" when message `id` is valid on a network of `nodes` nodes, else its problem, naming
  /// the message: a node out of range, source = destination, a size out of 1..kMaxFlits, a
  /// dependency that is not an earlier message or that the source neither sent nor received.
  /// The trace reader checks every message it adds; the motifs build valid ones.
  [[nodiscard]] std::string check_message(std::uint32_t id, std::uint32_t nodes) const;

  [[nodiscard]] const std::vector<WorkloadMessage>& messages() const { return messages_; }
  [[nodiscard]] std::span<const std::uint32_t> deps_of(std::uint32_t id) const {
    const WorkloadMessage& m = messages_[id];
    return {deps_.data() + m.first_dep, m.dep_count};
  }
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(messages_.size()); }
  /// 1 + the largest iteration (0 for an empty graph).
  [[nodiscard]] std::uint32_t iterations() const;

  /// The sizes of the messages (flits): the run plan's packet lengths (bubble flow control
  /// reserves room for the longest).
  struct FlitRange {
    std::uint32_t shortest = 0;    ///< 0 for an empty graph
    std::uint32_t longest = 0;     ///< 0 for an empty graph
    std::uint32_t longest_id = 0;  ///< the first message of the longest size
  };
  [[nodiscard]] FlitRange flit_range() const;

 private:
  std::vector<WorkloadMessage> messages_;
  std::vector<std::uint32_t> deps_;
};

}  // namespace wormnet
