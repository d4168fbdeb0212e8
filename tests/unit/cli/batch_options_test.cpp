// The batch options from a command line to BatchConfig: the typed ones bound by CLI11, the
// text ones parsed once (batch_config.hpp), --stop-at-cycle 0 refused when given.
#include "batch_options.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet::cli {
namespace {

/// `args` parsed as `run`'s batch options would be; `given`: the options given.
BatchConfig parsed(std::vector<std::string> args, const std::set<std::string>& given) {
  BatchConfig config;
  BatchOptionText text;
  CLI::App app{"test"};
  add_batch_options(app, config, text);
  args.insert(args.begin(), "test");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  finish_batch_options(text, given, config);
  return config;
}

TEST(BatchOptions, DefaultsPlanNothing) {
  const BatchConfig b = parsed({}, {});
  EXPECT_FALSE(b.plans_checkpoints());
  EXPECT_EQ(b.progress, ProgressMode::kAuto);
  EXPECT_DOUBLE_EQ(b.progress_seconds, 60.0);
  EXPECT_TRUE(b.checkpoint_dir.empty());
  EXPECT_TRUE(b.restart.empty());
}

TEST(BatchOptions, EveryOptionReachesItsField) {
  const BatchConfig b =
      parsed({"--checkpoint-every", "90m", "--walltime", "00:30:00", "--stop-at-cycle", "5000",
              "--progress", "lines", "--progress-interval", "2.5", "--checkpoint-dir", "ck",
              "--restart", "old"},
             {"--checkpoint-every", "--walltime", "--stop-at-cycle", "--progress"});
  EXPECT_EQ(b.checkpoint_every, (CheckpointPeriod{0, 5400}));
  EXPECT_EQ(b.walltime_seconds, 1800U);
  EXPECT_EQ(b.stop_at_cycle, 5000U);
  EXPECT_EQ(b.progress, ProgressMode::kLines);
  EXPECT_DOUBLE_EQ(b.progress_seconds, 2.5);
  EXPECT_EQ(b.checkpoint_dir, "ck");
  EXPECT_EQ(b.restart, "old");
  EXPECT_EQ(parsed({"--checkpoint-every", "1500"}, {}).checkpoint_every,
            (CheckpointPeriod{1500, 0}));
  // An empty text is no period (as a config file's checkpoint-every = "" was).
  EXPECT_TRUE(parsed({"--checkpoint-every", ""}, {}).checkpoint_every.none());
}

TEST(BatchOptions, StopAtCycleZeroGivenIsRefused) {
  EXPECT_NO_THROW(parsed({}, {}));  // not given: no stop cycle
  try {
    parsed({"--stop-at-cycle", "0"}, {"--stop-at-cycle"});
    ADD_FAILURE() << "--stop-at-cycle 0 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--stop-at-cycle");
    EXPECT_EQ(e.value(), "0");
    EXPECT_EQ(e.allowed(), "must be >= 1 (the cycle to stop at)");
  }
  EXPECT_THROW(parsed({"--walltime", "25:61:00"}, {}), InputError);
  EXPECT_THROW(parsed({"--progress", "sometimes"}, {}), InputError);
}

}  // namespace
}  // namespace wormnet::cli
