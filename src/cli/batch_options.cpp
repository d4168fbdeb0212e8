#include "batch_options.hpp"

#include "wormnet/core/error.hpp"

namespace wormnet::cli {

void add_batch_options(CLI::App& app, BatchConfig& config, BatchOptionText& text) {
  app.add_option("--checkpoint-every", text.checkpoint_every,
                 "coordinated checkpoint every N cycles, or every Nm / Nh of wall-clock time")
      ->group("Batch");
  app.add_option("--checkpoint-dir", config.checkpoint_dir,
                 "checkpoint directory (default: <output>.checkpoint, or wormnet.checkpoint)")
      ->group("Batch");
  app.add_option("--restart", config.restart, "continue the run saved in this checkpoint directory")
      ->group("Batch");
  app.add_option("--walltime", text.walltime,
                 "HH:MM:SS job time limit: checkpoint and stop cleanly before it")
      ->group("Batch");
  app.add_option("--stop-at-cycle", config.stop_at_cycle,
                 "checkpoint and stop at the first control check from this cycle")
      ->group("Batch");
  app.add_option("--progress-interval", config.progress_seconds,
                 "seconds between progress lines when stdout is not a terminal")
      ->capture_default_str()
      ->group("Batch");
  app.add_option("--progress", text.progress,
                 "auto (a live bar on a terminal, lines in a log and under an MPI launcher), "
                 "bar, lines (one every --progress-interval seconds) or none")
      ->capture_default_str()
      ->group("Batch");
}

void finish_batch_options(const BatchOptionText& text, const std::set<std::string>& given,
                          BatchConfig& config) {
  if (!text.checkpoint_every.empty()) {
    config.checkpoint_every = parse_checkpoint_period(text.checkpoint_every);
  }
  if (!text.walltime.empty()) config.walltime_seconds = parse_walltime(text.walltime);
  if (given.count("--stop-at-cycle") > 0 && config.stop_at_cycle == 0) {
    throw InputError("--stop-at-cycle", "0", "must be >= 1 (the cycle to stop at)");
  }
  config.progress = parse_progress_mode(text.progress);
}

}  // namespace wormnet::cli
