#include "workload_options.hpp"

#include <cmath>
#include <filesystem>
#include <optional>

#include "toml_string.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/workload/closed_loop.hpp"
#include "wormnet/workload/motifs.hpp"
#include "wormnet/workload/npb_skeletons.hpp"
#include "wormnet/workload/process_mapping.hpp"

namespace wormnet::cli {

namespace {

constexpr std::uint64_t kMaxIterations = 1'000'000;
/// Processes per node: as many as the cores of a large node.
constexpr std::uint64_t kMaxPerNode = 1024;
/// A local message's latency (cycles): up to 50 ms at the default 20 flits per us.
constexpr std::uint64_t kMaxLocalLatency = 1'000'000;
/// Operations per cycle a process may perform (a rate of more would be a typo).
constexpr double kMaxComputeRate = 1e9;
/// The divisor of the NPB classes' sizes.
constexpr std::uint64_t kMaxNpbScale = std::uint64_t{1} << 30;

std::string allowed_workloads() {
  std::string s;
  for (const auto& [name, m] : motif_names()) s += name + ", ";
  for (const auto& [name, m] : npb_names()) s += name + ", ";
  return s + "trace";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Open-loop traffic options: a workload's messages are its own.
constexpr const char* kTrafficOptions[] = {
    "--load",       "--load-fraction", "--traffic",      "--process",          "--length",
    "--length-min", "--length-max",    "--self-traffic", "--hotspot-fraction", "--hotspot-nodes",
    "--warmup",     "--measure",       "--cycles"};

}  // namespace

void add_workload_options(CLI::App& app, WorkloadOptions& w) {
  app.add_option("--workload", w.spec.name,
                 "closed-loop application workload instead of open-loop traffic: " +
                     allowed_workloads() + " (docs/workloads.md)")
      ->group("Workload");
  app.add_option("--trace", w.spec.trace, "trace file to replay (--workload trace; CSV)")
      ->group("Workload");
  app.add_option("--iterations", w.spec.iterations, "iterations of the motif")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--message-size", w.spec.message_size, "flits per motif message")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--grid", w.spec.grid,
                 "process grid AxB (halo2d, sweep2d) or AxBxC (halo3d), product = nodes "
                 "(default: the most nearly square)")
      ->group("Workload");
  app.add_option("--mapping", w.spec.mapping,
                 "processes to nodes: linear, random (--seed), topology (recursive bisection "
                 "on the network's geometry)")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--write-trace", w.write_trace,
                 "also write the workload's messages as a trace file (CSV)")
      ->group("Workload");
  app.add_option("--processes-per-node", w.spec.processes_per_node,
                 "processes on every node (motifs, npb-*): their messages to each other stay "
                 "within the node")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--local-latency", w.local_latency,
                 "cycles of a message within a node before its first flit arrives (then a flit "
                 "per cycle); with --processes-per-node above 1 or a trace")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--compute-cycles", w.spec.compute_cycles,
                 "cycles of computation in every step of a motif, before its sends")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--compute-rate", w.spec.compute_rate,
                 "operations a process performs per cycle (npb-*: the benchmark's operation "
                 "count; default: no computation)")
      ->group("Workload");
  app.add_option("--npb-class", w.spec.npb_class, "NPB problem class of npb-*: S, W, A, B, C")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--npb-scale", w.spec.npb_scale,
                 "npb-*: the class's message bytes and operations divided by this")
      ->capture_default_str()
      ->group("Workload");
}

