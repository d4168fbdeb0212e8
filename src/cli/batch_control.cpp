#include "batch_control.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/checked_math.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet::cli {

namespace {

volatile std::sig_atomic_t g_stop_requested = 0;  // set by the signal handler only

extern "C" void on_stop_signal(int /*signal*/) {
  g_stop_requested = 1;
}

/// The progress line's rates (cycles and deliveries per second) come from samples of the
/// control checks at least kSampleSeconds apart, over the last kRateWindow seconds.
constexpr double kSampleSeconds = 0.25;
constexpr double kRateWindow = 4.0;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/// A whole decimal number (digits only, leading zeros allowed), or nullopt when it is
/// empty, holds anything else, or exceeds 2^64 - 1 (std::stoull threw there once: an
/// internal error, exit 3, for a number that was only too large).
std::optional<std::uint64_t> decimal(std::string_view digits) {
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return v;
}

/// "HH:MM:SS" as seconds (hours up to 99999), or nullopt.
std::optional<double> parse_clock(const std::string& text) {
  std::uint64_t part[3] = {0, 0, 0};
  std::string_view rest = text;
  for (int i = 0; i < 3; ++i) {
    const std::size_t colon = i < 2 ? rest.find(':') : rest.size();
    if (colon == std::string_view::npos) return std::nullopt;
    const std::optional<std::uint64_t> v = decimal(rest.substr(0, colon));
    if (!v) return std::nullopt;
    part[i] = *v;
    rest.remove_prefix(std::min(rest.size(), colon + 1));
  }
  if (part[0] > 99999 || part[1] > 59 || part[2] > 59) return std::nullopt;
  return 3600.0 * static_cast<double>(part[0]) + 60.0 * static_cast<double>(part[1]) +
         static_cast<double>(part[2]);
}

std::string clock_text(double s) {
  if (!(s >= 0) || s > 1e8) return "--:--:--";
  const auto total = static_cast<long long>(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
  return buf;
}

}  // namespace

void add_batch_options(CLI::App& app, BatchOptions& o) {
  app.add_option("--checkpoint-every", o.checkpoint_every,
                 "coordinated checkpoint every N cycles, or every Nm / Nh of wall-clock time")
      ->group("Batch");
  app.add_option("--checkpoint-dir", o.checkpoint_dir,
                 "checkpoint directory (default: <output>.checkpoint, or wormnet.checkpoint)")
      ->group("Batch");
  app.add_option("--restart", o.restart, "continue the run saved in this checkpoint directory")
      ->group("Batch");
  app.add_option("--walltime", o.walltime,
                 "HH:MM:SS job time limit: checkpoint and stop cleanly before it")
      ->group("Batch");
  app.add_option("--stop-at-cycle", o.stop_at_cycle,
                 "checkpoint and stop at the first control check from this cycle")
      ->group("Batch");
  app.add_option("--progress-interval", o.progress_seconds,
                 "seconds between progress lines when stdout is not a terminal")
      ->capture_default_str()
      ->group("Batch");
  app.add_option("--progress", o.progress,
                 "auto (a live bar on a terminal, lines in a log and under an MPI launcher), "
                 "bar, lines (one every --progress-interval seconds) or none")
      ->capture_default_str()
      ->group("Batch");
}

ProgressMode auto_progress_mode(bool stdout_is_terminal, bool under_launcher) {
  return stdout_is_terminal && !under_launcher ? ProgressMode::kBar : ProgressMode::kLines;
}

BatchSettings batch_settings(const BatchOptions& o, const std::string& output) {
  BatchSettings p;
  if (!o.checkpoint_every.empty()) {
    const std::string& v = o.checkpoint_every;
    const char unit = v.back();
    const bool clock = unit == 'm' || unit == 'h';
    const std::string_view digits = std::string_view(v).substr(0, v.size() - (clock ? 1 : 0));
    const bool well_formed =
        !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
    const std::optional<std::uint64_t> n = decimal(digits);
    if (!well_formed || n == std::uint64_t{0}) {
      throw InputError("--checkpoint-every", v,
                       "expected a positive number of cycles, or minutes / hours as Nm / Nh");
    }
    // A number beyond 2^64 - 1 (n empty) is beyond each limit: refused naming the limit.
    if (clock) {
      // At most 10 years of wall-clock time between checkpoints.
      const std::uint64_t limit = unit == 'm' ? 5256000U : 87600U;
      if (!n || *n > limit) {
        throw InputError("--checkpoint-every", v,
                         "at most " + std::to_string(limit) + unit + " (ten years)");
      }
      p.checkpoints.every_seconds = (unit == 'm' ? 60.0 : 3600.0) * static_cast<double>(*n);
    } else {
      if (!n || *n > kMaxCycles) {
        throw InputError("--checkpoint-every", v,
                         "at most " + std::to_string(kMaxCycles) + " cycles");
      }
      p.checkpoints.every_cycles = *n;
    }
  }
  if (!o.walltime.empty()) {
    const std::optional<double> seconds = parse_clock(o.walltime);
    if (!seconds || *seconds <= 0) {
      throw InputError("--walltime", o.walltime,
                       "expected HH:MM:SS above zero (e.g. 23:30:00): hours up to 99999, "
                       "minutes and seconds up to 59");
    }
    p.checkpoints.walltime_seconds = *seconds;
  }
  if (!(o.progress_seconds > 0) || !std::isfinite(o.progress_seconds)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", o.progress_seconds);
    throw InputError("--progress-interval", buf, "must be a finite number > 0 s");
  }
  if (o.given.count("--stop-at-cycle") > 0 && o.stop_at_cycle == 0) {
    throw InputError("--stop-at-cycle", "0", "must be >= 1 (the cycle to stop at)");
  }
  p.progress_seconds = o.progress_seconds;
  if (o.progress == "auto") {
    p.progress = auto_progress_mode(isatty(STDOUT_FILENO) != 0, started_by_launcher());
  } else if (o.progress == "bar") {
    p.progress = ProgressMode::kBar;
  } else if (o.progress == "lines") {
    p.progress = ProgressMode::kLines;
  } else if (o.progress == "none") {
    p.progress = ProgressMode::kNone;
  } else {
    throw InputError("--progress", o.progress, "allowed: auto, bar, lines, none");
  }
  p.checkpoints.stop_at_cycle = at_most("--stop-at-cycle", o.stop_at_cycle, kMaxCycles, "cycles");
  p.dir = !o.checkpoint_dir.empty() ? o.checkpoint_dir
          : !o.restart.empty()      ? o.restart
          : !output.empty()         ? output + ".checkpoint"
                                    : std::string("wormnet.checkpoint");
  while (p.dir.size() > 1 && p.dir.back() == '/') p.dir.pop_back();
  return p;
}

void install_stop_signals() {
  // SIGINT too: Ctrl-C on an interactive run stops it as cleanly as the batch system's
  // SIGTERM does (a second Ctrl-C while the checkpoint is written is ignored alike).
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGUSR1, on_stop_signal);
}

