// The checkpoint policy against hand-worked schedules: which control checks checkpoint, which
// stop, and why (checks every 256 or 500 cycles, periods of 1000 cycles or 10 minutes, wall
// times of 1 h and 10 h).
#include "wormnet/driver/checkpoint_policy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace wormnet {
namespace {

/// The cycles among `checks` (in order, one run) at which the policy checkpoints by cycles.
std::vector<Cycle> checkpoint_cycles(const BatchConfig& p, const std::vector<Cycle>& checks) {
  std::vector<Cycle> out;
  Cycle next = 0;
  for (const Cycle t : checks) {
    const CheckDecision d = decide_check(p, t, next, false, {});
    if (d.checkpoint) out.push_back(t);
    next = d.next_checkpoint_cycle;
  }
  return out;
}

std::vector<Cycle> every(Cycle step, Cycle from, Cycle to) {
  std::vector<Cycle> v;
  for (Cycle t = from; t <= to; t += step) v.push_back(t);
  return v;
}

TEST(CheckpointPolicy, EveryNCyclesCheckpointsAtTheFirstCheckPastEachMultiple) {
  BatchConfig p;
  p.checkpoint_every.cycles = 1000;
  // Checks at 256, 512, ...: the multiples 1000, 2000, 3000 are first passed at 1024, 2048,
  // 3072 (4 x 256 = 1024 >= 1000; 8 x 256 = 2048 >= 2000; 12 x 256 = 3072 >= 3000).
  EXPECT_EQ(checkpoint_cycles(p, every(256, 256, 3500)), (std::vector<Cycle>{1024, 2048, 3072}));
  // Checks at 500, 1000, ...: a check on a multiple checkpoints there (t >= the multiple).
  EXPECT_EQ(checkpoint_cycles(p, every(500, 500, 3000)), (std::vector<Cycle>{1000, 2000, 3000}));
}

TEST(CheckpointPolicy, TheFirstCheckOnlySetsTheNextMultiple) {
  BatchConfig p;
  p.checkpoint_every.cycles = 1000;
  // A first check on a multiple (1000) does not checkpoint: the next one is 2000.
  CheckDecision d = decide_check(p, 1000, 0, false, {});
  EXPECT_FALSE(d.checkpoint);
  EXPECT_EQ(d.next_checkpoint_cycle, 2000U);
  // A restart's first check at 5500: the next multiple is 6000; 5999 does not reach it.
  d = decide_check(p, 5500, 0, false, {});
  EXPECT_FALSE(d.checkpoint);
  EXPECT_EQ(d.next_checkpoint_cycle, 6000U);
  d = decide_check(p, 5999, d.next_checkpoint_cycle, false, {});
  EXPECT_FALSE(d.checkpoint);
  EXPECT_EQ(d.why, CheckReason::kNone);
  // A check that skips a multiple (6000 and 7000 both passed at 7300) checkpoints once and
  // aims at the multiple after it, 8000.
  d = decide_check(p, 7300, 6000, false, {});
  EXPECT_TRUE(d.checkpoint);
  EXPECT_FALSE(d.stop);
  EXPECT_EQ(d.why, CheckReason::kEveryCycles);
  EXPECT_EQ(d.next_checkpoint_cycle, 8000U);
}

TEST(CheckpointPolicy, WalltimeMarginIsTheLargestOfItsThreeTerms) {
  BatchConfig p;
  p.walltime_seconds = 3600;  // 1 h: 5 % is 180 s
  CheckClocks c;
  c.check_seconds = 10;
  c.checkpoint_seconds = 30;
  EXPECT_DOUBLE_EQ(walltime_margin(p, c), 180.0);  // max(20, 60, 180)
  c.checkpoint_seconds = 200;
  EXPECT_DOUBLE_EQ(walltime_margin(p, c), 400.0);  // max(20, 400, 180): a slow checkpoint
  c.check_seconds = 250;
  EXPECT_DOUBLE_EQ(walltime_margin(p, c), 500.0);  // max(500, 400, 180): slow checks
  p.walltime_seconds = 36000;                      // 10 h: 5 % is 1800 s, capped at 300 s
  c.check_seconds = 1;
  c.checkpoint_seconds = 1;
  EXPECT_DOUBLE_EQ(walltime_margin(p, c), 300.0);
}

TEST(CheckpointPolicy, WalltimeStopsOnceTheMarginReachesTheLimit) {
  BatchConfig p;
  p.walltime_seconds = 3600;
  CheckClocks c;
  c.check_seconds = 10;
  c.checkpoint_seconds = 30;  // margin 180 s: the limit is near from 3420 s on
  c.elapsed = 3419;
  EXPECT_FALSE(clock_flags(p, c).walltime_near);
  c.elapsed = 3420;
  const ClockFlags f = clock_flags(p, c);
  EXPECT_TRUE(f.walltime_near);
  EXPECT_FALSE(f.period_elapsed);
  const CheckDecision d = decide_check(p, 4096, 0, false, f);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.why, CheckReason::kWalltime);
  // A checkpoint that took 200 s moves the stop 220 s earlier (margin 400 s: from 3200 s).
  c.checkpoint_seconds = 200;
  c.elapsed = 3199;
  EXPECT_FALSE(clock_flags(p, c).walltime_near);
  c.elapsed = 3200;
  EXPECT_TRUE(clock_flags(p, c).walltime_near);
  // No limit: never near, however long the run.
  p.walltime_seconds = 0;
  c.elapsed = 1e9;
  EXPECT_FALSE(clock_flags(p, c).walltime_near);
}