void check_workload_options(const WorkloadOptions& w, const std::set<std::string>& given,
                            const std::function<std::string(const char*)>& shown) {
  const auto has = [&](const char* o) { return given.count(o) > 0; };
  const std::pair<const char*, std::string> values[] = {
      {"--trace", w.spec.trace},
      {"--iterations", std::to_string(w.spec.iterations)},
      {"--message-size", std::to_string(w.spec.message_size)},
      {"--grid", w.spec.grid},
      {"--mapping", w.spec.mapping},
      {"--write-trace", w.write_trace},
      {"--processes-per-node", std::to_string(w.spec.processes_per_node)},
      {"--local-latency", std::to_string(w.local_latency)},
      {"--compute-cycles", std::to_string(w.spec.compute_cycles)},
      {"--compute-rate", number(w.spec.compute_rate)},
      {"--npb-class", w.spec.npb_class},
      {"--npb-scale", std::to_string(w.spec.npb_scale)}};
  const auto value_of = [&](const std::string& o) {
    for (const auto& [name, value] : values) {
      if (o == name) return value;
    }
    return std::string();
  };
  if (!w.active()) {
    for (const auto& [o, value] : values) {
      if (has(o)) throw InputError(o, value, "is read with --workload only");
    }
    if (has("--workload")) throw InputError("--workload", "", "allowed: " + allowed_workloads());
    return;
  }
  const auto& motifs = motif_names();
  const bool trace = w.is_trace();
  const bool npb = w.is_npb();
  if (!trace && !npb && motifs.count(w.spec.name) == 0) {
    throw InputError("--workload", w.spec.name, "allowed: " + allowed_workloads());
  }
  for (const char* o : kTrafficOptions) {
    if (has(o)) {
      throw InputError(o, shown(o),
                       "is not read with --workload " + w.spec.name +
                           " (a workload's messages and run length are its own)");
    }
  }
  // Options another kind of workload reads: refused by name, with what reads them.
  const auto refuse = [&](std::initializer_list<const char*> options, const std::string& why) {
    for (const char* o : options) {
      if (has(o)) throw InputError(o, value_of(o), why);
    }
  };
  if (trace) {
    if (w.spec.trace.empty())
      throw InputError("--trace", "", "a trace file, needed by --workload trace");
    refuse({"--iterations", "--message-size", "--grid", "--mapping", "--processes-per-node",
            "--compute-cycles", "--compute-rate", "--npb-class", "--npb-scale"},
           "is not read with --workload trace (the trace says it)");
  } else {
    if (has("--trace"))
      throw InputError("--trace", w.spec.trace, "is read with --workload trace only");
    if (w.spec.iterations < 1 || w.spec.iterations > kMaxIterations) {
      throw InputError("--iterations", std::to_string(w.spec.iterations),
                       "1.." + std::to_string(kMaxIterations));
    }
    if (mapping_names().count(w.spec.mapping) == 0) {
      std::string names;
      for (const auto& [name, m] : mapping_names()) names += (names.empty() ? "" : ", ") + name;
      throw InputError("--mapping", w.spec.mapping, "allowed: " + names);
    }
    if (w.spec.processes_per_node < 1 || w.spec.processes_per_node > kMaxPerNode) {
      throw InputError("--processes-per-node", std::to_string(w.spec.processes_per_node),
                       "1.." + std::to_string(kMaxPerNode));
    }
  }
  if (npb) {
    refuse({"--message-size", "--grid"}, "is not read with --workload " + w.spec.name +
                                             " (the benchmark gives its sizes and grid)");
    refuse({"--compute-cycles"},
           "is not read with --workload " + w.spec.name + " (its steps compute at --compute-rate)");
    if (has("--compute-rate") && !(std::isfinite(w.spec.compute_rate) && w.spec.compute_rate > 0 &&
                                   w.spec.compute_rate <= kMaxComputeRate)) {
      throw InputError(
          "--compute-rate", number(w.spec.compute_rate),
          "operations per cycle, a number above 0 and at most " + number(kMaxComputeRate));
    }
    if (npb_class_names().count(w.spec.npb_class) == 0) {
      throw InputError("--npb-class", w.spec.npb_class, "allowed: S, W, A, B, C");
    }
    if (w.spec.npb_scale < 1 || w.spec.npb_scale > kMaxNpbScale) {
      throw InputError("--npb-scale", std::to_string(w.spec.npb_scale),
                       "1.." + std::to_string(kMaxNpbScale));
    }
  } else {
    refuse({"--compute-rate", "--npb-class", "--npb-scale"},
           "is read with the npb-* workloads only");
  }
  if (!trace && !npb) {
    if (w.spec.message_size < 1 ||
        static_cast<std::uint32_t>(w.spec.message_size) > MessageGraph::kMaxFlits) {
      throw InputError("--message-size", std::to_string(w.spec.message_size),
                       "1.." + std::to_string(MessageGraph::kMaxFlits) + " flits");
    }
    if (w.spec.compute_cycles > MessageGraph::kMaxCompute) {
      throw InputError("--compute-cycles", std::to_string(w.spec.compute_cycles),
                       "0.." + std::to_string(MessageGraph::kMaxCompute) + " cycles per step");
    }
    const int dims = grid_dimensions(motifs.at(w.spec.name));
    if (has("--grid") && dims == 0) {
      throw InputError("--grid", w.spec.grid, "is read by halo2d, halo3d and sweep2d only");
    }
    if (has("--grid")) parse_grid(w.spec.grid, dims);
  }
  if (has("--local-latency")) {
    if (!trace && w.spec.processes_per_node < 2) {
      throw InputError("--local-latency", value_of("--local-latency"),
                       "is read with --processes-per-node above 1 or --workload trace (without "
                       "them no message stays within a node)");
    }
    if (w.local_latency < 1 || w.local_latency > kMaxLocalLatency) {
      throw InputError("--local-latency", std::to_string(w.local_latency),
                       "1.." + std::to_string(kMaxLocalLatency) + " cycles");
    }
  }
  if (!w.write_trace.empty()) {
    namespace fs = std::filesystem;
    const fs::path p(w.write_trace);
    std::error_code ec;
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (fs::is_directory(p, ec) || !fs::is_directory(dir, ec)) {
      throw InputError("--write-trace", w.write_trace, "a file in an existing directory");
    }
  }
}

