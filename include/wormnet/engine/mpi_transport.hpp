// The transport of a multi-rank run: after every window the outboxes go to the neighbour
// ranks through persistent point-to-point requests (no barrier, no collective). Message
// capacities are the most that can cross each cut in one window: every cut link carries at
// most RankModel::crossing_limit() flits and as many credits in each direction (one per
// cycle, or one per VC and cycle with per-VC bandwidth, and never more than the buffers'
// credits allow).
#pragma once

#include <memory>

#include "wormnet/engine/transport.hpp"
#include "wormnet/parallel/neighbor_exchange.hpp"

namespace wormnet {

class MpiTransport final : public Transport {
 public:
  /// `window` = cycles between exchanges (at most the lookahead).
  MpiTransport(const Communicator& comm, const RankModel& model, Cycle window);
  void start(RankModel& model) override;
  void finish(RankModel& model) override;
  [[nodiscard]] bool pending() const override { return pending_; }
  [[nodiscard]] ExchangeVolume volume() const override { return exchange_->volume(); }

 private:
  std::unique_ptr<NeighborExchange> exchange_;
  bool pending_ = false;
  Outbox scratch_;
};

}  // namespace wormnet
