// The state of a rank's part of the network at a window boundary, in a form that does not
// depend on the partition: per-router rows keyed by global router id, lists keyed by global
// router id, packets keyed by their global id, and additive counters. A checkpoint is the
// union of every rank's snapshot; a restart on any rank count takes the rows and list entries
// of its own routers.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/stats/traffic_counters.hpp"

namespace wormnet {

struct ModelSnapshot {
  /// No packet (free output VC, no injection in progress).
  static constexpr std::uint64_t kNoPacket = ~std::uint64_t{0};

  // Shape: every per-router row below has this many entries.
  std::uint32_t ports = 0;  ///< network ports P (the terminal port is P)
  std::uint32_t vcs = 0;
  std::uint32_t depth = 0;  ///< flits per VC buffer
  [[nodiscard]] std::uint32_t port_vcs() const { return (ports + 1) * vcs; }

  /// Global ids of the routers of the rows, ascending.
  std::vector<std::uint32_t> routers;

  // Per router x (P + 1) x V input VCs.
  std::vector<std::uint64_t> ivc_ready;  ///< first cycle of the VC's next stage
  /// Low 32 bits of the last cycle a flit left the VC or arrived at it empty (for the
  /// deadlock detector).
  std::vector<std::uint32_t> ivc_since;
  /// count | stage << 16 | out_port << 24 | out_vc << 32
  std::vector<std::uint64_t> ivc_meta;
  // Per router x (P + 1) x V x B, flits in FIFO order from the front (count of them valid).
  std::vector<std::uint64_t> flit_packet;  ///< Packet::id
  std::vector<std::uint8_t> flit_kind;     ///< Flit::kind()
  // Per router x (P + 1) x V output VCs.
  std::vector<std::uint32_t> ovc_credits;
  std::vector<std::uint8_t> ovc_owner;    ///< owning input VC or OutputUnit::kFree
  std::vector<std::uint64_t> ovc_packet;  ///< owner's packet id, or kNoPacket
  std::vector<std::uint8_t> va_last;      ///< VC allocator round robin
  // Per router x (P + 1) ports.
  std::vector<std::uint8_t> sa_last_vc;
  std::vector<std::uint8_t> sa_last_port;
  // Per router.
  std::vector<std::uint64_t> injection;  ///< x4: packet id (or kNoPacket), sent, length, vc
  std::vector<std::uint64_t> source_counter;
  std::vector<double> source_next_time;
  std::vector<std::uint64_t> source_sequence;
  std::vector<std::uint64_t> channel_flits;  ///< x P

  // Lists.
  struct InFlightFlit {
    Cycle arrival;
    std::uint32_t router;  ///< receiving router (global)
    std::uint32_t local_vc;
    std::uint64_t packet;  ///< Packet::id
    std::uint32_t kind;
  };
  struct InFlightCredit {
    Cycle arrival;
    std::uint32_t router;    ///< router owning the output VC (global)
    std::uint32_t local_vc;  ///< output port * vcs + vc
  };
  struct QueuedMessage {
    std::uint32_t router;  ///< source node (global)
    Cycle created;
    std::uint32_t dest;
    std::uint32_t length;
    std::uint32_t measured;
    std::uint64_t sequence;
  };
  /// A packet whose head has crossed a link and whose later flits have yet to cross it.
  struct Stream {
    std::uint32_t router;    ///< receiving router (global)
    std::uint32_t local_vc;  ///< receiving input port * vcs + vc
    std::uint64_t packet;
  };
  std::vector<InFlightFlit> flits_in_flight;
  std::vector<InFlightCredit> credits_in_flight;
  std::vector<QueuedMessage> messages;
  std::vector<Stream> streams;
  std::vector<Packet> packets;  ///< every packet referenced above (a rank's copy)

  // Additive counters: the rank's share; summed over ranks they are the global values.
  TrafficCounters window;
  MeasuredStats measured;
  std::uint64_t created_flits = 0;
  std::uint64_t created_packets = 0;
  std::uint64_t measured_created_packets = 0;
  std::uint64_t measured_created_flits = 0;
  std::uint64_t created_flits_seen = 0;
  std::uint64_t created_packets_seen = 0;
  std::uint64_t ejected_packets = 0;
  std::uint64_t scripted_packets = 0;
};

}  // namespace wormnet