std::string workload_toml(const WorkloadOptions& w) {
  if (!w.active()) return "";
  std::string s = "workload = " + toml_string(w.spec.name) + "\n";
  // The options added with processes per node and computation appear when they are not at
  // their defaults (or define the workload: npb-*), so that the configuration of a run
  // without them reads as it always did.
  const auto local_latency = [&] {
    if (w.local_latency != ClosedLoop::kDefaultLocalLatency || w.spec.processes_per_node > 1)
      s += "local-latency = " + std::to_string(w.local_latency) + "\n";
  };
  if (w.is_trace()) {
    s += "trace = " + toml_string(w.spec.trace) + "\n";
    local_latency();
    return s;
  }
  s += "iterations = " + std::to_string(w.spec.iterations) + "\n";
  if (w.is_npb()) {
    s += "npb-class = " + toml_string(w.spec.npb_class) + "\n";
    s += "npb-scale = " + std::to_string(w.spec.npb_scale) + "\n";
    if (w.spec.compute_rate > 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "compute-rate = %.17g\n", w.spec.compute_rate);
      s += buf;
    }
  } else {
    s += "message-size = " + std::to_string(w.spec.message_size) + "\n";
    if (!w.spec.grid.empty()) s += "grid = " + toml_string(w.spec.grid) + "\n";
    if (w.spec.compute_cycles > 0)
      s += "compute-cycles = " + std::to_string(w.spec.compute_cycles) + "\n";
  }
  s += "mapping = " + toml_string(w.spec.mapping) + "\n";
  if (w.spec.processes_per_node > 1)
    s += "processes-per-node = " + std::to_string(w.spec.processes_per_node) + "\n";
  local_latency();
  return s;
}

MessageLengths workload_lengths(const Workload& w, const WorkloadOptions& o) {
  const MessageGraph::FlitRange r = w.graph.flit_range();
  // No message over the network (an empty graph, or every message within a node): the plan
  // still needs a length.
  if (r.longest == 0) return MessageLengths{1, 1, "--workload " + o.spec.name};
  MessageLengths l{static_cast<int>(r.shortest), static_cast<int>(r.longest), "--message-size"};
  if (o.is_trace()) {
    l.longest_from = "message " + std::to_string(r.longest_id) + " of --trace " + o.spec.trace;
  } else if (o.is_npb()) {
    l.longest_from = "message " + std::to_string(r.longest_id) + " of --workload " + o.spec.name +
                     " class " + o.spec.npb_class + " at --npb-scale " +
                     std::to_string(o.spec.npb_scale);
  }
  return l;
}

std::string describe_completion(const CompletionReport& r, const MessageGraph& g,
                                double flit_rate) {
  char buf[256];
  std::string s;
  std::uint64_t delivered = 0;
  for (const IterationTimes& i : r.iterations) delivered += i.messages;
  std::snprintf(buf, sizeof buf, "workload   %u messages, %llu delivered, %zu iterations%s\n",
                g.size(), static_cast<unsigned long long>(delivered), r.iterations.size(),
                r.complete ? "" : " (INCOMPLETE)");
  s += buf;
  const MessageGraph::Kinds kinds = g.kinds();
  if (kinds.local > 0 || kinds.markers > 0) {
    std::snprintf(buf, sizeof buf,
                  "           %llu over the network, %llu within nodes, %llu step markers\n",
                  static_cast<unsigned long long>(kinds.network),
                  static_cast<unsigned long long>(kinds.local),
                  static_cast<unsigned long long>(kinds.markers));
    s += buf;
  }
  if (!r.complete) return s;
  std::snprintf(buf, sizeof buf, "completion %llu cycles (%.3f us)\n",
                static_cast<unsigned long long>(r.completion),
                static_cast<double>(r.completion) / flit_rate);
  s += buf;
  std::snprintf(buf, sizeof buf,
                "critical   %zu messages: wait %llu + compute %llu + queueing %llu + network %llu "
                "+ local %llu cycles\n",
                r.critical_path.size(), static_cast<unsigned long long>(r.path_wait),
                static_cast<unsigned long long>(r.path_compute),
                static_cast<unsigned long long>(r.path_queueing),
                static_cast<unsigned long long>(r.path_network),
                static_cast<unsigned long long>(r.path_local));
  s += buf;
  // Each iteration from its first issue to its last delivery: a pipelined motif's iterations
  // overlap (sweep2d), so the increments between their ends are not their lengths.
  std::string list;
  for (std::size_t k = 0; k < r.iterations.size() && k < 8; ++k) {
    const IterationTimes& it = r.iterations[k];
    list += (k ? ", " : "") + std::to_string(it.start) + "-" + std::to_string(it.end) + " (" +
            std::to_string(it.end - std::min(it.start, it.end)) + ")";
  }
  if (r.iterations.size() > 8) list += ", ...";
  s += "iterations " + list + " cycles: first issue - last delivery (length)\n";
  return s;
}

}  // namespace wormnet::cli
