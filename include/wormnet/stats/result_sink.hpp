// Where a simulation's results go, as the run proceeds. The HDF5 writer is one sink; tests
// use a recording sink. Every method is called on every rank with the same global values
// (collective), except the per-rank channel counts of end_point().
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "wormnet/stats/channel_congestion.hpp"
#include "wormnet/stats/run_summary.hpp"
#include "wormnet/stats/traffic_counters.hpp"

namespace wormnet {

/// One row of the time series: the counters of one statistics window, summed over ranks,
/// and snapshots of the occupancy at its end.
struct WindowRow {
  Cycle cycle_end = 0;  ///< first cycle after the window
  Cycle cycles = 0;     ///< window length
  TrafficCounters counters;
  std::uint64_t flits_in_network = 0;  ///< buffers + links, at the end of the window
  std::uint64_t flits_at_sources = 0;  ///< queued at sources, at the end of the window
  std::uint64_t messages_at_sources = 0;
};

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  /// A load point starts; `index` counts points of a sweep from 0.
  virtual void begin_point(int /*index*/, double /*offered_load*/) {}
  virtual void window(const WindowRow& /*row*/) {}
  /// The flits each of this rank's channels carried in the statistics window ending at
  /// `cycle_end` (--congestion series): (global channel id, flits), its sending channels; and
  /// the cycles the input VCs of its receiving channels were blocked in the window's part
  /// inside the measurement window: (global channel id, cycles). Called just before window()
  /// for the same window.
  virtual void channel_window(
      Cycle /*cycle_end*/,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& /*channel_flits*/,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& /*channel_blocked*/) {}
  /// Where packets waited during the point's measurement window (--congestion), this rank's
  /// channels; called just before end_point(), only when the run counts it.
  virtual void congestion(const ChannelCongestion& /*mine*/) {}
  /// The point is over. `measured` is merged over ranks; `channel_flits` lists this rank's
  /// (global channel id, flits in the measurement window).
  virtual void end_point(
      const RunSummary& /*summary*/, const MeasuredStats& /*measured*/,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& /*channel_flits*/) {}
};

}  // namespace wormnet
