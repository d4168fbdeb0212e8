// How a batch job operates a run (docs: README, "Batch jobs"): periodic checkpoints, the
// wall-time limit, a stop cycle, where checkpoints go and the progress display. None of it
// changes what is simulated: the stored configuration (the TOML of results files and
// checkpoints, which a restart compares) leaves it out, and a restart may change any of it.
// The command line's text ("90m", "23:30:00", "lines") is parsed once, here.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "wormnet/core/enum_names.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

/// How the progress is shown (--progress).
enum class ProgressMode : std::uint8_t {
  /// A bar on a terminal that no MPI launcher stands between it and the user, lines
  /// otherwise (resolved by the command line when the run starts).
  kAuto,
  kBar,    ///< one line rewritten in place (\r), for a terminal
  kLines,  ///< a new line every --progress-interval seconds, for a log file
  kNone,   ///< nothing (no checkpoint lines either)
};
inline constexpr EnumName<ProgressMode> kProgressModeNames[] = {
    {ProgressMode::kAuto, "auto", "a bar on a terminal, lines in a log and under an MPI launcher"},
    {ProgressMode::kBar, "bar", "one line rewritten in place"},
    {ProgressMode::kLines, "lines", "a line every --progress-interval seconds"},
    {ProgressMode::kNone, "none", "no progress"},
};
constexpr std::span<const EnumName<ProgressMode>> enum_names(ProgressMode) {
  return kProgressModeNames;
}

/// --checkpoint-every: a period in simulated cycles ("N") or in wall-clock time ("Nm",
/// "Nh"). At most one of the two is set; neither: no periodic checkpoint.
struct CheckpointPeriod {
  Cycle cycles = 0;                ///< every this many cycles; 0 = not by cycles
  std::uint64_t wall_seconds = 0;  ///< every this many seconds of wall-clock time; 0 = not
  [[nodiscard]] bool none() const { return cycles == 0 && wall_seconds == 0; }
  friend bool operator==(const CheckpointPeriod&, const CheckpointPeriod&) = default;
};

/// The longest wall-clock period --checkpoint-every takes: ten years, in minutes and hours.
inline constexpr std::uint64_t kMaxPeriodMinutes = 5256000;
inline constexpr std::uint64_t kMaxPeriodHours = 87600;
/// The largest hour count of --walltime HH:MM:SS.
inline constexpr std::uint64_t kMaxWalltimeHours = 99999;

struct BatchConfig {
  CheckpointPeriod checkpoint_every;   ///< --checkpoint-every
  std::uint64_t walltime_seconds = 0;  ///< --walltime: the job's wall-time limit; 0 = none
  Cycle stop_at_cycle = 0;     ///< --stop-at-cycle: checkpoint and stop at the first check from it
  std::string checkpoint_dir;  ///< --checkpoint-dir as given ("": checkpoint_directory()'s)
  std::string restart;         ///< --restart: the checkpoint directory to continue from
  double progress_seconds = 60.0;  ///< --progress-interval: seconds between progress lines
  ProgressMode progress = ProgressMode::kAuto;  ///< --progress

  /// Whether the run may write a checkpoint without a signal asking for one.
  [[nodiscard]] bool plans_checkpoints() const {
    return !checkpoint_every.none() || walltime_seconds > 0 || stop_at_cycle > 0;
  }
};

/// --checkpoint-every's text: "N" cycles (1 to kMaxCycles), "Nm" minutes (up to
/// kMaxPeriodMinutes) or "Nh" hours (up to kMaxPeriodHours), N in decimal digits (leading
/// zeros allowed). InputError naming --checkpoint-every otherwise, a number beyond 2^64 - 1
/// included (refused with the limit it exceeds).
CheckpointPeriod parse_checkpoint_period(std::string_view text);

/// --walltime's text "HH:MM:SS" in seconds, above zero: hours up to kMaxWalltimeHours, minutes
/// and seconds up to 59, each in decimal digits. InputError naming --walltime otherwise.
std::uint64_t parse_walltime(std::string_view text);

/// --progress's text, one of kProgressModeNames exactly. InputError naming --progress
/// otherwise.
ProgressMode parse_progress_mode(std::string_view text);

/// Where the checkpoints of a run go: --checkpoint-dir, else the --restart directory, else
/// `output` + ".checkpoint" (`output`: the results file, "" for none), else
/// "wormnet.checkpoint"; without trailing slashes.
std::string checkpoint_directory(const BatchConfig& batch, const std::string& output);

}  // namespace wormnet
