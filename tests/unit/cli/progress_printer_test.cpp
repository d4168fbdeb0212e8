// The progress line's figures against hand-worked cases: the share done, the ETA from a
// cycle rate (1000 cycles in 10 s: 100 cycles/s) and from the drain limit, the accepted
// traffic per node and cycle, the clock's text; the sink in front of the results file feeds
// the line without a file; and --progress auto's choice.
#include "progress_printer.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "result_fan_out.hpp"

namespace wormnet::cli {
namespace {

/// A printer that prints nothing (not rank 0's), of a point of 3000 planned cycles over 7
/// nodes.
ProgressPrinter silent_printer() {
  return ProgressPrinter(false, ProgressMode::kLines, 60.0, 3000, 7, ProgressPrinter::Clock::now());
}

RunHooks::CheckStatus labelled(Cycle t, Cycle window_end, Cycle drain_end, std::uint64_t created,
                               std::uint64_t delivered) {
  RunHooks::CheckStatus s;
  s.cycle = t;
  s.window_end = window_end;
  s.drain_end = drain_end;
  s.labelled_created = created;
  s.labelled_delivered = delivered;
  return s;
}

TEST(ProgressPrinter, ClockText) {
  EXPECT_EQ(clock_text(0), "00:00:00");
  EXPECT_EQ(clock_text(3661.9), "01:01:01");  // whole seconds
  EXPECT_EQ(clock_text(360000), "100:00:00");
  EXPECT_EQ(clock_text(-1), "--:--:--");  // unknown
  EXPECT_EQ(clock_text(1e9), "--:--:--");
  EXPECT_EQ(clock_text(std::numeric_limits<double>::quiet_NaN()), "--:--:--");
}

TEST(ProgressPrinter, ShareDoneOfCyclesMessagesOrTheDrain) {
  ProgressPrinter p = silent_printer();
  EXPECT_EQ(p.percent_text(1500), " 50.0%");  // no status yet: 1500 of 3000 cycles
  EXPECT_EQ(p.percent_text(3000), " 99.9%");  // never 100 % before the summary
  p.check_status(labelled(1000, 3000, 10000, 50, 20));
  EXPECT_EQ(p.percent_text(1000), " 33.3%");
  p.check_status(labelled(3000, 3000, 10000, 50, 20));
  EXPECT_EQ(p.percent_text(3000), "drain");  // from the window's end on
  RunHooks::CheckStatus w;
  w.cycle = 10;  // a new point (its cycle went back): a workload of 120 messages
  w.scripted = true;
  w.messages_total = 120;
  w.messages_delivered = 30;
  p.check_status(w);
  EXPECT_EQ(p.percent_text(10), " 25.0%");
}

TEST(ProgressPrinter, EtaFromTheCycleRateBeforeTheWindowsEnd) {
  ProgressPrinter p = silent_printer();
  // 1000 cycles in 10 s: 100 cycles/s; 2000 cycles left of 3000: 20 s.
  EXPECT_EQ(p.eta_text(1000, 10.0), "eta 00:00:20");
  p.check_status(labelled(1000, 3000, 10000, 50, 20));  // one sample: no recent rate yet
  EXPECT_EQ(p.eta_text(1000, 10.0), "eta 00:00:20");
  EXPECT_EQ(p.eta_text(1000, 0.0), "eta --:--:--");  // no rate at all
}

TEST(ProgressPrinter, EtaOfTheDrainIsBoundedByItsLimit) {
  ProgressPrinter p = silent_printer();
  // The window ended at 500; at 1000 after 10 s (100 cycles/s) the drain limit, cycle 2000,
  // is 1000 cycles = 10 s away; 40 of 100 labelled packets are left, at no known rate yet.
  p.check_status(labelled(1000, 500, 2000, 100, 60));
  EXPECT_EQ(p.eta_text(1000, 10.0),
            "draining: 40 of 100 labelled packets left, eta 00:00:10 (drain limit: cycle 2000, "
            "00:00:10)");
}

TEST(ProgressPrinter, AcceptedTrafficPerNodeAndCycle) {
  ProgressPrinter p = silent_printer();
  WindowRow row;
  row.cycles = 1000;
  row.counters.ejected_flits = 1400;  // over 7 nodes x 1000 cycles: 0.2 flits/node/cycle
  row.counters.ejected_packets = 70;
  row.counters.latency_sum = 70 * 45;
  // Through the sink in front of a results file, without a file.
  ResultFanOut sink(nullptr, p);
  sink.begin_point(0, 0.2);
  sink.window(row);
  EXPECT_DOUBLE_EQ(p.accepted(), 0.2);
  EXPECT_DOUBLE_EQ(p.latency(), 45.0);
  row.cycles = 0;  // an empty window reads 0, not a division by zero
  row.counters = TrafficCounters{};
  sink.window(row);
  EXPECT_DOUBLE_EQ(p.accepted(), 0.0);
  EXPECT_DOUBLE_EQ(p.latency(), 0.0);
  sink.end_point(RunSummary{}, MeasuredStats{}, {});
}

TEST(ProgressPrinter, AutoIsABarOnATerminalWithoutALauncher) {
  EXPECT_EQ(auto_progress_mode(true, false), ProgressMode::kBar);
  EXPECT_EQ(auto_progress_mode(true, true), ProgressMode::kLines);
  EXPECT_EQ(auto_progress_mode(false, false), ProgressMode::kLines);
  EXPECT_EQ(auto_progress_mode(false, true), ProgressMode::kLines);
  EXPECT_EQ(shown_progress_mode(ProgressMode::kNone), ProgressMode::kNone);
  EXPECT_EQ(shown_progress_mode(ProgressMode::kBar), ProgressMode::kBar);
  EXPECT_NE(shown_progress_mode(ProgressMode::kAuto), ProgressMode::kAuto);
}

}  // namespace
}  // namespace wormnet::cli