TEST(CheckpointPolicy, PeriodInWallTimeCheckpointsWithoutStopping) {
  BatchConfig p;
  p.checkpoint_every.wall_seconds = 600;  // --checkpoint-every 10m
  CheckClocks c;
  c.elapsed = 5000;
  c.since_checkpoint = 599.9;
  EXPECT_FALSE(clock_flags(p, c).period_elapsed);
  c.since_checkpoint = 600;
  const ClockFlags f = clock_flags(p, c);
  EXPECT_TRUE(f.period_elapsed);
  EXPECT_FALSE(f.walltime_near);
  const CheckDecision d = decide_check(p, 777, 0, false, f);
  EXPECT_TRUE(d.checkpoint);
  EXPECT_FALSE(d.stop);
  EXPECT_EQ(d.why, CheckReason::kEverySeconds);
  EXPECT_EQ(d.next_checkpoint_cycle, 0U);  // no period in cycles
}

TEST(CheckpointPolicy, SignalStopsAndOutranksEveryOtherReason) {
  BatchConfig p;
  // No setting at all: a signal alone stops (the checkpoint is claimed then).
  CheckDecision d = decide_check(p, 128, 0, true, {});
  EXPECT_TRUE(d.stop);
  EXPECT_FALSE(d.checkpoint);
  EXPECT_EQ(d.why, CheckReason::kSignal);
  // On a multiple of the period, with the wall time near and the stop cycle passed.
  p.checkpoint_every.cycles = 1000;
  p.stop_at_cycle = 1500;
  p.walltime_seconds = 60;
  d = decide_check(p, 2000, 2000, true, ClockFlags{true, false});
  EXPECT_TRUE(d.stop);
  EXPECT_TRUE(d.checkpoint);
  EXPECT_EQ(d.why, CheckReason::kSignal);
  EXPECT_EQ(d.next_checkpoint_cycle, 3000U);
  d = decide_check(p, 2000, 2000, false, ClockFlags{true, false});
  EXPECT_EQ(d.why, CheckReason::kWalltime);
  d = decide_check(p, 2000, 2000, false, {});
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.why, CheckReason::kStopAtCycle);
}

TEST(CheckpointPolicy, StopAtCycleStopsAtTheFirstCheckFromIt) {
  BatchConfig p;
  p.stop_at_cycle = 5000;
  // Checks every 1024 cycles: 4096 < 5000 continues, 5120 is the first from 5000.
  EXPECT_FALSE(decide_check(p, 4096, 0, false, {}).stop);
  const CheckDecision d = decide_check(p, 5120, 0, false, {});
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.why, CheckReason::kStopAtCycle);
  EXPECT_TRUE(decide_check(p, 5000, 0, false, {}).stop);  // a check on the cycle itself
}

TEST(CheckpointPolicy, WhatPlansCheckpoints) {
  BatchConfig p;
  EXPECT_FALSE(p.plans_checkpoints());
  EXPECT_EQ(decide_check(p, 1 << 20, 0, false, {}).why, CheckReason::kNone);
  p.stop_at_cycle = 1;
  EXPECT_TRUE(p.plans_checkpoints());
  p = BatchConfig{};
  p.walltime_seconds = 1;
  EXPECT_TRUE(p.plans_checkpoints());
}

}  // namespace
}  // namespace wormnet
