// What a rank counts: the window's traffic counters, the measurement window's statistics, the
// flits each local channel carried during it, and the packet-cycles (packets in the rank's
// part of the network, summed over the measurement window's cycles; Little's law). While the
// skewed walk's layers lag, packets are created and ejected at cycles the engine has passed
// or not reached: they are kept per cycle until every layer has simulated the cycle
// (settle()), and the packet-cycles count only settled cycles.
#pragma once

#include <cstddef>
#include <cstdint>
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
    if (measuring) ++channel_flits_[slot];
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
  [[nodiscard]] std::uint64_t channel_flits(std::size_t slot) const { return channel_flits_[slot]; }
  void set_channel_flits(std::size_t slot, std::uint64_t flits) { channel_flits_[slot] = flits; }

  /// The counters in checkpoint form (but the channels', which RankStateView::snapshot()
  /// lists by router and port).
  void save(CounterRows& rows) const;
  /// From `rows` (global totals) if `keeper`, else zero (another rank keeps them).
  void restore(const CounterRows& rows, bool keeper);
  [[nodiscard]] std::size_t bytes() const { return channel_flits_.capacity() * 8; }

 private:
  TrafficCounters window_;
  MeasuredStats measured_;
  HugeVector<std::uint64_t> channel_flits_;  ///< [channel slot], measurement window
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
