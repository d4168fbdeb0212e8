// Where packets wait, one rank's share (`--congestion totals`; docs/simulator.md, "Congestion
// statistics"): for each network channel whose input buffers the rank holds (its target
// router is the rank's), per VC, the cycles its heads waited for an output VC, its VCs waited
// for a credit and for the switch, and its flit-cycles of occupancy over the measurement
// window; for each channel the rank sends on (its source router is the rank's), the flits
// each VC carried in the window. Channels by global id, so that the file is the same on any
// rank count.
#pragma once

#include <cstdint>
#include <vector>

namespace wormnet {

struct ChannelCongestion {
  int vcs = 1;
  /// Physical VCs (bit per VC) of a routing's escape classes (Duato), 0 for other routings.
  std::uint32_t escape_vcs = 0;
  /// Channels whose input side is this rank's, and per channel x VC (row-major) its counts.
  std::vector<std::uint32_t> in_channels;
  std::vector<std::uint64_t> vc_wait;      ///< cycles
  std::vector<std::uint64_t> credit_wait;  ///< cycles
  std::vector<std::uint64_t> switch_wait;  ///< cycles
  std::vector<std::uint64_t> occupancy;    ///< flit-cycles: flits buffered at each cycle's end
  /// Channels whose output side is this rank's, and per channel x VC the flits sent.
  std::vector<std::uint32_t> out_channels;
  std::vector<std::uint64_t> vc_flits;
};

}  // namespace wormnet
