// Carries the flits and credits that cross between ranks at the end of each window. The
// model only fills outboxes; a transport moves them. One rank needs none (NullTransport).
//
// The exchange is split in two so that computing can overlap it: start() sends this
// window's outboxes and posts the receives; finish() waits and hands the peers' messages
// to the model. Between the two, a rank may step whatever does not depend on them (the
// routers without a remote link at the next window's first cycle).
#pragma once

#include "wormnet/engine/rank_model.hpp"
#include "wormnet/parallel/neighbor_exchange.hpp"

namespace wormnet {

class Transport {
 public:
  virtual ~Transport() = default;
  /// Sends every outbox of `model` to its peer (the outboxes are cleared) and begins
  /// receiving what the peers sent for the same window. Called by all ranks after each
  /// window of at most lookahead cycles, and only when nothing is pending.
  virtual void start(RankModel& model) = 0;
  /// Completes what start() began and hands the peers' messages to model.receive(). Does
  /// nothing when nothing is pending.
  virtual void finish(RankModel& model) = 0;
  /// True between start() and finish().
  [[nodiscard]] virtual bool pending() const = 0;
  /// What this rank has sent so far (nothing on one rank).
  [[nodiscard]] virtual ExchangeVolume volume() const { return {}; }
};

/// The transport of a one-rank run: nothing ever crosses.
class NullTransport final : public Transport {
 public:
  void start(RankModel& /*model*/) override {}
  void finish(RankModel& /*model*/) override {}
  [[nodiscard]] bool pending() const override { return false; }
};

}  // namespace wormnet
