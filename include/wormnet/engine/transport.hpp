// Carries the flits and credits that cross between ranks at the end of each window. The
// model only fills outboxes; a transport moves them. One rank needs none (NullTransport).
#pragma once

#include "wormnet/engine/rank_model.hpp"

namespace wormnet {

class Transport {
 public:
  virtual ~Transport() = default;
  /// Sends every outbox of `model` to its peer and hands what the peers sent to
  /// model.receive(). Called by all ranks after each window of at most lookahead cycles.
  virtual void exchange(RankModel& model) = 0;
};

/// The transport of a one-rank run: nothing ever crosses.
class NullTransport final : public Transport {
 public:
  void exchange(RankModel& /*model*/) override {}
};

}  // namespace wormnet
