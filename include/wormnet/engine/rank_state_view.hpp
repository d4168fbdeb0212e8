// The questions asked of a rank's state between cycles, by the run (window totals, the
// control checks, the final summary), the deadlock detector and the checkpoint: how many
// flits are where, which input VCs are stuck and what they wait for, where packets wait,
// the flits each channel carried, the snapshot. A const view of RankModel's parts
// (RankModel::state(), which requires the walk's layers to be level): it changes nothing
// and holds nothing of its own but the cycle it was taken at, so it is taken anew after the
// model steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/engine/arrival_wheel.hpp"
#include "wormnet/engine/model_snapshot.hpp"
#include "wormnet/engine/rank_counters.hpp"
#include "wormnet/engine/rank_links.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_bank.hpp"
#include "wormnet/stats/channel_congestion.hpp"
#include "wormnet/stats/traffic_counters.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/traffic_sources.hpp"
#include "wormnet/verify/wait_for_graph.hpp"

namespace wormnet {

class RankStateView {
 public:
  /// The parts of a rank whose every layer has simulated the cycles before `now`; `active`:
  /// the routers with work (bit r % 64 of word r / 64, engine/router_set.hpp).
  RankStateView(const Topology& topo, const RouterBank& bank, const PacketTable& packets,
                const TrafficSources& sources, const RankLinks& links, const ArrivalWheel& wheel,
                const RankCounters& counters, const HugeVector<std::uint64_t>& active, Cycle now)
      : topo_(topo),
        bank_(bank),
        packets_(packets),
        sources_(sources),
        links_(links),
        wheel_(wheel),
        counters_(counters),
        active_(active),
        now_(now) {}

  // Counts at a window's end (rank_state_view.cpp).
  /// The three counts below in O(1), from the totals of what entered and left the rank since
  /// it was built or restored (each changes exactly when a flit or message enters or leaves a
  /// source queue or the network): what every statistics window records. Equal to
  /// counted_gauges(), the definition (test engine RankGauges).
  [[nodiscard]] FlitGauges gauges() const;
  /// The same counted router by router, O(routers).
  [[nodiscard]] FlitGauges counted_gauges() const {
    return {flits_in_network(), flits_at_sources(), messages_at_sources()};
  }
  /// Flits in router buffers and on links (the arrival wheel and the outboxes).
  [[nodiscard]] std::uint64_t flits_in_network() const;
  /// Flits waiting at sources (queued messages and the unsent rest of packets being injected).
  [[nodiscard]] std::uint64_t flits_at_sources() const;
  [[nodiscard]] std::uint64_t messages_at_sources() const;

  // The measurement (counters and sources).
  [[nodiscard]] const MeasuredStats& measured() const { return counters_.measured(); }
  /// Labelled packets generated and delivered so far (for the drain), and labelled flits.
  [[nodiscard]] std::uint64_t measured_created() const { return sources_.measured_packets(); }
  [[nodiscard]] std::uint64_t measured_delivered() const { return measured().delivered_packets; }
  [[nodiscard]] std::uint64_t measured_created_flits() const { return sources_.measured_flits(); }
  /// Messages this rank's sources dropped (--drop-unroutable), from the start.
  [[nodiscard]] std::uint64_t dropped_messages() const { return sources_.dropped_messages(); }
  /// Flits switched per local channel during the measurement window, by global channel id.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint64_t>> channel_flits() const;
  /// Where packets wait (--congestion), this rank's channels by global id, listed as
  /// channel_flits() lists them.
  [[nodiscard]] ChannelCongestion congestion() const;

  // The deadlock detector.
  /// Input VCs of this rank that hold flits and have moved none for `threshold` cycles or
  /// more before cycle t (the next to simulate): the detector looks further only when some
  /// rank has one. `threshold` < 2^31.
  [[nodiscard]] std::uint64_t stuck_vcs(Cycle t, Cycle threshold) const;
  /// What each stuck input VC of this rank that cannot move at t waits for (every VC, here
  /// or downstream, whose progress could let it move); a VC with a way to move has no edge.
  /// Exact when nothing is in flight between ranks and `threshold` exceeds the credit
  /// latency (so no credit is on its way from a stuck VC).
  [[nodiscard]] std::vector<WaitEdge> wait_for_edges(Cycle t, Cycle threshold) const;

  /// The state of this rank's routers, partition-independent (see ModelSnapshot), each part
  /// writing its own share (rank_state_snapshot.cpp). Taken at a window boundary, after the
  /// exchange (outboxes empty).
  [[nodiscard]] ModelSnapshot snapshot() const;

 private:
  /// Calls f(router, local VC) for every non-empty input VC of an active router that has
  /// waited at least `threshold` cycles at `t`.
  template <class F>
  void for_each_stuck_vc(Cycle t, Cycle threshold, F&& f) const;

  const Topology& topo_;
  const RouterBank& bank_;
  const PacketTable& packets_;
  const TrafficSources& sources_;
  const RankLinks& links_;
  const ArrivalWheel& wheel_;
  const RankCounters& counters_;
  const HugeVector<std::uint64_t>& active_;
  Cycle now_;  ///< first cycle not yet simulated
};

}  // namespace wormnet
