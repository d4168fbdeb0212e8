// `wormnet tables`: generates an Angara routing table (BFS, genetic or SSSP) for a torus,
// rank-parallel over the sources, measures it (pi, sigma(4,R), minimum load, longest route,
// run time), proves it complete, minimal and deadlock-free, and writes it with its metrics
// to an HDF5 file (layout in docs/tables.md). Exit 0 = table ok, 1 = the proof failed (a
// bug), 2 = bad input (with faults: working pairs without a legal route, unless
// --allow-unroutable).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "build_version.hpp"
#include "commands.hpp"
#include "fault_options.hpp"
#include "json_writer.hpp"
#include "option_rules.hpp"
#include "table_options.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/driver/network_faults.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/tables/table_check.hpp"
#include "wormnet/tables/table_file.hpp"
#include "wormnet/tables/table_limits.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet::cli {

namespace {

struct TablesOptions {
  FaultConfig faults;
  std::string topology;
  std::string algorithm;
  std::string output;
  TableGeneratorArgs generator;
  bool json = false;
  bool quiet = false;
  bool allow_unroutable = false;
};

/// "(0,0) -> (1,0), (0,1) -> (1,0)": the examples of pairs without a legal route.
std::string unroutable_examples(const Torus& topo, const tables::TableVerdict& v) {
  std::string out;
  for (const auto& [s, d] : v.unroutable_examples) {
    out += (out.empty() ? "" : ", ") + topo.node_label(s) + " -> " + topo.node_label(d);
  }
  if (v.unroutable > v.unroutable_examples.size()) out += ", ...";
  return out;
}

const char* yes(bool b) {
  return b ? "yes" : "NO";
}

void print_text(const Torus& topo, const tables::GeneratedTable& g, const tables::TableReport& r,
                const TablesOptions& o) {
  const tables::GenerationStats& st = g.stats;
  const tables::TableMetrics& m = r.metrics;
  const tables::TableVerdict& v = r.verdict;
  std::printf("wormnet tables: %s on %s (%u nodes, %u channels), %d rank%s\n",
              enum_name(o.generator.options.algorithm), topo.spec().c_str(), topo.num_nodes(),
              topo.num_channels(), st.ranks, st.ranks > 1 ? "s" : "");
  std::printf("augmentation  %llu FS/LS turns added to the direction order (%.3f s)\n",
              static_cast<unsigned long long>(st.added_turns), st.augmentation_seconds);
  std::printf("generation    %.3f s (cpu %.3f s)", st.seconds, st.cpu_seconds);
  // BFS does not count routes, so it has no single-route figure.
  if (o.generator.options.algorithm != tables::TableAlgorithm::kBfs) {
    std::printf("; %llu of %llu pairs have a single minimal route",
                static_cast<unsigned long long>(st.unique_pairs),
                static_cast<unsigned long long>(m.pairs));
  }
  switch (o.generator.options.algorithm) {
    case tables::TableAlgorithm::kSssp:
      std::printf("; %llu BUILD_SSSP calls in %llu groups",
                  static_cast<unsigned long long>(st.build_sssp_calls),
                  static_cast<unsigned long long>(st.groups));
      break;
    case tables::TableAlgorithm::kGenetic:
      std::printf("; %llu genes, %d generations, sigma(4,R) %.4f -> %.4f",
                  static_cast<unsigned long long>(st.genes), st.generations, st.initial_sigma4,
                  st.final_sigma4);
      break;
    case tables::TableAlgorithm::kBfs:
      break;
  }
  if (st.ranks > 1)
    std::printf("; %llu weight exchanges", static_cast<unsigned long long>(st.exchanges));
  std::printf("\n");
  if (st.ranks > 1) {
    std::printf("ranks        ");
    constexpr std::size_t kPhases = tables::GenerationStats::kRankPhases;
    for (std::size_t k = 0; k + kPhases <= st.rank_phases.size(); k += kPhases) {
      std::printf(" [%zu] routing %.3f s (cpu %.3f s), exchanges %.3f s, rows %.3f s;", k / kPhases,
                  st.rank_phases[k], st.rank_phases[k + 1], st.rank_phases[k + 2],
                  st.rank_phases[k + 3]);
    }
    std::printf("\n");
  }
  std::printf(
      "table         pi %.0f  sigma(4,R) %.4f  min load %.0f  perfect load %.4f  max route %d "
      "hops (mean %.4f)  (N-1)/pi %.5f flits/node/cycle\n",
      m.pi, m.sigma4, m.min_load, m.perfect_load, m.max_route_length, m.mean_route_length,
      m.saturation_rate);
  if (v.faulty) {
    // Around faults a route may be longer than the torus distance (docs/tables.md section 8).
    std::printf(
        "faults        %llu working pairs routed, mean stretch %.4f, max stretch %.4f; "
        "%llu without a legal route%s%s%s\n",
        static_cast<unsigned long long>(m.pairs), m.mean_stretch, m.max_stretch,
        static_cast<unsigned long long>(v.unroutable), v.unroutable > 0 ? " (" : "",
        unroutable_examples(topo, v).c_str(), v.unroutable > 0 ? ")" : "");
    std::printf(
        "proof         complete over the routed pairs %s, shortest over the working "
        "links %s, Angara rules %s, deadlock-free %s: ",
        yes(v.complete), v.minimal ? "yes" : "no", yes(v.angara_rules), yes(v.deadlock_free));
  } else {
    std::printf("proof         complete %s, minimal %s, Angara rules %s, deadlock-free %s: ",
                yes(v.complete), yes(v.minimal), yes(v.angara_rules), yes(v.deadlock_free));
  }
  std::printf(
      "%llu channel dependencies, %llu of them inside rings (bubble flow control); %s (%.3f s)\n",
      static_cast<unsigned long long>(v.cdg_edges),
      static_cast<unsigned long long>(v.ring_dependencies),
      v.deadlock_free ? "no cycle between rings, none leaves a ring" : v.cycle.c_str(), r.seconds);
  if (!v.defect.empty()) std::printf("defect        %s\n", v.defect.c_str());
  if (!o.output.empty()) {
    std::printf("written       %s\n", o.output.c_str());
  } else {
    // It used to end here silently after minutes of work: the table is gone with the process.
    std::printf(
        "written       nothing: no -o FILE, so the table was not kept (with -o it is written "
        "for --routing table --tables FILE)\n");
  }
}

void print_json(const Torus& topo, const tables::GeneratedTable& g, const tables::TableReport& r,
                const TablesOptions& o) {
  const tables::GenerationStats& st = g.stats;
  const tables::TableMetrics& m = r.metrics;
  const tables::TableVerdict& v = r.verdict;
  JsonWriter j;
  j.begin_object();
  j.field("topology", topo.spec()).field("algorithm", enum_name(o.generator.options.algorithm));
  j.field("nodes", topo.num_nodes()).field("channels", topo.num_channels());
  j.field("ranks", st.ranks).field("seed", o.generator.options.seed);
  j.field("sync", g.stats.sync);
  j.field("pi", m.pi).field("sigma4", m.sigma4).field("min_load", m.min_load);
  j.field("perfect_load", m.perfect_load).field("max_route_length", m.max_route_length);
  j.field("mean_route_length", m.mean_route_length).field("saturation_rate", m.saturation_rate);
  j.field("seconds", st.seconds).field("cpu_seconds", st.cpu_seconds);
  j.field("augmentation_seconds", st.augmentation_seconds);
  j.field("added_turns", st.added_turns).field("unique_pairs", st.unique_pairs);
  j.field("build_sssp_calls", st.build_sssp_calls).field("groups", st.groups);
  j.field("genes", st.genes).field("generations", st.generations);
  j.field("exchanges", st.exchanges).field("expanded", st.expanded);
  // Per rank: routing wall and CPU, exchanges, rows (seconds).
  j.key("rank_phases").begin_array();
  constexpr std::size_t kPhases = tables::GenerationStats::kRankPhases;
  for (std::size_t k = 0; k + kPhases <= st.rank_phases.size(); k += kPhases) {
    j.begin_array();
    for (std::size_t i = 0; i < kPhases; ++i) j.value(st.rank_phases[k + i]);
    j.end_array();
  }
  j.end_array();
  j.field("complete", v.complete).field("minimal", v.minimal);
  j.field("angara_rules", v.angara_rules).field("deadlock_free", v.deadlock_free);
  j.field("cdg_edges", v.cdg_edges).field("ring_dependencies", v.ring_dependencies);
  j.field("defect", v.defect).field("check_seconds", r.seconds);
  if (v.faulty) {
    j.field("pairs", m.pairs).field("mean_stretch", m.mean_stretch);
    j.field("max_stretch", m.max_stretch).field("unroutable_pairs", v.unroutable);
    j.key("unroutable_examples").begin_array();
    for (const auto& [s, d] : v.unroutable_examples) {
      j.begin_array().value(topo.node_label(s)).value(topo.node_label(d)).end_array();
    }
    j.end_array();
  }
  j.end_object();
  std::printf("%s\n", j.str().c_str());
}

int run_tables(TablesOptions& o) {
  finish_generator_options(o.generator);
  o.generator.options.algorithm = parse_table_algorithm(o.algorithm, "--algorithm");
  const auto topology = make_topology(o.topology);
  const Torus& topo = tables::require_table_topology(*topology, "--topology");
  const Communicator comm = Communicator::world();
  // With faults the generators route around them (docs/tables.md section 8).
  const auto faults = build_faults(topo, o.faults, comm);
  // Claimed before the generation (minutes to hours on large tori): a path that cannot be
  // written, or a second run on the same file, is refused before the work.
  std::optional<io::OutputFile> out;
  if (!o.output.empty()) out = io::OutputFile::claim(comm, o.output, "--output");
  const tables::GeneratedTable g =
      tables::generate_table(topo, o.generator.options, comm, faults.get());
  const tables::TableReport report = tables::check_table(*g.table, g.turns, comm, faults.get());
  const tables::TableVerdict& v = report.verdict;
  // Pairs without a legal route are no silent hole: the table is refused (nothing written)
  // unless --allow-unroutable accepts it; the error line says how many and which.
  const bool refused = v.unroutable > 0 && !o.allow_unroutable && v.ok();
  if (!o.output.empty() && !refused) {
    tables::TableFileContents contents;
    contents.table = g.table.get();
    contents.turns = &g.turns;
    contents.stats = &g.stats;
    contents.report = &report;
    contents.options = o.generator.options;
    contents.version = WORMNET_VERSION;
    contents.git_sha = build_git_sha();
    contents.faults = faults.get();
    contents.fault_config = o.faults;
    tables::write_table_file(*out, contents, comm);
  }
  // One line on stderr, nothing on stdout, nothing written (a bad input: the fault set).
  if (refused) {
    const FaultOption f = fault_option(o.faults);
    throw InputError(
        f.option, f.value,
        std::to_string(v.unroutable) + " working pair" + (v.unroutable == 1 ? " has" : "s have") +
            " no legal Angara route around these faults (" + unroutable_examples(topo, v) +
            "); --allow-unroutable accepts a table without them (docs/tables.md)");
  }
  if (comm.is_root() && !o.quiet) {
    if (o.json) {
      print_json(topo, g, report, o);
    } else {
      std::printf("%s", fault_line(topo, *faults, o.faults).c_str());
      print_text(topo, g, report, o);
    }
  }
  return report.verdict.ok() ? 0 : 1;
}

}  // namespace

