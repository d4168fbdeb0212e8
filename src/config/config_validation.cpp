#include "wormnet/config/config_validation.hpp"

#include <cmath>
#include <string>

#include "wormnet/core/checked_math.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"

namespace wormnet {

namespace {

std::string num(double v) {
  return number_text(v);
}

/// `value` in [low, high]: InputError naming `option` with the range ("1..1024") and `unit`.
void within(const char* option, std::uint64_t value, std::uint64_t low, std::uint64_t high,
            const std::string& unit = "") {
  if (value < low || value > high) {
    throw InputError(option, std::to_string(value),
                     std::to_string(low) + ".." + std::to_string(high) + unit);
  }
}

void at_least(const char* option, long long value, long long min, const char* what) {
  if (value < min) throw InputError(option, std::to_string(value), what);
}

}  // namespace

void validate_values(const SimConfig& c) {
  const NetworkConfig& n = c.network;
  at_least("--vcs", n.vcs, 0, "must be >= 1 (or 0 for what the routing needs)");
  if (n.vcs > kMaxVcs) {
    throw InputError("--vcs", std::to_string(n.vcs), "at most " + std::to_string(kMaxVcs));
  }
  at_least("--buffer", n.buffer_depth, 1, "must be >= 1 flit");
  if (n.buffer_depth > 65535) {
    throw InputError("--buffer", std::to_string(n.buffer_depth), "at most 65535 flits");
  }
  at_least("--link-latency", n.link_latency, 1, "must be >= 1 cycle (the lookahead)");
  at_least("--credit-latency", n.credit_latency, 1, "must be >= 1 cycle");
  at_least("--routing-delay", n.routing_delay, 0, "must be >= 0 cycles");
  at_least("--vc-alloc-delay", n.vc_alloc_delay, 0, "must be >= 0 cycles");
  at_least("--switch-alloc-delay", n.switch_alloc_delay, 0, "must be >= 0 cycles");
  at_least("--switch-delay", n.switch_delay, 0, "must be >= 0 cycles");
  at_least("--injection-latency", n.injection_latency, 0, "must be >= 0 cycles");
  at_least("--ejection-latency", n.ejection_latency, 0, "must be >= 0 cycles");
  for (const auto& [opt, v] : {std::pair{"--link-latency", n.link_latency},
                               std::pair{"--credit-latency", n.credit_latency},
                               std::pair{"--routing-delay", n.routing_delay},
                               std::pair{"--vc-alloc-delay", n.vc_alloc_delay},
                               std::pair{"--switch-alloc-delay", n.switch_alloc_delay},
                               std::pair{"--switch-delay", n.switch_delay},
                               std::pair{"--injection-latency", n.injection_latency},
                               std::pair{"--ejection-latency", n.ejection_latency}}) {
    if (v > 1000) throw InputError(opt, std::to_string(v), "at most 1000 cycles");
  }

  const TrafficConfig& t = c.traffic;
  if (t.load_fraction > 0.0) {
    if (!(t.load_fraction <= 1.0)) {
      throw InputError("--load-fraction", num(t.load_fraction), "must be in (0, 1]");
    }
  } else if (!(t.load > 0.0 && t.load <= 1.0)) {
    throw InputError("--load", num(t.load), "must be in (0, 1] flits/node/cycle");
  }
  if (t.load_fraction < 0.0 || std::isnan(t.load_fraction)) {
    throw InputError("--load-fraction", num(t.load_fraction), "must be in (0, 1]");
  }
  at_least("--length-min", t.length_min, 1, "must be >= 1 flit");
  if (t.length_max > 65535) {
    throw InputError("--length-max", std::to_string(t.length_max), "at most 65535 flits");
  }
  if (t.length_min > t.length_max) {
    throw InputError("--length-min", std::to_string(t.length_min),
                     "must be <= --length-max (" + std::to_string(t.length_max) + ")");
  }
  if (t.self_traffic && t.pattern != TrafficPattern::kUniform) {
    throw InputError("--self-traffic", "true",
                     "only for --traffic uniform (the other patterns fix every destination)");
  }
  if (!(t.hotspot_fraction >= 0.0 && t.hotspot_fraction <= 1.0)) {
    throw InputError("--hotspot-fraction", num(t.hotspot_fraction), "must be in [0, 1]");
  }

  const MeasureConfig& m = c.measure;
  // Cycle counts: each within kMaxCycles, and so is the whole run; shown as the unsigned
  // numbers they are (2^64 - 1 once read "-1").
  at_most("--warmup", m.warmup, kMaxCycles, "cycles");
  at_most("--measure", m.measure, kMaxCycles, "cycles");
  at_most("--cycles", m.cycles, kMaxCycles, "cycles");
  at_most("--drain-limit", m.drain_limit, kMaxCycles, "cycles");
  at_most("--stats-window", m.stats_window, kMaxCycles, "cycles");
  if (m.measure < 1) throw InputError("--measure", "0", "must be >= 1 cycle");
  if (m.stats_window < 1) throw InputError("--stats-window", "0", "must be >= 1 cycle");
  if (m.cycles > 0) {
    checked_sum({{"--cycles", m.cycles}, {"--drain-limit", m.drain_limit}}, kMaxCycles, "cycles");
  } else {
    checked_sum(
        {{"--warmup", m.warmup}, {"--measure", m.measure}, {"--drain-limit", m.drain_limit}},
        kMaxCycles, "cycles");
  }
  // Without any contention an input VC goes a credit round trip between two flits (with a
  // 1-flit buffer): a shorter wait says nothing about deadlock, and the detector needs the VCs
  // it reports to have waited longer than a credit takes to arrive.
  const long long round_trip = static_cast<long long>(n.routing_delay) + n.vc_alloc_delay +
                               n.switch_alloc_delay + n.switch_delay + n.link_latency +
                               n.credit_latency;
  if (m.deadlock_threshold <= static_cast<Cycle>(round_trip)) {
    throw InputError("--deadlock-threshold", std::to_string(m.deadlock_threshold),
                     "must exceed " + std::to_string(round_trip) +
                         " cycles, a flit's credit round trip through a router with these "
                         "delays (routing, VC and switch allocation, switch, link, credit): a "
                         "shorter wait is no sign of deadlock");
  }
  at_most("--deadlock-threshold", m.deadlock_threshold, 1000000000, "cycles");
  if (m.cycles > 0 && m.warmup >= m.cycles) {
    throw InputError("--warmup", std::to_string(m.warmup),
                     "must be shorter than the run (--cycles " + std::to_string(m.cycles) + ")");
  }
  if (!(m.flit_rate > 0.0) || !std::isfinite(m.flit_rate)) {
    throw InputError("--flit-rate", num(m.flit_rate), "must be a finite number > 0 flits/us");
  }
  if (!(m.stop_backlog >= 0.0) || !std::isfinite(m.stop_backlog)) {
    throw InputError("--stop-backlog", num(m.stop_backlog),
                     "must be a finite number of flits per node > 0 (0: no early stop)");
  }
  at_most("--stop-latency", m.stop_latency, kMaxCycles, "cycles");
  validate_batch(c.batch);
  validate_workload(c.workload);
}

void validate_batch(const BatchConfig& b) {
  if (!(b.progress_seconds > 0) || !std::isfinite(b.progress_seconds)) {
    throw InputError("--progress-interval", num(b.progress_seconds),
                     "must be a finite number > 0 s");
  }
  at_most("--stop-at-cycle", b.stop_at_cycle, kMaxCycles, "cycles");
}

int grid_dimensions(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::kHalo2d:
    case WorkloadKind::kSweep2d:
      return 2;
    case WorkloadKind::kHalo3d:
      return 3;
    default:
      return 0;
  }
}

