// The batch options of `run` and `sweep` (--checkpoint-every, --checkpoint-dir, --restart,
// --walltime, --stop-at-cycle, --progress-interval, --progress), bound into SimConfig's
// BatchConfig; the three whose text CLI11 cannot type are parsed once, by
// finish_batch_options().
#pragma once

#include <CLI/CLI.hpp>
#include <set>
#include <string>

#include "wormnet/config/batch_config.hpp"

namespace wormnet::cli {

/// The text of the batch options that batch_config.hpp parses ("" = not given).
struct BatchOptionText {
  std::string checkpoint_every;  ///< "N" cycles, or "Nm" / "Nh" of wall-clock time
  std::string walltime;          ///< HH:MM:SS
  std::string progress = "auto";
};

/// Declares the batch options on `app`: the typed ones into `config`, the others into `text`.
void add_batch_options(CLI::App& app, BatchConfig& config, BatchOptionText& text);

/// Parses `text` into `config` and checks what only the command line knows: --stop-at-cycle
/// 0 given (`given`: given_options()) is refused, not taken for "none". InputError naming the
/// option. The values' rules are validate_batch()'s (config_validation.hpp).
void finish_batch_options(const BatchOptionText& text, const std::set<std::string>& given,
                          BatchConfig& config);

}  // namespace wormnet::cli
