#include "batch_control.hpp"

#include <span>
#include <utility>

#include "stop_signals.hpp"
#include "wormnet/driver/checkpoint_policy.hpp"

namespace wormnet::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

BatchControl::BatchControl(const Communicator& comm, const BatchConfig& batch, std::string dir,
                           io::RunProgress base, io::ResultWriter* writer, bool quiet,
                           Cycle planned_cycles, std::optional<io::OutputFile> checkpoint,
                           std::uint64_t nodes)
    : comm_(comm),
      batch_(batch),
      start_(Clock::now()),
      last_checkpoint_(start_),
      last_check_(start_),
      printer_(comm.is_root() && !quiet, shown_progress_mode(batch.progress),
               batch.progress_seconds, planned_cycles, nodes, start_),
      checkpoints_(comm, std::move(dir), std::move(base), writer, std::move(checkpoint)),
      results_(writer, printer_) {}

void BatchControl::set_point(int index, double rate, std::int64_t left_after_saturation) {
  checkpoints_.set_point(index, rate, left_after_saturation);
  printer_.set_point(index);
  // A point counts its cycles from 0: --checkpoint-every N's multiples start again with it
  // (the first check of the point sets the first one, as at the start of a run).
  next_checkpoint_cycle_ = 0;
}

RunHooks::Action BatchControl::at_check(Cycle t) {
  const double check_seconds = seconds_since(last_check_);
  last_check_ = Clock::now();
  // Wall-clock decisions are rank 0's (clocks differ); signals may reach any rank.
  std::uint64_t flags[3] = {stop_signalled() ? 1U : 0U, 0, 0};
  if (comm_.is_root()) {
    const CheckClocks clocks{seconds_since(start_), seconds_since(last_checkpoint_), check_seconds,
                             checkpoint_seconds_};
    const ClockFlags mine = clock_flags(batch_, clocks);
    flags[1] = mine.walltime_near ? 1U : 0U;
    flags[2] = mine.period_elapsed ? 1U : 0U;
  }
  comm_.max(std::span<std::uint64_t>(flags, 3));
  const CheckDecision d = decide_check(batch_, t, next_checkpoint_cycle_, flags[0] != 0,
                                       ClockFlags{flags[1] != 0, flags[2] != 0});
  next_checkpoint_cycle_ = d.next_checkpoint_cycle;
  printer_.at_check(t);
  if (d.stop) return Action::kCheckpointAndStop;
  return d.checkpoint ? Action::kCheckpoint : Action::kContinue;
}

void BatchControl::save(const LoopState& loop, const ModelSnapshot& mine) {
  checkpoint_seconds_ = checkpoints_.write(loop, mine);
  last_checkpoint_ = Clock::now();
  printer_.checkpoint_written(checkpoints_.path(), loop.cycle, checkpoint_seconds_);
}

}  // namespace wormnet::cli
