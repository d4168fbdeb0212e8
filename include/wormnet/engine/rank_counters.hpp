// What a rank counts: the window's traffic counters, the measurement window's statistics, the
// flits each local channel carried during it, and the packet-cycles (packets in the rank's
// part of the network, summed over the measurement window's cycles; Little's law). While the
// skewed walk's layers lag, packets are created and ejected at cycles the engine has passed
// or not reached: they are kept per cycle until every layer has simulated the cycle
// (settle()), and the packet-cycles count only settled cycles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/engine/model_snapshot.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/stats/traffic_counters.hpp"

namespace wormnet {

/// How many flits and messages a rank holds, in its network part and at its sources.
struct FlitGauges {
  std::uint64_t flits_in_network = 0;  ///< in router buffers, on links, in outboxes
  std::uint64_t flits_at_sources = 0;  ///< queued messages and the unsent rest of injections
  std::uint64_t messages_at_sources = 0;
  bool operator==(const FlitGauges&) const = default;
};

class RankCounters {
 public:
  /// Counters of `channel_slots` channel slots (RankModel::port_slot()), per-cycle counts
  /// for `cycle_slots` cycles (a power of two spanning the layers' spread), measuring the
  /// cycles [measure_begin, measure_end).
  RankCounters() = default;
  RankCounters(std::size_t channel_slots, std::size_t cycle_slots, Cycle measure_begin,
               Cycle measure_end);

  // The walk's counts (inlined into it).
  void injected(std::uint32_t packets, std::uint32_t flits) {
    window_.injected_packets += packets;
    window_.injected_flits += flits;
  }
  /// A flit crossed channel `slot`; `measuring`: in the measurement window.
  void hop(std::size_t slot, bool measuring) {
    ++window_.flit_hops;
    if (measuring) {
      ChannelCount& n = channel_flits_[slot];
      n = ChannelCount{static_cast<std::uint32_t>(n) + 1U};
    }
  }
  /// Hint for what hop(slot, true) writes.
  void prefetch_hop(std::size_t slot) const { prefetch_for_write(&channel_flits_[slot]); }
  /// A flit was ejected at t (not a tail).
  void ejected_flit(bool measuring) {
    ++window_.ejected_flits;
    if (measuring) ++measured_.accepted_flits;
  }
  /// Packet p's tail was ejected at t and delivered at `done`.
  void delivered(const Packet& p, Cycle t, Cycle done) {
    const Cycle latency = done - p.created;
    ++window_.ejected_packets;
    ++ejected_packets_;
    ++ejected_at_[t & cycle_mask_];
    window_.latency_sum += latency;
    if (!p.measured) return;
    measured_.total.add(latency);
    measured_.network.add(done - p.injected);
    measured_.queueing.add(p.injected - p.created);
    ++measured_.delivered_packets;
    measured_.delivered_flits += p.length;
    measured_.hops_sum += p.hops;
  }
  /// The sources generated `packets` packets at cycle c.
  void created(Cycle c, std::uint64_t packets) { created_at_[c & cycle_mask_] += packets; }
  /// A message of `flits` flits was put in a source queue by hand (RankModel::enqueue()).
  void scripted(std::uint32_t flits) {
    ++scripted_packets_;
    scripted_flits_ += flits;
  }

  /// The walk starts at cycle t (every layer level), with `created_packets` generated so far.
  void anchor(Cycle t, std::uint64_t created_packets);
  /// Every layer has simulated the cycles before `done`: their counts are final.
  void settle(Cycle done);
  /// The window's counters since the last take_window(), with the packets and flits created
  /// meanwhile (of totals `created_flits`, `created_packets`); resets them.
  TrafficCounters take_window(std::uint64_t created_flits, std::uint64_t created_packets);
  [[nodiscard]] const MeasuredStats& measured() const { return measured_; }
  /// Totals since the counters were built (or restored: then they start again from what the
  /// checkpoint's window held), for the gauges (RankStateView::gauges()): they change exactly when
  /// a flit or message enters or leaves a source queue or the network.
  [[nodiscard]] std::uint64_t injected_flits() const {
    return injected_flits_before_ + window_.injected_flits;
  }
  [[nodiscard]] std::uint64_t injected_packets() const {
    return injected_packets_before_ + window_.injected_packets;
  }
  [[nodiscard]] std::uint64_t ejected_flits() const {
    return ejected_flits_before_ + window_.ejected_flits;
  }
  [[nodiscard]] std::uint64_t scripted_flits() const { return scripted_flits_; }
  [[nodiscard]] std::uint64_t scripted_packets() const { return scripted_packets_; }
  /// What the gauges add to the balance of the totals: zero for a rank built empty, set by a
  /// restore to what the restored state holds less the balance (RankStateView::gauges()).
  [[nodiscard]] const FlitGauges& gauge_offset() const { return gauge_offset_; }
  void set_gauge_offset(const FlitGauges& g) { gauge_offset_ = g; }
  /// Flits channel slot `slot` carried during the measurement window.
  [[nodiscard]] std::uint64_t channel_flits(std::size_t slot) const;
  void set_channel_flits(std::size_t slot, std::uint64_t flits);

