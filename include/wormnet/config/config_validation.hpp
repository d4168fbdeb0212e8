// Rules on configuration values. Each broken rule is an InputError naming the option, the
// value and what is allowed; the first one found is thrown (one clear line for the user).
#pragma once

#include "wormnet/config/sim_config.hpp"

namespace wormnet {

/// Rules that need nothing but the values (ranges, orderings); validate_batch() and the
/// workload's included.
void validate_values(const SimConfig& config);

/// The batch options' rules: --progress-interval a finite number > 0 s, --stop-at-cycle at
/// most kMaxCycles (the periods and the wall time are checked when parsed, batch_config.hpp).
void validate_batch(const BatchConfig& batch);

/// The workload's rules on its values alone (nothing when it is kNone): the ranges of the
/// numbers its kind reads and the shape of its --grid. Which options go with which kind is
/// the command line's to say (it knows what was given); the rules that need the network are
/// the workload factory's.
void validate_workload(const WorkloadConfig& workload);

/// `--congestion series` keeps at most kMaxChannelSeriesWindows statistics windows a point:
/// refused when the run may last longer, warm-up + measurement + drain limit for a load
/// point, the drain limit for a closed-loop workload (`workload`), which runs from cycle 0
/// until its messages are delivered, within the drain limit.
void check_channel_series_bound(const MeasureConfig& measure, bool workload);

// The rules that need the built network are checked where the run's plan is derived from it
// (wormnet/plan/run_plan.hpp).

}  // namespace wormnet
