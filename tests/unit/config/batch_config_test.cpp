// The batch options' parsers against hand-worked values: periods in cycles and in wall-clock
// time (90m = 90 x 60 s = 5400 s, 2h = 7200 s), wall-time limits (00:30:00 = 1800 s,
// 99999:59:59 = 99999 x 3600 + 59 x 60 + 59 s), the refusals with the option, the value and
// the rule, the progress modes' one table and the checkpoint directory's defaults.
#include "wormnet/config/batch_config.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>

#include "wormnet/config/config_validation.hpp"
#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

/// The message of the InputError `f` throws ("" when it throws none), checked to name
/// `option` and the value `value`.
template <class F>
std::string refusal(F f, const std::string& option, const std::string& value) {
  try {
    f();
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), option);
    EXPECT_EQ(e.value(), value);
    return e.allowed();
  }
  return "";
}

std::string period_refusal(const std::string& text) {
  return refusal([&] { parse_checkpoint_period(text); }, "--checkpoint-every", text);
}

std::string walltime_refusal(const std::string& text) {
  return refusal([&] { parse_walltime(text); }, "--walltime", text);
}

TEST(CheckpointPeriod, CyclesMinutesAndHours) {
  EXPECT_EQ(parse_checkpoint_period("1500"), (CheckpointPeriod{1500, 0}));
  EXPECT_EQ(parse_checkpoint_period("1"), (CheckpointPeriod{1, 0}));
  EXPECT_EQ(parse_checkpoint_period("90m"), (CheckpointPeriod{0, 5400}));
  EXPECT_EQ(parse_checkpoint_period("2h"), (CheckpointPeriod{0, 7200}));
  EXPECT_EQ(parse_checkpoint_period("007m"), (CheckpointPeriod{0, 420}));  // leading zeros
  // The limits themselves: 2^62 cycles, ten years as 5256000 min = 87600 h = 315360000 s.
  EXPECT_EQ(parse_checkpoint_period("4611686018427387904"),
            (CheckpointPeriod{std::uint64_t{1} << 62, 0}));
  EXPECT_EQ(parse_checkpoint_period("5256000m"), (CheckpointPeriod{0, 315360000}));
  EXPECT_EQ(parse_checkpoint_period("87600h"), (CheckpointPeriod{0, 315360000}));
  EXPECT_TRUE(CheckpointPeriod{}.none());
  EXPECT_FALSE(parse_checkpoint_period("2h").none());
}

TEST(CheckpointPeriod, RefusesWhatIsNoPositiveNumberWithAUnit) {
  const std::string shape = "expected a positive number of cycles, or minutes / hours as Nm / Nh";
  for (const char* text : {"0", "0m", "0h", "5x", "-3", "m", "h", "", "1.5h", "+5", " 5", "5 ",
                           "5s", "5mm", "1e3", "0x10"}) {
    EXPECT_EQ(period_refusal(text), shape) << text;
  }
}

TEST(CheckpointPeriod, RefusesBeyondItsLimitsNamingThem) {
  EXPECT_EQ(period_refusal("4611686018427387905"), "at most 4611686018427387904 cycles");
  EXPECT_EQ(period_refusal("5256001m"), "at most 5256000m (ten years)");
  EXPECT_EQ(period_refusal("87601h"), "at most 87600h (ten years)");
  // Beyond 2^64 - 1 (no overflow to a small number, no internal error): the same limits.
  EXPECT_EQ(period_refusal("18446744073709551616"), "at most 4611686018427387904 cycles");
  EXPECT_EQ(period_refusal("99999999999999999999m"), "at most 5256000m (ten years)");
  EXPECT_EQ(period_refusal("99999999999999999999h"), "at most 87600h (ten years)");
  EXPECT_EQ(period_refusal("00000000000000000000000000000000000005000000h"),
            "at most 87600h (ten years)");
}

TEST(Walltime, HoursMinutesSecondsInSeconds) {
  EXPECT_EQ(parse_walltime("00:30:00"), 1800U);
  EXPECT_EQ(parse_walltime("23:30:00"), 84600U);
  EXPECT_EQ(parse_walltime("0:0:1"), 1U);
  EXPECT_EQ(parse_walltime("1:00:00"), 3600U);
  EXPECT_EQ(parse_walltime("48:00:30"), 172830U);
  EXPECT_EQ(parse_walltime("99999:59:59"), 359999999U);  // 99999 x 3600 + 3540 + 59
}