  /// The counters in checkpoint form (but the channels', which RankStateView::snapshot()
  /// lists by router and port).
  void save(CounterRows& rows) const;
  /// From `rows` (global totals) if `keeper`, else zero (another rank keeps them).
  void restore(const CounterRows& rows, bool keeper);
  [[nodiscard]] std::size_t bytes() const {
    return channel_flits_.capacity() * sizeof(ChannelCount) +
           folded_.size() * 2 * sizeof(std::uint64_t);
  }

  /// Cycles between two folds of the channel counters into their 64-bit totals. A channel
  /// carries at most kMaxVcs flits a cycle (one per VC with per-VC bandwidth, else one), and
  /// the walk's layers count hops at most a wheel's span of cycles past the settled cycle, far
  /// under a period: a counter below 2^31 after a fold gains under 2^31 before the next.
  static constexpr Cycle kFoldPeriod = Cycle{1} << 24;
  static_assert(kFoldPeriod * 2 * static_cast<Cycle>(kMaxVcs) <= Cycle{1} << 31,
                "a channel counter cannot wrap between two folds");

 private:
  /// A channel's flits since its last fold: 32 bits, not 64 (4 bytes per channel slot of
  /// model state saved: issue 42's 600 bytes per router). Not std::uint32_t, whose stores may
  /// alias every 32-bit field of the rank (GCC reloaded the walk's index factors after each
  /// flit counter written); an enumeration aliases itself.
  enum class ChannelCount : std::uint32_t {};
  /// Moves every channel counter at 2^31 or more into folded_ (settle(), every kFoldPeriod
  /// cycles; in practice never before a run of 2^28 cycles).
  void fold();

  TrafficCounters window_;
  MeasuredStats measured_;
  /// [channel slot]: flits of the measurement window since the slot's last fold; the folded
  /// part, only of channels that carried 2^31 flits or more, in folded_ (sorted by slot).
  HugeVector<ChannelCount> channel_flits_;
  std::vector<std::pair<std::size_t, std::uint64_t>> folded_;
  Cycle next_fold_ = kFoldPeriod;  ///< settle() folds once settled_ reaches it
  Cycle measure_begin_ = 0;
  Cycle measure_end_ = 0;
  /// Packets generated and tails ejected at each cycle not yet settled (index: cycle masked),
  /// and the totals over settled cycles.
  std::vector<std::uint64_t> created_at_;
  std::vector<std::uint64_t> ejected_at_;
  std::size_t cycle_mask_ = 0;
  Cycle settled_ = 0;  ///< every layer has simulated the cycles before it
  std::uint64_t settled_created_ = 0;
  std::uint64_t settled_ejected_ = 0;
  std::uint64_t scripted_packets_ = 0;  ///< messages enqueued by hand
  std::uint64_t scripted_flits_ = 0;    ///< their flits (not checkpointed: for the gauges)
  /// Injected and ejected counts of the windows already taken (not checkpointed).
  std::uint64_t injected_flits_before_ = 0;
  std::uint64_t injected_packets_before_ = 0;
  std::uint64_t ejected_flits_before_ = 0;
  FlitGauges gauge_offset_;
  std::uint64_t ejected_packets_ = 0;  ///< tails ejected, whole run
  std::uint64_t created_flits_seen_ = 0;
  std::uint64_t created_packets_seen_ = 0;
};

}  // namespace wormnet
