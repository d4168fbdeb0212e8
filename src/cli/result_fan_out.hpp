// The sink between the simulation and the results file: every result goes on to the results
// file (when there is one), and what the progress line shows of it to the progress printer.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "progress_printer.hpp"
#include "wormnet/io/result_writer.hpp"
#include "wormnet/stats/result_sink.hpp"

namespace wormnet::cli {

class ResultFanOut final : public ResultSink {
 public:
  /// `writer`: the results file, nullptr for none.
  ResultFanOut(io::ResultWriter* writer, ProgressPrinter& printer)
      : writer_(writer), printer_(printer) {}

  void begin_point(int index, double offered_load) override;
  /// The window's accepted traffic and latency to the progress line, the row to the file.
  void window(const WindowRow& row) override;
  void channel_window(
      Cycle cycle_end, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_blocked) override;
  void congestion(const ChannelCongestion& mine) override;
  /// Ends the live progress bar before the file's end of the point (and the summary).
  void end_point(
      const RunSummary& summary, const MeasuredStats& measured,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) override;

 private:
  io::ResultWriter* writer_;
  ProgressPrinter& printer_;
};

}  // namespace wormnet::cli