std::vector<int> parse_grid(const std::string& text, int dims) {
  std::vector<int> g;
  std::size_t pos = 0;
  const std::string shape = dims == 2 ? "AxB" : "AxBxC";
  while (true) {
    const std::size_t x = text.find('x', pos);
    const std::string part = text.substr(pos, x == std::string::npos ? x : x - pos);
    if (part.empty() || part.size() > 7 ||
        part.find_first_not_of("0123456789") != std::string::npos || std::stoi(part) < 1) {
      throw InputError("--grid", text, shape + " with whole numbers >= 1");
    }
    g.push_back(std::stoi(part));
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  if (static_cast<int>(g.size()) != dims) {
    throw InputError("--grid", text, shape + ": " + std::to_string(dims) + " dimensions");
  }
  return g;
}

void validate_workload(const WorkloadConfig& w) {
  if (!w.active()) return;
  if (!w.is_trace()) {
    within("--iterations", w.iterations, 1, kMaxWorkloadIterations);
    within("--processes-per-node", w.processes_per_node, 1, kMaxProcessesPerNode);
  }
  if (w.is_npb()) {
    // 0: no computation (the option's default); a rate given as 0 is refused by the command
    // line, which knows that it was given.
    if (w.compute_rate != 0 && !(std::isfinite(w.compute_rate) && w.compute_rate > 0 &&
                                 w.compute_rate <= kMaxComputeRate)) {
      throw InputError(
          "--compute-rate", num(w.compute_rate),
          "operations per cycle, a number above 0 and at most " + num(kMaxComputeRate));
    }
    within("--npb-scale", w.npb_scale, 1, kMaxNpbScale);
  }
  if (w.is_motif()) {
    if (w.message_size < 1 || static_cast<std::uint32_t>(w.message_size) > kMaxMessageFlits) {
      throw InputError("--message-size", std::to_string(w.message_size),
                       "1.." + std::to_string(kMaxMessageFlits) + " flits");
    }
    within("--compute-cycles", w.compute_cycles, 0, kMaxStepCompute, " cycles per step");
    if (!w.grid.empty() && grid_dimensions(w.kind) > 0) parse_grid(w.grid, grid_dimensions(w.kind));
  }
  within("--local-latency", w.local_latency, 1, kMaxLocalLatency, " cycles");
}

void check_channel_series_bound(const MeasureConfig& m, bool workload) {
  if (m.congestion != CongestionMode::kSeries) return;
  // Every point ends by its drain limit (validate_values keeps these sums below 2^62).
  const Cycle run =
      workload ? m.drain_limit : (m.cycles > 0 ? m.cycles : m.warmup + m.measure) + m.drain_limit;
  const Cycle windows = run / m.stats_window + (run % m.stats_window != 0 ? 1 : 0);
  if (windows <= kMaxChannelSeriesWindows) return;
  const Cycle least = run / kMaxChannelSeriesWindows + (run % kMaxChannelSeriesWindows != 0);
  throw InputError("--congestion", "series",
                   "keeps at most " + std::to_string(kMaxChannelSeriesWindows) +
                       " statistics windows a point; this run may last " + std::to_string(run) +
                       (workload ? " cycles (the drain limit), "
                                 : " cycles (warm-up + measurement + drain limit), ") +
                       std::to_string(windows) + " windows of --stats-window " +
                       std::to_string(m.stats_window) + ": give --stats-window " +
                       std::to_string(least) + " or more, or a shorter --drain-limit");
}

}  // namespace wormnet
