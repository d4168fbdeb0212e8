#include "workload_options.hpp"

#include <filesystem>
#include <optional>

#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"

namespace wormnet::cli {

namespace {

/// The workloads --workload allows, in their table's order.
std::string allowed_workloads() {
  std::string s;
  for (const EnumName<WorkloadKind>& row : enum_names(WorkloadKind{})) {
    if (row.value != WorkloadKind::kNone) s += (s.empty() ? "" : ", ") + std::string(row.name);
  }
  return s;
}

/// The names of E's table joined by ", ".
template <class E>
std::string allowed_names() {
  std::string s;
  for (const EnumName<E>& row : enum_names(E{}))
    s += (s.empty() ? "" : ", ") + std::string(row.name);
  return s;
}

/// Open-loop traffic options: a workload's messages are its own.
constexpr const char* kTrafficOptions[] = {
    "--load",       "--load-fraction", "--traffic",      "--process",          "--length",
    "--length-min", "--length-max",    "--self-traffic", "--hotspot-fraction", "--hotspot-nodes",
    "--warmup",     "--measure",       "--cycles"};

}  // namespace

void add_workload_options(CLI::App& app, WorkloadOptions& text, WorkloadConfig& w) {
  app.add_option("--workload", text.name,
                 "closed-loop application workload instead of open-loop traffic: " +
                     allowed_workloads() + " (docs/workloads.md)")
      ->group("Workload");
  app.add_option("--trace", w.trace, "trace file to replay (--workload trace; CSV)")
      ->group("Workload");
  app.add_option("--iterations", w.iterations, "iterations of the motif")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--message-size", w.message_size, "flits per motif message")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--grid", w.grid,
                 "process grid AxB (halo2d, sweep2d) or AxBxC (halo3d), product = nodes "
                 "(default: the most nearly square)")
      ->group("Workload");
  app.add_option("--mapping", text.mapping,
                 "processes to nodes: linear, random (--seed), topology (recursive bisection "
                 "on the network's geometry)")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--write-trace", text.write_trace,
                 "also write the workload's messages as a trace file (CSV)")
      ->group("Workload");
  app.add_option("--processes-per-node", w.processes_per_node,
                 "processes on every node (motifs, npb-*): their messages to each other stay "
                 "within the node")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--local-latency", w.local_latency,
                 "cycles of a message within a node before its first flit arrives (then a flit "
                 "per cycle); with --processes-per-node above 1 or a trace")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--compute-cycles", w.compute_cycles,
                 "cycles of computation in every step of a motif, before its sends")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--compute-rate", w.compute_rate,
                 "operations a process performs per cycle (npb-*: the benchmark's operation "
                 "count; default: no computation)")
      ->group("Workload");
  app.add_option("--npb-class", text.npb_class,
                 "NPB problem class of npb-*: " + allowed_names<NpbClass>())
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--npb-scale", w.npb_scale,
                 "npb-*: the class's message bytes and operations divided by this")
      ->capture_default_str()
      ->group("Workload");
}

