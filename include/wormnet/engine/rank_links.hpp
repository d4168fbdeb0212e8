// The links that leave a rank's routers: for each router's network port, the router it
// reaches (a local index, or the remote end on another rank), the set of routers with a link
// to another rank (the boundary), and what crosses to other ranks: the outboxes a window's
// sends fill, the lookahead promise they keep, and the packets streaming in (head received,
// tail not yet). It never sees a flit's path inside a router.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/router_set.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// A flit crossing to another rank: 24 bytes. A head's packet record travels beside it in
/// Outbox::heads (most flits are body flits, which need none).
struct RemoteFlit {
  Cycle arrival = 0;
  std::uint64_t packet_id = 0;  ///< Packet::id, to check that body flits follow their head
  std::uint32_t node = 0;       ///< receiving router (global id)
  std::uint8_t port = 0;        ///< receiving input port
  std::uint8_t vc = 0;
  std::uint8_t kind = 0;  ///< Flit::kind(): head / tail bits
};

/// A credit crossing to another rank.
struct RemoteCredit {
  Cycle arrival = 0;
  std::uint32_t node = 0;  ///< router that owns the output VC (global id)
  std::uint8_t port = 0;   ///< its output port
  std::uint8_t vc = 0;
};

/// Everything bound for one peer rank during a window.
struct Outbox {
  std::vector<RemoteFlit> flits;
  std::vector<Packet> heads;  ///< the record of each head flit in `flits`, in the same order
  std::vector<RemoteCredit> credits;
  void clear() {
    flits.clear();
    heads.clear();
    credits.clear();
  }
};

class RankLinks {
 public:
  /// A link's target with this bit set is an index into the remote ends.
  static constexpr std::uint32_t kRemoteBit = 0x80000000U;
  /// No link (a mesh's edge), or no local router (local()).
  static constexpr std::uint32_t kNoLink = 0xFFFFFFFFU;
  /// The far end of a link to another rank.
  struct RemoteEnd {
    std::uint32_t node;  ///< global id
    std::uint16_t rank;
  };

  RankLinks() = default;
  /// The links of the routers `nodes` (global ids; local index = position), part `rank` of
  /// `partition` of `topo`.
  RankLinks(const Topology& topo, const Partition& partition, int rank,
            const std::vector<std::uint32_t>& nodes);

  /// Index of router r's network port in the link table (and the rank's channel counters): a
  /// router's ports take a power-of-two count of slots (8 for a 3-D torus), so that its
  /// links (32 bytes) and its flit counters (64 bytes) never straddle two cache lines
  /// (docs/scaling.md).
  [[nodiscard]] std::size_t slot(std::uint32_t r, int port) const {
    return (static_cast<std::size_t>(r) << port_shift_) | static_cast<std::size_t>(port);
  }
  [[nodiscard]] std::size_t slots() const { return link_.size(); }
  /// Where slot k's link leads: a local router, kRemoteBit | remote end, or kNoLink.
  [[nodiscard]] std::uint32_t target(std::size_t k) const { return link_[k]; }
  [[nodiscard]] std::uint32_t link(std::uint32_t r, int port) const { return link_[slot(r, port)]; }
  [[nodiscard]] static bool remote(std::uint32_t target) { return (target & kRemoteBit) != 0; }
  /// Hint for what target(k) reads.
  void prefetch(std::size_t k) const { wormnet::prefetch(&link_[k]); }
  /// The local index of global router `node`, or kNoLink when another rank owns it.
  [[nodiscard]] std::uint32_t local(std::uint32_t node) const {
    if (!local_of_.empty()) return local_of_[node];
    const auto after =
        std::upper_bound(runs_.begin(), runs_.end(), node,
                         [](std::uint32_t n, const Run& run) { return n < run.global; });
    if (after == runs_.begin()) return kNoLink;
    const Run& run = *(after - 1);
    return node - run.global < run.count ? run.local + (node - run.global) : kNoLink;
  }
  [[nodiscard]] bool mine(std::uint32_t node) const { return local(node) != kNoLink; }
  /// The runs local() searches instead of a map of every node of the network, at most this
  /// many: a rank of one block (one rank, or a slab) has one; more fall back to the map.
  static constexpr std::size_t kMostRuns = 64;

