// When a batch run checkpoints and when it stops (--checkpoint-every, --walltime,
// --stop-at-cycle, a stop signal: the typed BatchConfig), decided at each control check from the
// cycle, the wall clocks and the flags: pure functions, without MPI. The ranks' clocks differ, so
// the caller lets rank 0 read the clocks (clock_flags) and makes the ranks agree (the maximum of
// the flags) before deciding (decide_check), which every rank then does alike.
#pragma once

#include <cstdint>

#include "wormnet/config/batch_config.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

/// The wall clocks at a control check, in seconds.
struct CheckClocks {
  double elapsed = 0.0;             ///< since the run started
  double since_checkpoint = 0.0;    ///< since the last checkpoint ended (or the run started)
  double check_seconds = 0.0;       ///< between this control check and the one before
  double checkpoint_seconds = 0.0;  ///< how long the last checkpoint took (0: none yet)
};

/// What the clocks say at a check (rank 0's reading, made common to the ranks).
struct ClockFlags {
  bool walltime_near = false;   ///< the wall-time limit is within the margin
  bool period_elapsed = false;  ///< --checkpoint-every's wall-clock period has passed
};

/// The time kept before the wall-time limit, seconds: twice the last check interval, twice
/// the last checkpoint's duration, and 5 % of the limit up to 5 minutes, whichever is
/// largest (the run must reach the next check and write its checkpoint before the limit).
double walltime_margin(const BatchConfig& batch, const CheckClocks& clocks);

/// Rank 0's reading of its clocks.
ClockFlags clock_flags(const BatchConfig& batch, const CheckClocks& clocks);

/// Why a check checkpoints or stops; the first that holds, in this order.
enum class CheckReason : std::uint8_t {
  kNone,         ///< neither
  kSignal,       ///< a stop signal reached a rank (stop)
  kWalltime,     ///< the wall-time limit is near (stop)
  kStopAtCycle,  ///< --stop-at-cycle reached (stop)
  kEveryCycles,  ///< a multiple of --checkpoint-every N reached (checkpoint)
  kEverySeconds  ///< --checkpoint-every Nm / Nh elapsed (checkpoint)
};

struct CheckDecision {
  bool checkpoint = false;  ///< write a checkpoint and continue
  bool stop = false;        ///< write a checkpoint and stop (whatever `checkpoint` says)
  CheckReason why = CheckReason::kNone;
  /// The next multiple of the period in cycles that checkpoints, to pass to the next check (0 while
  /// there is no period in cycles).
  Cycle next_checkpoint_cycle = 0;
};

/// The decision at the control check of cycle `t`. `next_checkpoint_cycle`: the previous
/// decision's (0 at the first check: the first check only sets the first multiple of the
/// period in cycles after `t`, it never checkpoints by cycles). `signal`: a stop signal reached
/// some rank; `clocks`: the flags agreed from rank 0's clocks.
CheckDecision decide_check(const BatchConfig& batch, Cycle t, Cycle next_checkpoint_cycle,
                           bool signal, ClockFlags clocks);

}  // namespace wormnet
