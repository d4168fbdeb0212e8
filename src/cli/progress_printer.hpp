// The progress line of a simulation on rank 0: point, cycle, share done, elapsed time, ETA,
// the last window's accepted traffic and latency; a bar rewritten in place on a terminal, a
// line every --progress-interval seconds in a log; and the line of each checkpoint written.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>

#include "wormnet/config/batch_config.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/stats/result_sink.hpp"

namespace wormnet::cli {

/// --progress auto: a bar when stdout is a terminal and no MPI launcher stands between it and
/// the user (under mpiexec or srun rank 0's stdout is a pseudo-terminal of the launcher's
/// whatever the launcher's own stdout is: a redirected log would hold \r-erased fragments).
ProgressMode auto_progress_mode(bool stdout_is_terminal, bool under_launcher);
/// The mode a run shows: `asked`, or for kAuto auto_progress_mode() of this process's stdout
/// and launcher.
ProgressMode shown_progress_mode(ProgressMode asked);

/// "HH:MM:SS" of `seconds` (hours beyond 99 as they come), "--:--:--" when unknown (< 0,
/// NaN) or beyond 10^8 s.
std::string clock_text(double seconds);

class ProgressPrinter {
 public:
  using Clock = std::chrono::steady_clock;

  /// `printing`: rank 0 and neither --quiet nor --progress none. `mode`: bar or lines (auto
  /// resolved). `planned_cycles`: a point's warm-up and measurement. `nodes`: the traffic's
  /// (the working ones of a network with faults), for the accepted traffic per node. `start`:
  /// when the run started.
  ProgressPrinter(bool printing, ProgressMode mode, double interval_seconds, Cycle planned_cycles,
                  std::uint64_t nodes, Clock::time_point start);

  /// The point being simulated (its index in the line).
  void set_point(std::int64_t index) { point_ = index; }
  /// A control check's status: the ETA's samples.
  void check_status(const RunHooks::CheckStatus& status);
  /// A statistics window: the line's accepted traffic and latency.
  void window(const WindowRow& row);
  /// Prints the line at the control check of cycle `t` when its interval has passed.
  void at_check(Cycle t) { print(t, false); }
  /// The line of a checkpoint written to `path` at `cycle` in `seconds`.
  void checkpoint_written(const std::string& path, Cycle cycle, double seconds);
  /// Ends the live bar (rank 0, terminal).
  void finish();

  /// The line's ETA part: before the window's end the cycles left at the cycle rate; after
  /// it (the drain) the labelled packets left at their delivery rate, bounded by the drain
  /// limit; for a workload the messages left. `elapsed`: seconds since the run started.
  [[nodiscard]] std::string eta_text(Cycle t, double elapsed) const;
  /// The line's share done: "12.5%" of the planned cycles, a workload's messages delivered,
  /// or "drain" (below 100 %: the end is the summary's).
  [[nodiscard]] std::string percent_text(Cycle t) const;
  /// The last window's accepted traffic (flits/node/cycle) and mean latency (cycles).
  [[nodiscard]] double accepted() const { return accepted_; }
  [[nodiscard]] double latency() const { return latency_; }

 private:
  void print(Cycle t, bool force);

  bool printing_;
  bool terminal_;  ///< the progress is a bar rewritten in place
  double interval_seconds_;
  Cycle planned_cycles_;
  std::uint64_t nodes_;
  Clock::time_point start_;
  Clock::time_point last_line_;
  std::int64_t point_ = 0;
  double accepted_ = 0.0;  ///< of the last window, flits/node/cycle
  double latency_ = 0.0;
  /// The last control check's status, and samples of the recent ones (a few a second, the
  /// last few seconds) for the ETA's rates: cycles and deliveries per second of late.
  RunHooks::CheckStatus status_;
  bool have_status_ = false;
  struct Sample {
    Clock::time_point time;
    Cycle cycle;
    std::uint64_t delivered;  ///< labelled packets, or a workload's messages
  };
  std::deque<Sample> samples_;
  bool live_line_ = false;
};

}  // namespace wormnet::cli