bool stop_signalled() {
  return g_stop_requested != 0;
}

bool stop_requested(const Communicator& comm) {
  return comm.any(g_stop_requested != 0);
}

BatchControl::BatchControl(const Communicator& comm, BatchSettings plan, io::RunProgress base,
                           io::ResultWriter* writer, bool quiet, Cycle planned_cycles,
                           std::optional<io::OutputFile> checkpoint, std::uint64_t nodes)
    : comm_(comm),
      plan_(std::move(plan)),
      base_(std::move(base)),
      writer_(writer),
      checkpoint_(std::move(checkpoint)),
      nodes_(std::max<std::uint64_t>(1, nodes)),
      quiet_(quiet || plan_.progress == ProgressMode::kNone),
      terminal_(plan_.progress == ProgressMode::kBar),
      planned_cycles_(planned_cycles),
      start_(std::chrono::steady_clock::now()),
      last_checkpoint_(start_),
      last_progress_(start_),
      last_check_(start_) {}

void BatchControl::set_point(int index, double rate, std::int64_t left_after_saturation) {
  base_.point = index;
  base_.rate = rate;
  base_.left_after_saturation = left_after_saturation;
  // A point counts its cycles from 0: --checkpoint-every N's multiples start again with it
  // (the first check of the point sets the first one, as at the start of a run).
  next_checkpoint_cycle_ = 0;
}