TEST(Walltime, RefusesAnythingElse) {
  const std::string rule =
      "expected HH:MM:SS above zero (e.g. 23:30:00): hours up to 99999, minutes and seconds "
      "up to 59";
  for (const char* text :
       {"00:00:00", "25:61:00", "1:60:00", "1:00:60", "100000:00:00", "1", "1:00", "1:00:00:00",
        "a:b:c", "-1:00:00", ":00:00", "1::00", "1:00:", " 1:00:00", "1:00:00 ", "1.5:00:00",
        "99999999999999999999:00:00", "1:99999999999999999999:00", ""}) {
    EXPECT_EQ(walltime_refusal(text), rule) << text;
  }
}

TEST(ProgressModes, OneTableReadBothWays) {
  EXPECT_EQ(parse_progress_mode("auto"), ProgressMode::kAuto);
  EXPECT_EQ(parse_progress_mode("bar"), ProgressMode::kBar);
  EXPECT_EQ(parse_progress_mode("lines"), ProgressMode::kLines);
  EXPECT_EQ(parse_progress_mode("none"), ProgressMode::kNone);
  for (const ProgressMode m :
       {ProgressMode::kAuto, ProgressMode::kBar, ProgressMode::kLines, ProgressMode::kNone}) {
    EXPECT_EQ(parse_progress_mode(enum_name(m)), m);
    EXPECT_STRNE(enum_help(m), "?");
  }
  for (const char* text : {"sometimes", "", "Bar", "LINES", " none"}) {
    EXPECT_EQ(refusal([&] { parse_progress_mode(text); }, "--progress", text),
              "allowed: auto, bar, lines, none")
        << text;
  }
}

TEST(BatchConfig, WhatPlansCheckpoints) {
  BatchConfig b;
  EXPECT_FALSE(b.plans_checkpoints());
  b.checkpoint_every = parse_checkpoint_period("10m");
  EXPECT_TRUE(b.plans_checkpoints());
  b = BatchConfig{};
  b.checkpoint_every = parse_checkpoint_period("100");
  EXPECT_TRUE(b.plans_checkpoints());
  b = BatchConfig{};
  b.walltime_seconds = parse_walltime("00:00:01");
  EXPECT_TRUE(b.plans_checkpoints());
}

/// A configuration with --checkpoint-dir `dir` and --restart `restart` ("": not given).
BatchConfig with_dirs(std::string dir, std::string restart) {
  BatchConfig b;
  b.checkpoint_dir = std::move(dir);
  b.restart = std::move(restart);
  return b;
}

TEST(BatchConfig, CheckpointDirectoryDefaults) {
  EXPECT_EQ(checkpoint_directory(with_dirs("", ""), ""), "wormnet.checkpoint");
  EXPECT_EQ(checkpoint_directory(with_dirs("", ""), "out/r.h5"), "out/r.h5.checkpoint");
  // A restart writes where it read; --checkpoint-dir comes first; no trailing slashes.
  EXPECT_EQ(checkpoint_directory(with_dirs("", "old/ck//"), "out/r.h5"), "old/ck");
  EXPECT_EQ(checkpoint_directory(with_dirs("new/ck/", "old/ck"), "out/r.h5"), "new/ck");
  EXPECT_EQ(checkpoint_directory(with_dirs("/", ""), ""), "/");
}

TEST(BatchConfig, ValidatedWithTheRest) {
  SimConfig c;
  EXPECT_NO_THROW(validate_values(c));
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
    c.batch.progress_seconds = bad;
    EXPECT_THROW(validate_values(c), InputError);
  }
  c.batch.progress_seconds = 0.5;
  c.batch.stop_at_cycle = (std::uint64_t{1} << 62) + 1;
  EXPECT_EQ(refusal([&] { validate_values(c); }, "--stop-at-cycle", "4611686018427387905"),
            "at most 4611686018427387904 cycles");
  c.batch.stop_at_cycle = std::uint64_t{1} << 62;
  EXPECT_NO_THROW(validate_batch(c.batch));
}

}  // namespace
}  // namespace wormnet
