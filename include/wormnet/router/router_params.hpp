// The timing and the rules every router of a run shares, taken from the configuration once
// (the hot loop reads them every cycle).
#pragma once

#include <cstdint>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/routing/routing_function.hpp"

namespace wormnet {

struct RouterParams {
  int ports = 0;                ///< network ports P; port P is the terminal (injection / ejection)
  int vcs = 1;                  ///< VCs per port
  int depth = 1;                ///< flits per VC buffer
  Cycle routing_delay = 0;      ///< a head's arrival at the front to its VC allocation, cycles
  Cycle vc_alloc_delay = 0;     ///< a VC grant to the packet's first switch allocation, cycles
  Cycle injection_latency = 0;  ///< injection channel: a message's creation to its entry, cycles
  /// Bubble flow control: a packet moves whole into a buffer (virtual cut-through) and
  /// entering a ring also leaves room for one packet of max_length flits.
  bool bubble = false;
  int max_length = 1;  ///< the longest packet, flits (the bubble's size)
  SelectionPolicy selection = SelectionPolicy::kPriority;
  bool per_vc_bandwidth = false;      ///< VcBandwidth::kPerVc: no switch allocation, every VC moves
  RingTie ring_tie = RingTie::kPlus;  ///< how a packet draws among the routing's initial choices
  std::uint64_t tie_key = 0;          ///< seed-derived key of that draw
  /// Physical VCs of the routing's escape classes (Duato; 0 for other routings): the others
  /// are adaptive, preferred when free, and allocated only to an empty downstream buffer.
  VcMask escape_vcs = 0;
  /// `--congestion totals`: count where packets wait (CongestionCounters) over the
  /// measurement window [measure_begin, measure_end); off, nothing is allocated.
  bool congestion = false;
  /// `--congestion series`: besides, each input VC's blocked time at the last statistics
  /// window's end (CongestionCounters::blocked_mark(); not allocated without it).
  bool congestion_series = false;
  Cycle measure_begin = 0;
  Cycle measure_end = 0;
  /// The input units' wide layout (64-bit stage masks, 12-byte VC states) even where (ports +
  /// 1) x vcs <= 16 and buffers of at most 255 flits would let them be narrow (InputUnit,
  /// MaskWidth): the same results, 32 more bytes per router and 4 per input VC; for tests.
  bool wide_masks = false;
};

}  // namespace wormnet
