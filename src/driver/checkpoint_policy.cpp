#include "wormnet/driver/checkpoint_policy.hpp"

#include <algorithm>

namespace wormnet {

double walltime_margin(const BatchConfig& batch, const CheckClocks& clocks) {
  const auto limit = static_cast<double>(batch.walltime_seconds);
  return std::max(
      {2 * clocks.check_seconds, 2 * clocks.checkpoint_seconds, std::min(0.05 * limit, 300.0)});
}

ClockFlags clock_flags(const BatchConfig& batch, const CheckClocks& clocks) {
  ClockFlags f;
  if (batch.walltime_seconds > 0) {
    f.walltime_near = clocks.elapsed + walltime_margin(batch, clocks) >=
                      static_cast<double>(batch.walltime_seconds);
  }
  const std::uint64_t period = batch.checkpoint_every.wall_seconds;
  f.period_elapsed = period > 0 && clocks.since_checkpoint >= static_cast<double>(period);
  return f;
}

CheckDecision decide_check(const BatchConfig& batch, Cycle t, Cycle next_checkpoint_cycle,
                           bool signal, ClockFlags clocks) {
  CheckDecision d;
  const Cycle n = batch.checkpoint_every.cycles;
  d.next_checkpoint_cycle = next_checkpoint_cycle;
  if (n > 0 && d.next_checkpoint_cycle == 0) d.next_checkpoint_cycle = (t / n + 1) * n;
  const bool at_stop_cycle = batch.stop_at_cycle > 0 && t >= batch.stop_at_cycle;
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
