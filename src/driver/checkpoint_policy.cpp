#include "wormnet/driver/checkpoint_policy.hpp"

#include <algorithm>

namespace wormnet {

double walltime_margin(const CheckpointPolicy& policy, const CheckClocks& clocks) {
  return std::max({2 * clocks.check_seconds, 2 * clocks.checkpoint_seconds,
                   std::min(0.05 * policy.walltime_seconds, 300.0)});
}

ClockFlags clock_flags(const CheckpointPolicy& policy, const CheckClocks& clocks) {
  ClockFlags f;
  if (policy.walltime_seconds > 0) {
    f.walltime_near = clocks.elapsed + walltime_margin(policy, clocks) >= policy.walltime_seconds;
  }
  f.period_elapsed = policy.every_seconds > 0 && clocks.since_checkpoint >= policy.every_seconds;
  return f;
}

CheckDecision decide_check(const CheckpointPolicy& policy, Cycle t, Cycle next_checkpoint_cycle,
                           bool signal, ClockFlags clocks) {
  CheckDecision d;
  const Cycle n = policy.every_cycles;
  d.next_checkpoint_cycle = next_checkpoint_cycle;
  if (n > 0 && d.next_checkpoint_cycle == 0) d.next_checkpoint_cycle = (t / n + 1) * n;
  const bool at_stop_cycle = policy.stop_at_cycle > 0 && t >= policy.stop_at_cycle;
  const bool by_cycles = n > 0 && t >= d.next_checkpoint_cycle;
  if (by_cycles) d.next_checkpoint_cycle = (t / n + 1) * n;
  d.stop = signal || clocks.walltime_near || at_stop_cycle;
  d.checkpoint = by_cycles || clocks.period_elapsed;
  d.why = signal                  ? CheckReason::kSignal
          : clocks.walltime_near  ? CheckReason::kWalltime
          : at_stop_cycle         ? CheckReason::kStopAtCycle
          : by_cycles             ? CheckReason::kEveryCycles
          : clocks.period_elapsed ? CheckReason::kEverySeconds
                                  : CheckReason::kNone;
  return d;
}

}  // namespace wormnet