void check_workload_options(const WorkloadOptions& text, WorkloadConfig& w,
                            const std::set<std::string>& given,
                            const std::function<std::string(const char*)>& shown) {
  const auto has = [&](const char* o) { return given.count(o) > 0; };
  const std::pair<const char*, std::string> values[] = {
      {"--trace", w.trace},
      {"--iterations", std::to_string(w.iterations)},
      {"--message-size", std::to_string(w.message_size)},
      {"--grid", w.grid},
      {"--mapping", text.mapping},
      {"--write-trace", text.write_trace},
      {"--processes-per-node", std::to_string(w.processes_per_node)},
      {"--local-latency", std::to_string(w.local_latency)},
      {"--compute-cycles", std::to_string(w.compute_cycles)},
      {"--compute-rate", number_text(w.compute_rate)},
      {"--npb-class", text.npb_class},
      {"--npb-scale", std::to_string(w.npb_scale)}};
  const auto value_of = [&](const std::string& o) {
    for (const auto& [name, value] : values) {
      if (o == name) return value;
    }
    return std::string();
  };
  const std::optional<WorkloadKind> kind = enum_value<WorkloadKind>(text.name);
  if (!kind) throw InputError("--workload", text.name, "allowed: " + allowed_workloads());
  w.kind = *kind;
  if (!w.active()) {
    for (const auto& [o, value] : values) {
      if (has(o)) throw InputError(o, value, "is read with --workload only");
    }
    if (has("--workload")) throw InputError("--workload", "", "allowed: " + allowed_workloads());
    return;
  }
  const std::string name = enum_name(w.kind);
  const bool trace = w.is_trace();
  const bool npb = w.is_npb();
  for (const char* o : kTrafficOptions) {
    if (has(o)) {
      throw InputError(o, shown(o),
                       "is not read with --workload " + name +
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
    if (w.trace.empty())
      throw InputError("--trace", "", "a trace file, needed by --workload trace");
    refuse({"--iterations", "--message-size", "--grid", "--mapping", "--processes-per-node",
            "--compute-cycles", "--compute-rate", "--npb-class", "--npb-scale"},
           "is not read with --workload trace (the trace says it)");
  } else {
    if (has("--trace")) throw InputError("--trace", w.trace, "is read with --workload trace only");
    const std::optional<ProcessMapping> mapping = enum_value<ProcessMapping>(text.mapping);
    if (!mapping) {
      throw InputError("--mapping", text.mapping, "allowed: " + allowed_names<ProcessMapping>());
    }
    w.mapping = *mapping;
  }
  if (npb) {
    refuse({"--message-size", "--grid"},
           "is not read with --workload " + name + " (the benchmark gives its sizes and grid)");
    refuse({"--compute-cycles"},
           "is not read with --workload " + name + " (its steps compute at --compute-rate)");
    // A rate of 0 is the option's default (no computation): given, it is refused.
    if (has("--compute-rate") && w.compute_rate == 0) {
      throw InputError(
          "--compute-rate", number_text(w.compute_rate),
          "operations per cycle, a number above 0 and at most " + number_text(kMaxComputeRate));
    }
    const std::optional<NpbClass> size_class = enum_value<NpbClass>(text.npb_class);
    if (!size_class) {
      throw InputError("--npb-class", text.npb_class, "allowed: " + allowed_names<NpbClass>());
    }
    w.npb_class = *size_class;
  } else {
    refuse({"--compute-rate", "--npb-class", "--npb-scale"},
           "is read with the npb-* workloads only");
  }
  if (!trace && !npb) {
    const int dims = grid_dimensions(w.kind);
    if (has("--grid") && dims == 0) {
      throw InputError("--grid", w.grid, "is read by halo2d, halo3d and sweep2d only");
    }
    // An empty --grid given is refused too (validate_workload() reads "" as not given).
    if (has("--grid")) parse_grid(w.grid, dims);
  }
  if (has("--local-latency") && !trace && w.processes_per_node < 2) {
    throw InputError("--local-latency", value_of("--local-latency"),
                     "is read with --processes-per-node above 1 or --workload trace (without "
                     "them no message stays within a node)");
  }
  if (!text.write_trace.empty()) {
    namespace fs = std::filesystem;
    const fs::path p(text.write_trace);
    std::error_code ec;
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (fs::is_directory(p, ec) || !fs::is_directory(dir, ec)) {
      throw InputError("--write-trace", text.write_trace, "a file in an existing directory");
    }
  }
}

MessageLengths workload_lengths(const Workload& w, const WorkloadConfig& c) {
  const MessageGraph::FlitRange r = w.graph.flit_range();
  const std::string name = enum_name(c.kind);
  // No message over the network (an empty graph, or every message within a node): the plan
  // still needs a length.
  if (r.longest == 0) return MessageLengths{1, 1, "--workload " + name};
  MessageLengths l{static_cast<int>(r.shortest), static_cast<int>(r.longest), "--message-size"};
  if (c.is_trace()) {
    l.longest_from = "message " + std::to_string(r.longest_id) + " of --trace " + c.trace;
  } else if (c.is_npb()) {
    l.longest_from = "message " + std::to_string(r.longest_id) + " of --workload " + name +
                     " class " + enum_name(c.npb_class) + " at --npb-scale " +
                     std::to_string(c.npb_scale);
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
