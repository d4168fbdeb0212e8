#include "wormnet/workload/workload_factory.hpp"

#include <optional>

#include "wormnet/core/checked_math.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"
#include "wormnet/workload/motifs.hpp"
#include "wormnet/workload/npb_skeletons.hpp"
#include "wormnet/workload/process_mapping.hpp"
#include "wormnet/workload/trace_file.hpp"

namespace wormnet {

namespace {

/// An NPB skeleton on K x N processes; its limits checked before and after building.
Workload build_npb(const WorkloadConfig& w, const Topology& topo, std::uint64_t seed,
                   std::uint32_t processes) {
  const NpbBenchmark benchmark = npb_of(w.kind);
  NpbSpec spec;
  spec.benchmark = benchmark;
  spec.size_class = w.npb_class;
  spec.iterations = static_cast<std::uint32_t>(w.iterations);
  spec.scale = w.npb_scale;
  spec.rate = w.compute_rate;
  const std::string who = std::string(enum_name(w.kind)) + " class " + enum_name(w.npb_class);
  const std::string fits = npb_fits(benchmark, spec.size_class, processes);
  if (!fits.empty()) {
    throw InputError(
        "--processes-per-node", std::to_string(w.processes_per_node),
        std::to_string(w.processes_per_node) + " x " + std::to_string(topo.num_nodes()) +
            " nodes = " + std::to_string(processes) + " processes; " + who + " runs on " + fits);
  }
  const std::uint64_t bound = npb_messages_bound(spec, processes);
  if (bound > kMaxWorkloadMessages) {
    throw InputError("--iterations", std::to_string(w.iterations),
                     "a workload of at most " + std::to_string(kMaxWorkloadMessages) +
                         " messages (" + who + " on " + std::to_string(processes) +
                         " processes sends up to " + std::to_string(bound) + " in " +
                         std::to_string(w.iterations) + " iterations)");
  }
  Workload out;
  out.grid = npb_grid(benchmark, processes);
  out.node_of = map_processes(w.mapping, topo, out.grid, seed,
                              static_cast<std::uint32_t>(w.processes_per_node));
  NpbWorkload built = make_npb(spec, out.node_of);
  if (built.largest_flits > MessageGraph::kMaxFlits) {
    const std::uint64_t need =
        (built.largest_flits * w.npb_scale + MessageGraph::kMaxFlits - 1) / MessageGraph::kMaxFlits;
    throw InputError("--npb-scale", std::to_string(w.npb_scale),
                     "messages of at most " + std::to_string(MessageGraph::kMaxFlits) +
                         " flits (one packet); the largest of " + who + " on " +
                         std::to_string(processes) + " processes has " +
                         std::to_string(built.largest_flits) + " flits of " +
                         std::to_string(kNpbFlitBytes) + " bytes: a scale of " +
                         std::to_string(need) + " or more");
  }
  if (built.largest_compute > MessageGraph::kMaxCompute) {
    throw InputError("--compute-rate", number_text(w.compute_rate),
                     "steps of at most " + std::to_string(MessageGraph::kMaxCompute) +
                         " cycles of computation; the longest of " + who + " on " +
                         std::to_string(processes) + " processes at --npb-scale " +
                         std::to_string(w.npb_scale) + " would take more: a higher rate");
  }
  out.graph = std::move(built.graph);
  return out;
}

}  // namespace

Workload build_workload(const WorkloadConfig& w, const Topology& topo, std::uint64_t seed,
                        const StopCheck& stop) {
  Workload out;
  const std::uint32_t nodes = topo.num_nodes();
  if (w.is_trace()) {
    out.graph = read_trace(w.trace, nodes, "--trace", stop);
    return out;
  }
  // K processes on each of the N nodes: at most 1024 x 2^32, so the product is exact in 64
  // bits; a process count beyond 2^32 could never send few enough messages.
  const std::uint64_t per_node = w.processes_per_node;
  const std::uint64_t all = per_node * nodes;
  if (all > std::uint64_t{1} << 31) {
    throw InputError("--processes-per-node", std::to_string(per_node),
                     "at most 2^31 processes in all (" + std::to_string(nodes) + " nodes x " +
                         std::to_string(per_node) + " is more)");
  }
  const auto processes = static_cast<std::uint32_t>(all);
  if (w.is_npb()) return build_npb(w, topo, seed, processes);
  const Motif motif = motif_of(w.kind);
  const int dims = grid_dimensions(motif);
  const std::string placed = per_node == 1
                                 ? "one per node of " + topo.spec()
                                 : std::to_string(per_node) + " per node of " + topo.spec() + " (" +
                                       std::to_string(nodes) + " nodes)";
  if (dims == 0) {
    out.grid = {static_cast<int>(processes)};
  } else if (w.grid.empty()) {
    out.grid = balanced_grid(processes, dims);
  } else {
    out.grid = parse_grid(w.grid, dims);
    std::optional<std::uint64_t> product = 1;  // nullopt past 2^64
    for (const int g : out.grid) {
      if (product) product = checked_mul(*product, static_cast<std::uint64_t>(g));
    }
    if (product != processes) {
      throw InputError("--grid", w.grid,
                       "a grid of " + std::to_string(processes) + " processes, " + placed +
                           " (this one has " +
                           (product ? std::to_string(*product) : "more than 2^64") + ")");
    }
  }
  const ProcessMapping mapping = w.mapping;
  // Messages per iteration, bounded before anything is built (a step marker per process
  // and iteration at most, with computation).
  const std::uint64_t per_iteration =
      motif_messages_per_iteration(motif, processes, w.compute_cycles > 0);
  const std::optional<std::uint64_t> messages = checked_mul(per_iteration, w.iterations);
  if (!messages || *messages > kMaxWorkloadMessages) {
    throw InputError("--iterations", std::to_string(w.iterations),
                     "a workload of at most " + std::to_string(kMaxWorkloadMessages) +
                         " messages (" + enum_name(w.kind) + " on " + std::to_string(processes) +
                         (per_node == 1 ? " nodes" : " processes") + " sends up to " +
                         std::to_string(per_iteration) + " per iteration)");
  }
  out.node_of = map_processes(mapping, topo, out.grid, seed, static_cast<std::uint32_t>(per_node));
  MotifSpec spec;
  spec.motif = motif;
  spec.iterations = static_cast<std::uint32_t>(w.iterations);
  spec.flits = static_cast<std::uint32_t>(w.message_size);
  spec.compute = static_cast<std::uint32_t>(w.compute_cycles);
  spec.grid = out.grid;
  out.graph = make_motif(spec, out.node_of);
  return out;
}

}  // namespace wormnet
