// The session's point loop on one rank, without files: which points run (after saturation,
// after a deadlock, from a restart), what the command line is told, and the exit status.
#include "wormnet/driver/run_session.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wormnet {
namespace {

/// What the command line would print, as events.
class RecordingReport final : public SessionReport {
 public:
  void point_starts(int index, double /*rate*/, std::int64_t left) override {
    started.push_back(index);
    lefts.push_back(left);
  }
  void stopped(std::size_t index, Cycle cycle) override {
    events.push_back("stopped " + std::to_string(index) + " at " + std::to_string(cycle));
  }
  void point_done(std::size_t index, const RunSummary& s) override {
    events.push_back("point " + std::to_string(index) + (s.saturated ? " saturated" : "") +
                     (s.deadlock ? " deadlock" : ""));
  }
  void workload_done(const CompletionReport& /*report*/, const MessageGraph& /*graph*/) override {
    events.push_back("workload");
  }
  void finished() override { events.push_back("finished"); }
  std::vector<int> started;
  std::vector<std::int64_t> lefts;
  std::vector<std::string> events;
};

/// Stops the run at its first control check (as a signal would); saves nothing.
class StopAtFirstCheck final : public RunHooks {
 public:
  Action at_check(Cycle /*t*/) override { return Action::kCheckpointAndStop; }
  void save(const LoopState& /*loop*/, const ModelSnapshot& /*mine*/) override { ++saves; }
  int saves = 0;
};

SimConfig small_torus() {
  SimConfig c;
  c.network.topology = "torus:4x4";
  c.network.routing = "dor-dateline";
  c.measure.warmup = 200;
  c.measure.measure = 500;
  c.measure.stats_window = 500;
  c.measure.deadlock_threshold = 1000;
  // A point far beyond saturation cannot deliver its labelled packets in 100 cycles of
  // drain: flagged saturated. One at 0.01 flits/node/cycle drains at once.
  c.measure.drain_limit = 100;
  return c;
}

struct Outcome {
  int code;
  RecordingReport report;
};

Outcome run(const SimConfig& c, const SessionPoints& points, RunHooks* hooks = nullptr) {
  const Communicator comm = Communicator::self();
  const SimNetwork net = build_network(c, comm);
  Simulation sim = make_simulation(c, net, comm);
  sim.set_hooks(hooks);
  ResultSink sink;
  Outcome o{0, {}};
  o.code = run_points(comm, sim, sink, points, nullptr, nullptr, nullptr, o.report);
  return o;
}

TEST(RunSession, PointsAfterTheFirstSaturatedOneAreCounted) {
  SessionPoints p;
  p.rates = {0.01, 1.0, 1.0, 1.0, 1.0};
  p.after_saturation = 1;  // one point after the first saturated one (point 1): 0, 1, 2
  Outcome o = run(small_torus(), p);
  EXPECT_EQ(o.code, kExitOk);
  EXPECT_EQ(o.report.started, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(o.report.lefts, (std::vector<std::int64_t>{-1, -1, 1}));
  EXPECT_EQ(o.report.events, (std::vector<std::string>{"point 0", "point 1 saturated",
                                                       "point 2 saturated", "finished"}));
  p.after_saturation = 0;  // none after it: 0, 1
  o = run(small_torus(), p);
  EXPECT_EQ(o.report.started, (std::vector<int>{0, 1}));
  p.after_saturation = -1;  // all five
  o = run(small_torus(), p);
  EXPECT_EQ(o.report.started, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(RunSession, ARestartTakesUpItsPointAndWhatWasLeft) {
  SessionPoints p;
  p.rates = {0.01, 1.0, 1.0, 1.0, 1.0};
  p.after_saturation = 2;
  p.first = 3;  // saved at point 3 with one point left after saturation: 3 only
  p.left = 1;
  const Outcome o = run(small_torus(), p);
  EXPECT_EQ(o.code, kExitOk);
  EXPECT_EQ(o.report.started, (std::vector<int>{3}));
  EXPECT_EQ(o.report.lefts, (std::vector<std::int64_t>{1}));
}

TEST(RunSession, AStopEndsTheSessionAtTheFirstCheck) {
  // Checks every min(stats window 500, deadlock threshold / 2 = 500, 128) = 128 cycles: the
  // first is at cycle 128, where the hook stops the run after a checkpoint.
  SessionPoints p;
  p.rates = {0.01, 0.02};
  StopAtFirstCheck hooks;
  const Outcome o = run(small_torus(), p, &hooks);
  EXPECT_EQ(o.code, kExitInterrupted);
  EXPECT_EQ(hooks.saves, 1);
  EXPECT_EQ(o.report.started, (std::vector<int>{0}));
  EXPECT_EQ(o.report.events, (std::vector<std::string>{"stopped 0 at 128"}));
}

TEST(RunSession, ADeadlockEndsTheSessionWithItsExitCode) {
  // One VC and a minimal routing on the honeycomb: its channel dependencies are cyclic
  // (verify's DeadlockVerdict tests), and half a flit per node and cycle closes a cycle.
  SimConfig c;
  c.network.topology = "honeycomb:3";
  c.network.routing = "stojmenovic";
  c.network.vcs = 1;
  c.measure.warmup = 100;
  c.measure.measure = 3000;
  SessionPoints p;
  p.rates = {0.5, 0.01};
  const Outcome o = run(c, p);
  EXPECT_EQ(o.code, kExitDeadlock);
  EXPECT_EQ(o.report.started, (std::vector<int>{0}));
  EXPECT_EQ(o.report.events, (std::vector<std::string>{"point 0 deadlock", "finished"}));
}

}  // namespace
}  // namespace wormnet
