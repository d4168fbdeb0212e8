// The state of a rank's part of the network at a window boundary, in a form that does not
// depend on the partition: per-router rows keyed by global router id, lists keyed by global
// router id, packets keyed by their global id, and additive counters. A checkpoint is the
// union of every rank's snapshot; a restart on any rank count takes the rows and list entries
// of its own routers. Each part of the model writes and reads its own share: the routers
// (RouterBank), the sources (TrafficSources), the arrival wheel, the links, the packet table
// and the counters (RankModel's parts); the checkpoint layout walks the same parts
// (io/checkpoint_layout.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_rows.hpp"
#include "wormnet/stats/traffic_counters.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet {

/// Flits and credits on the rank's local links: the arrival wheel's entries.
struct ArrivalRows {
  struct Flit {
    Cycle arrival;
    std::uint32_t router;  ///< receiving router (global)
    std::uint32_t local_vc;
    std::uint64_t packet;  ///< Packet::id
    std::uint32_t kind;
  };
  struct Credit {
    Cycle arrival;
    std::uint32_t router;    ///< router owning the output VC (global)
    std::uint32_t local_vc;  ///< output port * vcs + vc
  };
  std::vector<Flit> flits;
  std::vector<Credit> credits;
};

/// A packet whose head has crossed a link and whose later flits have yet to cross it: the
/// receiving end of the link learns its packet from this on restart (RankLinks).
struct StreamRow {
  std::uint32_t router;    ///< receiving router (global)
  std::uint32_t local_vc;  ///< receiving input port * vcs + vc
  std::uint64_t packet;
};

/// The rank's counters (additive: summed over ranks they are the global values).
struct CounterRows {
  TrafficCounters window;
  MeasuredStats measured;
  std::uint64_t created_flits_seen = 0;
  std::uint64_t created_packets_seen = 0;
  std::uint64_t ejected_packets = 0;
  std::uint64_t scripted_packets = 0;
  std::vector<std::uint64_t> channel_flits;  ///< per router x P: flits of the measurement window
};

struct ModelSnapshot {
  /// No packet (free output VC, no injection in progress).
  static constexpr std::uint64_t kNoPacket = RouterRows::kNoPacket;

  // Shape: every per-router row below has this many entries.
  std::uint32_t ports = 0;  ///< network ports P (the terminal port is P)
  std::uint32_t vcs = 0;
  std::uint32_t depth = 0;  ///< flits per VC buffer
  [[nodiscard]] std::uint32_t port_vcs() const { return (ports + 1) * vcs; }

  /// Global ids of the routers of the rows, ascending.
  std::vector<std::uint32_t> routers;

  RouterRows router;             ///< the routers' units
  TrafficSources::Rows sources;  ///< the terminals' sources and queues
  ArrivalRows arrivals;          ///< flits and credits on local links
  std::vector<StreamRow> streams;
  std::vector<Packet> packets;  ///< every packet referenced above (a rank's copy)
  CounterRows counters;
};

}  // namespace wormnet