void BatchControl::check_status(const CheckStatus& status) {
  const auto now = std::chrono::steady_clock::now();
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

std::string BatchControl::eta_text(Cycle t, double elapsed) const {
  char buf[200];
  // Rates over the recent samples (at least kSampleSeconds apart), else over the whole point.
  const Cycle done = t - std::min(t, point_start_cycle_);
  double cycle_rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  double delivery_rate = -1;  // unknown
  const std::uint64_t got = !have_status_      ? 0
                            : status_.scripted ? status_.messages_delivered
                                               : status_.labelled_delivered;
  if (samples_.size() >= 2) {
    const Sample& first = samples_.front();
    const double span =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - first.time).count();
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

RunHooks::Action BatchControl::at_check(Cycle t) {
  check_seconds_ = seconds_since(last_check_);
  last_check_ = std::chrono::steady_clock::now();
  // Wall-clock decisions are rank 0's (clocks differ); signals may reach any rank.
  std::uint64_t flags[3] = {g_stop_requested != 0 ? 1U : 0U, 0, 0};
  if (comm_.is_root()) {
    const CheckClocks clocks{seconds_since(start_), seconds_since(last_checkpoint_), check_seconds_,
                             checkpoint_seconds_};
    const ClockFlags mine = clock_flags(plan_.checkpoints, clocks);
    flags[1] = mine.walltime_near ? 1U : 0U;
    flags[2] = mine.period_elapsed ? 1U : 0U;
  }
  comm_.max(std::span<std::uint64_t>(flags, 3));
  const CheckDecision d = decide_check(plan_.checkpoints, t, next_checkpoint_cycle_, flags[0] != 0,
                                       ClockFlags{flags[1] != 0, flags[2] != 0});
  next_checkpoint_cycle_ = d.next_checkpoint_cycle;
  progress(t, false);
  if (d.stop) return Action::kCheckpointAndStop;
  return d.checkpoint ? Action::kCheckpoint : Action::kContinue;
}

void BatchControl::save(const LoopState& loop, const ModelSnapshot& mine) {
  const auto t0 = std::chrono::steady_clock::now();
  io::RunProgress p = base_;
  p.cycle = loop.cycle;
  p.window_start = loop.window_start;
  p.next_window = loop.next_window;
  p.next_check = loop.next_check;
  p.flit_hops = loop.flit_hops;
  p.series_rows = writer_ != nullptr ? writer_->series_rows() : 0;
  p.summary_rows = writer_ != nullptr ? writer_->summary_rows() : 0;
  if (workload_progress_) p.workload = workload_progress_();
  if (!checkpoint_) checkpoint_ = claim_checkpoint(comm_, plan_.dir);
  io::write_checkpoint(comm_, *checkpoint_, p, mine);
  checkpoint_seconds_ = seconds_since(t0);
  last_checkpoint_ = std::chrono::steady_clock::now();
  if (comm_.is_root() && !quiet_) {
    if (live_line_) std::printf("\n");
    live_line_ = false;
    std::printf("checkpoint %s at cycle %llu (%.2f s)\n", io::checkpoint_path(plan_.dir).c_str(),
                static_cast<unsigned long long>(loop.cycle), checkpoint_seconds_);
    std::fflush(stdout);
  }
}

void BatchControl::progress(Cycle t, bool force) {
  if (quiet_ || !comm_.is_root()) return;
  const double since = seconds_since(last_progress_);
  // A bar is redrawn twice a second (or as often as --progress-interval asks, if more).
  if (!force &&
      since < (terminal_ ? std::min(0.5, plan_.progress_seconds) : plan_.progress_seconds))
    return;
  last_progress_ = std::chrono::steady_clock::now();
  const double elapsed = seconds_since(start_);
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
  char line[400];
  std::snprintf(line, sizeof line,
                "point %lld  cycle %llu  %s  elapsed %s  %s  accepted %.5f  latency %.1f",
                static_cast<long long>(base_.point), static_cast<unsigned long long>(t), percent,
                clock_text(elapsed).c_str(), eta_text(t, elapsed).c_str(), accepted_, latency_);
  if (terminal_) {
    std::printf("\r%-110s", line);
    live_line_ = true;
  } else {
    std::printf("progress   %s\n", line);
  }
  std::fflush(stdout);
}

void BatchControl::finish_progress() {
  if (live_line_ && comm_.is_root()) std::printf("\r%-110s\r", "");
  live_line_ = false;
  std::fflush(stdout);
}

void BatchControl::begin_point(int index, double offered_load) {
  (writer_ != nullptr ? static_cast<ResultSink&>(*writer_) : no_file_)
      .begin_point(index, offered_load);
}

void BatchControl::window(const WindowRow& row) {
  latency_ = row.counters.ejected_packets ? static_cast<double>(row.counters.latency_sum) /
                                                static_cast<double>(row.counters.ejected_packets)
                                          : 0.0;
  // Flits/node/cycle, as the summary and the file's "accepted" column: the window's ejected
  // flits over N nodes x its cycles (it once left out N, reading N times too high).
  const double node_cycles = static_cast<double>(nodes_) * static_cast<double>(row.cycles);
  accepted_ = row.cycles > 0 ? static_cast<double>(row.counters.ejected_flits) / node_cycles : 0.0;
  if (writer_ != nullptr) writer_->window(row);
}

void BatchControl::channel_window(
    Cycle cycle_end, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) {
  if (writer_ != nullptr) writer_->channel_window(cycle_end, channel_flits);
}

void BatchControl::congestion(const ChannelCongestion& mine) {
  if (writer_ != nullptr) writer_->congestion(mine);
}

void BatchControl::end_point(
    const RunSummary& summary, const MeasuredStats& measured,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) {
  finish_progress();
  if (writer_ != nullptr) writer_->end_point(summary, measured, channel_flits);
}

}  // namespace wormnet::cli
