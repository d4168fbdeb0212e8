#include "workload_options.hpp"

#include <filesystem>
#include <optional>

#include "toml_string.hpp"
#include "wormnet/core/checked_math.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/workload/motifs.hpp"
#include "wormnet/workload/process_mapping.hpp"
#include "wormnet/workload/trace_file.hpp"

namespace wormnet::cli {

namespace {

/// The most messages a workload may have: the per-message state of every rank (about 100
/// bytes each) stays within a few GB.
constexpr std::uint64_t kMaxMessages = 20'000'000;
constexpr std::uint64_t kMaxIterations = 1'000'000;

std::string allowed_workloads() {
  std::string s;
  for (const auto& [name, m] : motif_names()) s += name + ", ";
  return s + "trace";
}

/// Open-loop traffic options: a workload's messages are its own.
constexpr const char* kTrafficOptions[] = {
    "--load",       "--load-fraction", "--traffic",      "--process",          "--length",
    "--length-min", "--length-max",    "--self-traffic", "--hotspot-fraction", "--hotspot-nodes",
    "--warmup",     "--measure",       "--cycles"};

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

}  // namespace

void add_workload_options(CLI::App& app, WorkloadOptions& w) {
  app.add_option("--workload", w.name,
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
  app.add_option("--mapping", w.mapping,
                 "processes to nodes: linear, random (--seed), topology (recursive bisection "
                 "on the network's geometry)")
      ->capture_default_str()
      ->group("Workload");
  app.add_option("--write-trace", w.write_trace,
                 "also write the workload's messages as a trace file (CSV)")
      ->group("Workload");
}

void check_workload_options(const WorkloadOptions& w, const std::set<std::string>& given,
                            const std::function<std::string(const char*)>& shown) {
  const auto has = [&](const char* o) { return given.count(o) > 0; };
  const std::pair<const char*, std::string> values[] = {
      {"--trace", w.trace},
      {"--iterations", std::to_string(w.iterations)},
      {"--message-size", std::to_string(w.message_size)},
      {"--grid", w.grid},
      {"--mapping", w.mapping},
      {"--write-trace", w.write_trace}};
  if (!w.active()) {
    for (const auto& [o, value] : values) {
      if (has(o)) throw InputError(o, value, "is read with --workload only");
    }
    if (has("--workload")) throw InputError("--workload", "", "allowed: " + allowed_workloads());
    return;
  }
  const auto& motifs = motif_names();
  const bool trace = w.name == "trace";
  if (!trace && motifs.count(w.name) == 0) {
    throw InputError("--workload", w.name, "allowed: " + allowed_workloads());
  }
  for (const char* o : kTrafficOptions) {
    if (has(o)) {
      throw InputError(o, shown(o),
                       "is not read with --workload " + w.name +
                           " (a workload's messages and run length are its own)");
    }
  }
  if (trace) {
    if (w.trace.empty())
      throw InputError("--trace", "", "a trace file, needed by --workload trace");
    for (const auto& [o, value] : values) {
      if (has(o) && std::string(o) != "--trace" && std::string(o) != "--write-trace") {
        throw InputError(o, value, "is not read with --workload trace (the trace says it)");
      }
    }
  } else {
    if (has("--trace")) throw InputError("--trace", w.trace, "is read with --workload trace only");
    if (w.iterations < 1 || w.iterations > kMaxIterations) {
      throw InputError("--iterations", std::to_string(w.iterations),
                       "1.." + std::to_string(kMaxIterations));
    }
    if (w.message_size < 1 ||
        static_cast<std::uint32_t>(w.message_size) > MessageGraph::kMaxFlits) {
      throw InputError("--message-size", std::to_string(w.message_size),
                       "1.." + std::to_string(MessageGraph::kMaxFlits) + " flits");
    }
    if (mapping_names().count(w.mapping) == 0) {
      std::string names;
      for (const auto& [name, m] : mapping_names()) names += (names.empty() ? "" : ", ") + name;
      throw InputError("--mapping", w.mapping, "allowed: " + names);
    }
    const int dims = grid_dimensions(motifs.at(w.name));
    if (has("--grid") && dims == 0) {
      throw InputError("--grid", w.grid, "is read by halo2d, halo3d and sweep2d only");
    }
    if (has("--grid")) parse_grid(w.grid, dims);
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
  std::string s = "workload = " + toml_string(w.name) + "\n";
  if (w.name == "trace") return s + "trace = " + toml_string(w.trace) + "\n";
  s += "iterations = " + std::to_string(w.iterations) + "\n";
  s += "message-size = " + std::to_string(w.message_size) + "\n";
  if (!w.grid.empty()) s += "grid = " + toml_string(w.grid) + "\n";
  s += "mapping = " + toml_string(w.mapping) + "\n";
  return s;
}

Workload build_workload(const WorkloadOptions& w, const Topology& topo, std::uint64_t seed,
                        const StopCheck& stop) {
  Workload out;
  const std::uint32_t nodes = topo.num_nodes();
  if (w.name == "trace") {
    out.graph = read_trace(w.trace, nodes, "--trace", stop);
    return out;
  }
  const Motif motif = motif_names().at(w.name);
  const int dims = grid_dimensions(motif);
  if (dims == 0) {
    out.grid = {static_cast<int>(nodes)};
  } else if (w.grid.empty()) {
    out.grid = balanced_grid(nodes, dims);
  } else {
    out.grid = parse_grid(w.grid, dims);
    std::optional<std::uint64_t> product = 1;  // nullopt past 2^64
    for (const int g : out.grid) {
      if (product) product = checked_mul(*product, static_cast<std::uint64_t>(g));
    }
    if (product != nodes) {
      throw InputError("--grid", w.grid,
                       "a grid of " + std::to_string(nodes) + " processes, one per node of " +
                           topo.spec() + " (this one has " +
                           (product ? std::to_string(*product) : "more than 2^64") + ")");
    }
  }
  // Messages per iteration, bounded before anything is built.
  const std::uint64_t p = nodes;
  std::uint64_t per_iteration = 0;
  switch (motif) {
    case Motif::kHalo2d:
    case Motif::kHalo3d:
      per_iteration = 2 * static_cast<std::uint64_t>(dims) * p;
      break;
    case Motif::kSweep2d:
      per_iteration = 2 * p;
      break;
    case Motif::kAllreduceRing:
      per_iteration = 2 * (p - 1) * p;
      break;
    case Motif::kAllreduceRd:
      per_iteration = p * 64;
      break;
    case Motif::kAllToAll:
      per_iteration = p * (p - 1);
      break;
  }
  const std::optional<std::uint64_t> messages = checked_mul(per_iteration, w.iterations);
  if (!messages || *messages > kMaxMessages) {
    throw InputError("--iterations", std::to_string(w.iterations),
                     "a workload of at most " + std::to_string(kMaxMessages) + " messages (" +
                         w.name + " on " + std::to_string(nodes) + " nodes sends up to " +
                         std::to_string(per_iteration) + " per iteration)");
  }
  out.node_of = map_processes(mapping_names().at(w.mapping), topo, out.grid, seed);
  MotifSpec spec;
  spec.motif = motif;
  spec.iterations = static_cast<std::uint32_t>(w.iterations);
  spec.flits = static_cast<std::uint32_t>(w.message_size);
  spec.grid = out.grid;
  out.graph = make_motif(spec, out.node_of);
  return out;
}

MessageLengths workload_lengths(const Workload& w, const WorkloadOptions& o) {
  const MessageGraph::FlitRange r = w.graph.flit_range();
  if (w.graph.size() == 0) return MessageLengths{1, 1, "--workload " + o.name};
  MessageLengths l{static_cast<int>(r.shortest), static_cast<int>(r.longest), "--message-size"};
  if (o.name == "trace") {
    l.longest_from = "message " + std::to_string(r.longest_id) + " of --trace " + o.trace;
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
  if (!r.complete) return s;
  std::snprintf(buf, sizeof buf, "completion %llu cycles (%.3f us)\n",
                static_cast<unsigned long long>(r.completion),
                static_cast<double>(r.completion) / flit_rate);
  s += buf;
  std::snprintf(buf, sizeof buf,
                "critical   %zu messages: wait %llu + queueing %llu + network %llu cycles\n",
                r.critical_path.size(), static_cast<unsigned long long>(r.path_wait),
                static_cast<unsigned long long>(r.path_queueing),
                static_cast<unsigned long long>(r.path_network));
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