  /// Routers with a link to another rank: bit r % 64 of word r / 64, and the words that
  /// hold any.
  [[nodiscard]] std::uint64_t boundary_word(std::size_t w) const { return boundary_[w]; }
  [[nodiscard]] const std::vector<std::uint32_t>& boundary_words() const { return boundary_words_; }
  [[nodiscard]] bool boundary(std::uint32_t r) const {
    return (boundary_[router_set::word(r)] & router_set::bit(r)) != 0;
  }

  /// Peer ranks that share a link with this one (ascending), and the links to `peer`.
  [[nodiscard]] const std::vector<int>& neighbor_ranks() const { return neighbor_ranks_; }
  [[nodiscard]] std::uint64_t links_to(int peer) const;
  [[nodiscard]] const RemoteEnd& remote_end(std::uint32_t i) const { return remote_[i]; }
  /// Flits and credits for peer ranks produced since the last clear; index = peer rank.
  [[nodiscard]] std::vector<Outbox>& outboxes() { return outboxes_; }
  [[nodiscard]] const std::vector<Outbox>& outboxes() const { return outboxes_; }
  /// The outbox of remote end i's rank, for something that arrives at `arrival`: at or after
  /// the window's end (the lookahead promise; `what` names it when broken).
  Outbox& outbox(std::uint32_t i, Cycle arrival, const char* what);
  /// First cycle of the next window.
  void set_window_end(Cycle t) { window_end_ = t; }
  /// Flits sent to other ranks (put in an outbox) and received from them, since the links
  /// were built: the network gauge's terms for the flits that cross (RankStateView::gauges()).
  void count_sent() { ++flits_sent_; }
  void count_received(std::uint64_t flits) { flits_received_ += flits; }
  [[nodiscard]] std::uint64_t flits_sent() const { return flits_sent_; }
  [[nodiscard]] std::uint64_t flits_received() const { return flits_received_; }

  /// Packets streaming in from other ranks: input VC index -> local packet slot.
  void stream_in(std::uint32_t input_vc, std::uint32_t slot) { inbound_[input_vc] = slot; }
  /// The slot of the packet streaming into input_vc, or kNoLink.
  [[nodiscard]] std::uint32_t streaming(std::uint32_t input_vc) const {
    const auto it = inbound_.find(input_vc);
    return it != inbound_.end() ? it->second : kNoLink;
  }
  void stream_ends(std::uint32_t input_vc) { inbound_.erase(input_vc); }
  void clear_streams() { inbound_.clear(); }
  [[nodiscard]] const std::unordered_map<std::uint32_t, std::uint32_t>& streams() const {
    return inbound_;
  }

  [[nodiscard]] std::size_t bytes() const;

 private:
  int port_shift_ = 0;  ///< log2 of the slots per router (>= P)
  /// Global ids global..global + count - 1 are local indexes local..local + count - 1.
  struct Run {
    std::uint32_t global;
    std::uint32_t local;
    std::uint32_t count;
  };
  /// The rank's routers as runs of consecutive global ids and local indexes, by global id
  /// (at most kMostRuns; 12 bytes each instead of 4 bytes for each node of the network on
  /// every rank), or, when they are more, none and local_of_.
  std::vector<Run> runs_;
  HugeVector<std::uint32_t> local_of_;  ///< global id -> local index (kNoLink if remote), or empty
  HugeVector<std::uint32_t> link_;      ///< [slot()]: local neighbour, remote, kNoLink
  std::vector<RemoteEnd> remote_;
  std::vector<int> neighbor_ranks_;
  std::vector<std::uint64_t> boundary_;
  std::vector<std::uint32_t> boundary_words_;
  std::vector<Outbox> outboxes_;
  Cycle window_end_ = 0;
  std::uint64_t flits_sent_ = 0;
  std::uint64_t flits_received_ = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> inbound_;
};

}  // namespace wormnet