Command add_tables_command(CLI::App& root) {
  auto opts = std::make_shared<TablesOptions>();
  CLI::App* app = root.add_subcommand(
      "tables", "Generate an Angara routing table (bfs, genetic, sssp), prove and store it");
  app->add_option("--topology,-t", opts->topology,
                  "torus:AxB... (a size-2 dimension is a mesh link)")
      ->required();
  app->add_option("--algorithm,-a", opts->algorithm, "bfs, genetic or sssp")->required();
  app->add_option("--output,-o", opts->output, "HDF5 file for the table and its metrics");
  add_generator_options(*app, opts->generator);
  app->add_flag("--json", opts->json, "Print one JSON object");
  app->add_flag("--quiet,-q", opts->quiet, "Print nothing");
  add_fault_options(*app, opts->faults);
  app->add_flag("--allow-unroutable", opts->allow_unroutable,
                "accept a table in which some working pairs have no legal route around the "
                "faults (they are listed; run refuses traffic that needs them)")
      ->group("Faults");
  return {app, [opts, app] {
            check_fault_options(opts->faults, given_options(*app));
            if (opts->allow_unroutable && !opts->faults.any()) {
              throw InputError("--allow-unroutable", "set",
                               "is read with faults only (--faults, --fail-links, --fail-nodes): "
                               "without them every pair has a route");
            }
            return run_tables(*opts);
          }};
}

}  // namespace wormnet::cli
