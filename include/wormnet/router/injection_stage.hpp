// The injection stage: a router's terminal writes the messages of its source queue, a flit a
// cycle, into the injection buffer (input port P). A message starts on the lowest-numbered
// empty injection VC once it has spent the injection latency on the injection channel; its
// packet takes the routing's initial state for the choice it draws (--ring-tie).
//
// Its state is the packet being written at each router (Injection), kept in the router's
// header in the input unit: the header is the first thing a router step reads, and whether
// the stage has work is a test on it (docs/scaling-history.md, "About a million routers").
#pragma once

#include <cstdint>

#include "wormnet/core/ids.hpp"
#include "wormnet/router/router_core.hpp"
#include "wormnet/router/router_rows.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet {

class InjectionStage {
 public:
  /// What the stage did at a router in one cycle.
  struct Injected {
    std::uint32_t packets = 0;  ///< packets that left the source queue (0 or 1)
    std::uint32_t flits = 0;    ///< flits written to the injection buffer (0 or 1)
  };

  /// Router r's source queue received a message (its owner pushed one): the stage has work
  /// until step() takes the last one. The bit lives in the router's header, so a router
  /// step never reads the queue unless it holds messages.
  template <MaskWidth W = MaskWidth::kAny>
  static void source_filled(RouterCore& c, std::uint32_t r) {
    c.inputs.injection<W>(r).queued = 1;
  }
  /// Whether router r's stage has work: a packet being written or a message queued. Most
  /// routers of a busy network have none, and skip the stage.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] static bool has_work(const RouterCore& c, std::uint32_t r) {
    const Injection& inj = c.inputs.injection<W>(r);
    return (inj.length | inj.queued) != 0;
  }
  /// Cycle t at router r: starts the next message of `source` (r's queue) on a free
  /// injection VC when its injection channel delivered it (creation + injection latency <=
  /// t), and writes one flit of the packet being injected when the buffer has room.
  /// kCounted: the flit it writes counts where packets wait (the counted walk:
  /// CongestionCounters at cycle t); the non-template step() asks the flag (and sets the
  /// counters' cycle).
  /// W: the layout of the router's header (MaskWidth: the walk's; the non-template step()
  /// asks the unit).
  template <bool kCounted, MaskWidth W>
  static Injected step(RouterCore& c, std::uint32_t r, Cycle t, SourceQueue& source);
  static Injected step(RouterCore& c, std::uint32_t r, Cycle t, SourceQueue& source) {
    const bool wide = c.inputs.wide();
    if (!c.congestion.counting()) {
      return wide ? step<false, MaskWidth::kWide>(c, r, t, source)
                  : step<false, MaskWidth::kNarrow>(c, r, t, source);
    }
    c.congestion.set_cycle(t);
    return wide ? step<true, MaskWidth::kWide>(c, r, t, source)
                : step<true, MaskWidth::kNarrow>(c, r, t, source);
  }
  /// The packets being written, in checkpoint form (RouterRows::injection: packet id by
  /// id_of, flits sent, length, VC), and back (slot_of: the packet's slot as found at its
  /// injection VC).
  static void save(const RouterCore& c, RouterRows& rows, const PacketIdOf& id_of);
  static void restore(RouterCore& c, const RouterRows& rows, const PacketSlotOf& slot_of);
  /// Which of the routing's initial choices packet `packet_id` (message `sequence` of its
  /// source) takes: by --ring-tie, alternating with the sequence or a seeded hash of the id.
  [[nodiscard]] static int initial_choice(const RouterCore& c, std::uint64_t packet_id,
                                          std::uint64_t sequence);
};

}  // namespace wormnet
