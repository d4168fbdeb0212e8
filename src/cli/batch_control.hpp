// Batch-job operation of the simulation commands: periodic coordinated checkpoints, a clean
// stop on SIGTERM / SIGUSR1 or before the wall-time limit (checkpoint, flush, close, exit 5),
// and the progress line. BatchControl makes the collective decision at each control check
// (driver/checkpoint_policy.hpp) and holds the parts that carry it out: the checkpoint files
// (checkpoint_writer.hpp), the progress line (progress_printer.hpp) and the sink in front of
// the results file (result_fan_out.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint_writer.hpp"
#include "progress_printer.hpp"
#include "result_fan_out.hpp"
#include "wormnet/config/batch_config.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/io/checkpoint_file.hpp"
#include "wormnet/io/result_writer.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/stats/result_sink.hpp"

namespace wormnet::cli {

/// The run's hooks: decides at every control check (collectively) whether to checkpoint or
/// stop, and tells its parts.
class BatchControl final : public RunHooks {
 public:
  /// `batch`: the run's settings (its checkpoints go to `dir`); `base`: what every checkpoint
  /// records besides the point and the loop; `writer`: the results file (nullptr: none);
  /// `quiet`: no progress; `planned_cycles`: a point's warm-up and measurement; `checkpoint`:
  /// DIR/checkpoint.h5 when claimed up front (checkpoints planned, or a restart), otherwise
  /// claimed at the first checkpoint a signal asks for; `nodes`: the traffic's (the working
  /// ones of a network with faults), for the accepted traffic of the progress line.
  BatchControl(const Communicator& comm, const BatchConfig& batch, std::string dir,
               io::RunProgress base, io::ResultWriter* writer, bool quiet, Cycle planned_cycles,
               std::optional<io::OutputFile> checkpoint, std::uint64_t nodes);
  BatchControl(const BatchControl&) = delete;  // results_ refers to printer_
  BatchControl& operator=(const BatchControl&) = delete;

  /// The point being simulated (its index and offered load) and, for sweeps, what is left.
  void set_point(int index, double rate, std::int64_t left_after_saturation);

  void check_status(const CheckStatus& status) override { printer_.check_status(status); }
  Action at_check(Cycle t) override;
  void save(const LoopState& loop, const ModelSnapshot& mine) override;

  /// The sink to give the simulation: the results file and the progress line.
  ResultSink& results() { return results_; }
  /// Ends the live progress line (rank 0, terminal).
  void finish_progress() { printer_.finish(); }
  /// What a checkpoint saves of a closed-loop workload (collective: summed over the ranks).
  void set_workload_progress(std::function<std::vector<std::uint64_t>()> f) {
    checkpoints_.set_workload_progress(std::move(f));
  }

 private:
  using Clock = std::chrono::steady_clock;

  Communicator comm_;
  BatchConfig batch_;
  Clock::time_point start_;
  Clock::time_point last_checkpoint_;  ///< when the last checkpoint ended (or the run started)
  Clock::time_point last_check_;
  double checkpoint_seconds_ = 0.0;  ///< how long the last checkpoint took
  Cycle next_checkpoint_cycle_ = 0;  ///< the policy's, from one check to the next
  ProgressPrinter printer_;
  CheckpointWriter checkpoints_;
  ResultFanOut results_;
};

}  // namespace wormnet::cli
