#include "progress_printer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "wormnet/parallel/launcher.hpp"

namespace wormnet::cli {

namespace {

/// The line's rates (cycles and deliveries per second) come from samples of the control
/// checks at least kSampleSeconds apart, over the last kRateWindow seconds.
constexpr double kSampleSeconds = 0.25;
constexpr double kRateWindow = 4.0;

double seconds_since(ProgressPrinter::Clock::time_point t) {
  return std::chrono::duration<double>(ProgressPrinter::Clock::now() - t).count();
}

}  // namespace

ProgressMode auto_progress_mode(bool stdout_is_terminal, bool under_launcher) {
  return stdout_is_terminal && !under_launcher ? ProgressMode::kBar : ProgressMode::kLines;
}

ProgressMode shown_progress_mode(ProgressMode asked) {
  if (asked != ProgressMode::kAuto) return asked;
  return auto_progress_mode(isatty(STDOUT_FILENO) != 0, started_by_launcher());
}

std::string clock_text(double s) {
  if (!(s >= 0) || s > 1e8) return "--:--:--";
  const auto total = static_cast<long long>(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
  return buf;
}

ProgressPrinter::ProgressPrinter(bool printing, ProgressMode mode, double interval_seconds,
                                 Cycle planned_cycles, std::uint64_t nodes, Clock::time_point start)
    : printing_(printing && mode != ProgressMode::kNone),
      terminal_(mode == ProgressMode::kBar),
      interval_seconds_(interval_seconds),
      planned_cycles_(planned_cycles),
      nodes_(std::max<std::uint64_t>(1, nodes)),
      start_(start),
      last_line_(start) {}

void ProgressPrinter::check_status(const RunHooks::CheckStatus& status) {
  const auto now = Clock::now();
  if (have_status_ && status.cycle < status_.cycle) samples_.clear();  // a new point
  status_ = status;
  have_status_ = true;
  const std::uint64_t delivered =
      status.scripted ? status.messages_delivered : status.labelled_delivered;
  if (samples_.empty() ||
      std::chrono::duration<double>(now - samples_.back().time).count() >= kSampleSeconds) {
    samples_.push_back(Sample{now, status.cycle, delivered});
  }
  while (samples_.size() > 2 &&
         std::chrono::duration<double>(now - samples_.front().time).count() > kRateWindow) {
    samples_.pop_front();
  }
}

void ProgressPrinter::window(const WindowRow& row) {
  latency_ = row.counters.ejected_packets ? static_cast<double>(row.counters.latency_sum) /
                                                static_cast<double>(row.counters.ejected_packets)
                                          : 0.0;
  // Flits/node/cycle, as the summary and the file's "accepted" column: the window's ejected
  // flits over N nodes x its cycles (it once left out N, reading N times too high).
  const double node_cycles = static_cast<double>(nodes_) * static_cast<double>(row.cycles);
  accepted_ = row.cycles > 0 ? static_cast<double>(row.counters.ejected_flits) / node_cycles : 0.0;
}

std::string ProgressPrinter::eta_text(Cycle t, double elapsed) const {
  char buf[200];
  // Rates over the recent samples (at least kSampleSeconds apart), else over the whole point
  // (a point counts its cycles from 0).
  const Cycle done = t;
  double cycle_rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  double delivery_rate = -1;  // unknown
  const std::uint64_t got = !have_status_      ? 0
                            : status_.scripted ? status_.messages_delivered
                                               : status_.labelled_delivered;
  if (samples_.size() >= 2) {
    const Sample& first = samples_.front();
    const double span = seconds_since(first.time);
    if (span >= kSampleSeconds && t >= first.cycle) {
      cycle_rate = static_cast<double>(t - first.cycle) / span;
      delivery_rate = static_cast<double>(got - std::min(got, first.delivered)) / span;
    }
  }
  if (!have_status_ || (!status_.scripted && t < status_.window_end)) {
    const Cycle todo = planned_cycles_ > done ? planned_cycles_ - done : 0;
    std::snprintf(buf, sizeof buf, "eta %s",
                  clock_text(cycle_rate > 0 ? static_cast<double>(todo) / cycle_rate : -1).c_str());
    return buf;
  }
  // Draining (or a workload): what is left, at the rate it has been delivered lately, but
  // no later than the drain limit (where the point stops, flagged saturated).
  const std::uint64_t total = status_.scripted ? status_.messages_total : status_.labelled_created;
  const std::uint64_t left = total > got ? total - got : 0;
  const double to_limit = cycle_rate > 0 && status_.drain_end > t
                              ? static_cast<double>(status_.drain_end - t) / cycle_rate
                              : -1;
  double eta = to_limit;
  if (delivery_rate > 0) {
    const double by_rate = static_cast<double>(left) / delivery_rate;
    eta = to_limit >= 0 ? std::min(by_rate, to_limit) : by_rate;
  }
  std::snprintf(buf, sizeof buf, "%s %llu of %llu %s left, eta %s (drain limit: cycle %llu, %s)",
                status_.scripted ? "workload:" : "draining:", static_cast<unsigned long long>(left),
                static_cast<unsigned long long>(total),
                status_.scripted ? "messages" : "labelled packets", clock_text(eta).c_str(),
                static_cast<unsigned long long>(status_.drain_end), clock_text(to_limit).c_str());
  return buf;
}

std::string ProgressPrinter::percent_text(Cycle t) const {
  const bool counting = have_status_ && (status_.scripted || t >= status_.window_end);
  char percent[32];
  if (counting && status_.scripted) {
    // A workload's progress is its messages (its window is its whole run).
    const double total = static_cast<double>(std::max<std::uint64_t>(1, status_.messages_total));
    std::snprintf(percent, sizeof percent, "%5.1f%%",
                  std::min(99.9, 100.0 * static_cast<double>(status_.messages_delivered) / total));
  } else if (counting) {
    std::snprintf(percent, sizeof percent, "drain");
  } else {
    std::snprintf(percent, sizeof percent, "%5.1f%%",
                  planned_cycles_ > 0 ? std::min(99.9, 100.0 * static_cast<double>(t) /
                                                           static_cast<double>(planned_cycles_))
                                      : 0.0);
  }
  return percent;
}

void ProgressPrinter::print(Cycle t, bool force) {
  if (!printing_) return;
  const double since = seconds_since(last_line_);
  // A bar is redrawn twice a second (or as often as --progress-interval asks, if more).
  if (!force && since < (terminal_ ? std::min(0.5, interval_seconds_) : interval_seconds_)) return;
  last_line_ = Clock::now();
  const double elapsed = seconds_since(start_);
  char line[400];
  std::snprintf(
      line, sizeof line, "point %lld  cycle %llu  %s  elapsed %s  %s  accepted %.5f  latency %.1f",
      static_cast<long long>(point_), static_cast<unsigned long long>(t), percent_text(t).c_str(),
      clock_text(elapsed).c_str(), eta_text(t, elapsed).c_str(), accepted_, latency_);
  if (terminal_) {
    std::printf("\r%-110s", line);
    live_line_ = true;
  } else {
    std::printf("progress   %s\n", line);
  }
  std::fflush(stdout);
}

void ProgressPrinter::checkpoint_written(const std::string& path, Cycle cycle, double seconds) {
  if (!printing_) return;
  if (live_line_) std::printf("\n");
  live_line_ = false;
  std::printf("checkpoint %s at cycle %llu (%.2f s)\n", path.c_str(),
              static_cast<unsigned long long>(cycle), seconds);
  std::fflush(stdout);
}

void ProgressPrinter::finish() {
  if (live_line_) std::printf("\r%-110s\r", "");
  live_line_ = false;
  std::fflush(stdout);
}

}  // namespace wormnet::cli
