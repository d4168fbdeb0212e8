#include "wormnet/engine/rank_counters.hpp"

#include <algorithm>

namespace wormnet {

RankCounters::RankCounters(std::size_t channel_slots, std::size_t cycle_slots, Cycle measure_begin,
                           Cycle measure_end)
    : channel_flits_(channel_slots, ChannelCount{0}),
      measure_begin_(measure_begin),
      measure_end_(measure_end),
      created_at_(cycle_slots, 0),
      ejected_at_(cycle_slots, 0),
      cycle_mask_(cycle_slots - 1) {}

void RankCounters::anchor(Cycle t, std::uint64_t created_packets) {
  settled_ = t;
  settled_created_ = created_packets;
  settled_ejected_ = ejected_packets_;
}

void RankCounters::settle(Cycle done) {
  // A packet is in the network during cycle c from the cycle it is created to the cycle
  // before its tail's ejection.
  for (; settled_ < done; ++settled_) {
    const std::size_t k = settled_ & cycle_mask_;
    settled_created_ += created_at_[k];
    created_at_[k] = 0;
    if (settled_ >= measure_begin_ && settled_ < measure_end_) {
      measured_.packet_cycles += settled_created_ + scripted_packets_ - settled_ejected_;
    }
    settled_ejected_ += ejected_at_[k];
    ejected_at_[k] = 0;
  }
  if (settled_ >= next_fold_) [[unlikely]] {
    fold();
    next_fold_ = settled_ + kFoldPeriod;
  }
}

void RankCounters::fold() {
  constexpr std::uint32_t kHalf = std::uint32_t{1} << 31;
  for (std::size_t slot = 0; slot < channel_flits_.size(); ++slot) {
    const auto low = static_cast<std::uint32_t>(channel_flits_[slot]);
    if (low < kHalf) continue;
    const auto it = std::lower_bound(folded_.begin(), folded_.end(), slot,
                                     [](const auto& e, std::size_t s) { return e.first < s; });
    if (it != folded_.end() && it->first == slot) {
      it->second += low;
    } else {
      folded_.insert(it, {slot, low});
    }
    channel_flits_[slot] = ChannelCount{0};
  }
}

std::uint64_t RankCounters::channel_flits(std::size_t slot) const {
  std::uint64_t n = static_cast<std::uint32_t>(channel_flits_[slot]);
  const auto it = std::lower_bound(folded_.begin(), folded_.end(), slot,
                                   [](const auto& e, std::size_t s) { return e.first < s; });
  if (it != folded_.end() && it->first == slot) n += it->second;
  return n;
}

void RankCounters::set_channel_flits(std::size_t slot, std::uint64_t flits) {
  // The low 31 bits stay in the counter, the rest is folded (a restored run goes on counting
  // from the checkpoint's totals, exact to 2^64 as before).
  constexpr std::uint64_t kLow = (std::uint64_t{1} << 31) - 1;
  channel_flits_[slot] = ChannelCount{static_cast<std::uint32_t>(flits & kLow)};
  const auto it = std::lower_bound(folded_.begin(), folded_.end(), slot,
                                   [](const auto& e, std::size_t s) { return e.first < s; });
  const bool listed = it != folded_.end() && it->first == slot;
  if ((flits & ~kLow) != 0) {
    if (listed) {
      it->second = flits & ~kLow;
    } else {
      folded_.insert(it, {slot, flits & ~kLow});
    }
  } else if (listed) {
    folded_.erase(it);
  }
}

TrafficCounters RankCounters::take_window(std::uint64_t created_flits,
                                          std::uint64_t created_packets) {
  TrafficCounters w = window_;
  w.created_flits = created_flits - created_flits_seen_;
  w.created_packets = created_packets - created_packets_seen_;
  created_flits_seen_ = created_flits;
  created_packets_seen_ = created_packets;
  injected_flits_before_ += w.injected_flits;
  injected_packets_before_ += w.injected_packets;
  ejected_flits_before_ += w.ejected_flits;
  window_ = TrafficCounters{};
  return w;
}

void RankCounters::save(CounterRows& rows) const {
  rows.window = window_;
  rows.measured = measured_;
  rows.created_flits_seen = created_flits_seen_;
  rows.created_packets_seen = created_packets_seen_;
  rows.ejected_packets = ejected_packets_;
  rows.scripted_packets = scripted_packets_;
}

void RankCounters::restore(const CounterRows& rows, bool keeper) {
  window_ = keeper ? rows.window : TrafficCounters{};
  measured_ = keeper ? rows.measured : MeasuredStats{};
  created_flits_seen_ = keeper ? rows.created_flits_seen : 0;
  created_packets_seen_ = keeper ? rows.created_packets_seen : 0;
  ejected_packets_ = keeper ? rows.ejected_packets : 0;
  scripted_packets_ = keeper ? rows.scripted_packets : 0;
}

}  // namespace wormnet
