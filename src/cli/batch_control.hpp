// Batch-job operation of the simulation commands: periodic coordinated checkpoints, a clean
// stop on SIGTERM / SIGUSR1 or before the wall-time limit (checkpoint, flush, close, exit 5),
// restart from a checkpoint, and the progress line.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "wormnet/driver/checkpoint_policy.hpp"
#include "wormnet/driver/run_session.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/io/checkpoint_file.hpp"
#include "wormnet/io/result_writer.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/parallel/launcher.hpp"
#include "wormnet/stats/result_sink.hpp"

namespace wormnet::cli {

struct BatchOptions {
  std::string checkpoint_every;     ///< "N" cycles, or "Nm" / "Nh" of wall-clock time
  std::string checkpoint_dir;       ///< default: <output>.checkpoint, or wormnet.checkpoint
  std::string restart;              ///< checkpoint directory to continue from
  std::string walltime;             ///< HH:MM:SS
  std::uint64_t stop_at_cycle = 0;  ///< checkpoint and stop at the first check from this cycle
  double progress_seconds = 60.0;   ///< plain progress line interval when not on a terminal
  /// --progress: auto (a live bar on a terminal that no MPI launcher stands between, else
  /// lines), bar, lines or none.
  std::string progress = "auto";
  /// Options given (given_options()): --stop-at-cycle 0 is refused, not taken for "none".
  std::set<std::string> given;
};

/// Declares --checkpoint-every, --checkpoint-dir, --restart, --walltime, --stop-at-cycle,
/// --progress-interval, --progress on `app`.
void add_batch_options(CLI::App& app, BatchOptions& o);

/// How the progress is shown: a line rewritten in place (\r, for a terminal), a new line
/// every --progress-interval seconds (for a log file), or not at all.
enum class ProgressMode : std::uint8_t { kBar, kLines, kNone };

/// --progress auto: a bar when stdout is a terminal and no MPI launcher stands between it and
/// the user (under mpiexec or srun rank 0's stdout is a pseudo-terminal of the launcher's
/// whatever the launcher's own stdout is: a redirected log would hold \r-erased fragments).
ProgressMode auto_progress_mode(bool stdout_is_terminal, bool under_launcher);

/// The parsed batch settings, validated (InputError for a bad value).
struct BatchSettings {
  CheckpointPolicy checkpoints;  ///< periods, wall-time limit, stop cycle (0: none)
  std::string dir;               ///< where checkpoints go
  double progress_seconds = 60.0;
  ProgressMode progress = ProgressMode::kLines;
};
BatchSettings batch_settings(const BatchOptions& o, const std::string& output);

/// Installs the SIGTERM, SIGINT and SIGUSR1 handlers (they only set a flag read at control
/// checks: the run checkpoints and stops with exit code 5; and while inputs are read, through
/// stop_signalled(): the run ends during its setup with exit code 5). Done by `main` for
/// `run` and `sweep` before anything is read.
void install_stop_signals();
/// Whether a stop signal reached this process (local: the stop check of input readers,
/// text_input.hpp; ranks then agree through stop_requested()).
bool stop_signalled();
/// Whether a stop signal reached any rank (collective).
bool stop_requested(const Communicator& comm);

/// The run's hooks and the sink between the simulation and the results file: decides at every
/// control check (collectively) whether to checkpoint or stop, writes checkpoints, and prints
/// progress on rank 0.
class BatchControl final : public RunHooks, public ResultSink {
 public:
  /// `checkpoint`: DIR/checkpoint.h5 when claimed up front (checkpoints planned, or a
  /// restart); otherwise it is claimed at the first checkpoint a signal asks for. `nodes`:
  /// the traffic's (the working ones of a network with faults), for the accepted traffic
  /// of the progress line (per node).
  BatchControl(const Communicator& comm, BatchSettings plan, io::RunProgress base,
               io::ResultWriter* writer, bool quiet, Cycle planned_cycles,
               std::optional<io::OutputFile> checkpoint, std::uint64_t nodes);

  /// The point being simulated (its index and offered load) and, for sweeps, what is left.
  void set_point(int index, double rate, std::int64_t left_after_saturation);

  void check_status(const CheckStatus& status) override;
  Action at_check(Cycle t) override;
  void save(const LoopState& loop, const ModelSnapshot& mine) override;

  void begin_point(int index, double offered_load) override;
  void window(const WindowRow& row) override;
  void channel_window(
      Cycle cycle_end,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) override;
  void congestion(const ChannelCongestion& mine) override;
  void end_point(
      const RunSummary& summary, const MeasuredStats& measured,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) override;

  /// Ends the live progress line (rank 0, terminal).
  void finish_progress();

  /// What a checkpoint saves of a closed-loop workload (collective: summed over the ranks).
  void set_workload_progress(std::function<std::vector<std::uint64_t>()> f) {
    workload_progress_ = std::move(f);
  }

 private:
  void progress(Cycle t, bool force);
  /// The progress line's ETA part: before the window's end the cycles left at the cycle rate;
  /// after it (the drain) the labelled packets left at their delivery rate, bounded by the
  /// drain limit; for a workload the messages left.
  [[nodiscard]] std::string eta_text(Cycle t, double elapsed) const;

  Communicator comm_;
  BatchSettings plan_;
  io::RunProgress base_;
  io::ResultWriter* writer_;
  std::optional<io::OutputFile> checkpoint_;
  std::uint64_t nodes_;
  ResultSink no_file_;
  bool quiet_;
  bool terminal_;  ///< the progress is a bar rewritten in place
  Cycle planned_cycles_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_checkpoint_;
  std::chrono::steady_clock::time_point last_progress_;
  double checkpoint_seconds_ = 0.0;  ///< how long the last checkpoint took
  double check_seconds_ = 0.0;       ///< wall time between the last two checks
  std::chrono::steady_clock::time_point last_check_;
  Cycle next_checkpoint_cycle_ = 0;
  Cycle point_start_cycle_ = 0;
  double accepted_ = 0.0;  ///< of the last window, flits/node/cycle
  double latency_ = 0.0;
  /// The last control check's status, and samples of the recent ones (a few a second, the
  /// last few seconds) for the ETA's rates: cycles and deliveries per second of late.
  CheckStatus status_;
  bool have_status_ = false;
  struct Sample {
    std::chrono::steady_clock::time_point time;
    Cycle cycle;
    std::uint64_t delivered;  ///< labelled packets, or a workload's messages
  };
  std::deque<Sample> samples_;
  bool live_line_ = false;
  std::function<std::vector<std::uint64_t>()> workload_progress_;
};

}  // namespace wormnet::cli
