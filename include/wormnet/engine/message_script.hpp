// Closed-loop traffic the engine drives for a layer above it (application workloads): the
// model asks it at every cycle for the messages due at its nodes, and tells it of every
// packet delivered to them. One object per rank, holding the state of that rank's nodes.
// Results stay identical on any rank count because everything a script decides about a node
// depends only on that node's deliveries and on time (docs/workloads.md, "Ranks").
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet {

class MessageScript {
 public:
  virtual ~MessageScript() = default;
  /// The earliest cycle at which a message of a local node is due (a large value when none).
  [[nodiscard]] virtual Cycle next_release() const = 0;
  /// Appends every message of a local node due at or before cycle t, in the order they enter
  /// their source queues: (source node, message created at t).
  virtual void release(Cycle t, std::vector<std::pair<NodeId, Message>>& out) = 0;
  /// A packet of the script was delivered to a local node at cycle `done` (its tail left the
  /// ejection channel).
  virtual void delivered(const Packet& p, Cycle done) = 0;
  /// Packets of the script delivered to this rank's nodes so far, and the script's total
  /// over all ranks: the run ends when the sum over ranks reaches the total.
  [[nodiscard]] virtual std::uint64_t delivered_count() const = 0;
  [[nodiscard]] virtual std::uint64_t total() const = 0;
  /// The latest delivery cycle on this rank so far (0 when none).
  [[nodiscard]] virtual Cycle last_delivery() const = 0;

  /// Messages of this rank's nodes released into their source queues so far, and their flits:
  /// every one is labelled (a script is measured whole).
  struct Released {
    std::uint64_t packets = 0;
    std::uint64_t flits = 0;
  };
  [[nodiscard]] virtual Released released() const = 0;
};

}  // namespace wormnet
