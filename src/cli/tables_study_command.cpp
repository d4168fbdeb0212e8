// `wormnet tables-study`: the Angara paper's Figure 5 study. Random tori of 2, 3 and 4
// dimensions (sizes uniform in [2, 8]); on each, every chosen algorithm generates a table,
// rank-parallel over the sources, which is proven and measured. One row per system goes to
// an HDF5 table (flushed after every system, so a killed study keeps what it finished);
// analysis/tables_study.py groups and draws it. Layout in docs/tables.md.
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "build_version.hpp"
#include "commands.hpp"
#include "table_options.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/h5/time_series_table.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/source_partition.hpp"
#include "wormnet/tables/study_systems.hpp"
#include "wormnet/tables/table_check.hpp"
#include "wormnet/tables/table_file.hpp"
#include "wormnet/tables/table_generator.hpp"
#include "wormnet/tables/table_limits.hpp"

namespace wormnet::cli {

namespace {

using Cell = io::TimeSeriesTable::Cell;

/// The most systems per dimension count (--systems).
constexpr int kMostSystems = 100000;

struct StudyOptions {
  std::vector<int> dims{2, 3, 4};
  std::vector<int> systems{49, 339, 1173};
  int min_size = 2;
  int max_size = 8;
  std::vector<std::string> algorithms = table_algorithm_names();
  std::string output;
  TableGeneratorArgs generator;
  bool quiet = false;
};

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

void check(StudyOptions& o) {
  finish_generator_options(o.generator);
  if (o.dims.size() != o.systems.size()) {
    throw InputError("--systems", join(o.systems),
                     "needs one count per entry of --dims (" + join(o.dims) + ")");
  }
  for (int d : o.dims) {
    if (d < 1 || d > 6) throw InputError("--dims", join(o.dims), "dimensions are 1 to 6");
  }
  for (int c : o.systems) {
    // Each system is a table generation of its own (seconds): the bound only keeps the list
    // of systems drawn below from exhausting memory.
    if (c < 0 || c > kMostSystems) {
      throw InputError("--systems", join(o.systems),
                       "counts must be 0 to " + std::to_string(kMostSystems));
    }
  }
  if (o.min_size < 2) {
    throw InputError("--min-size", std::to_string(o.min_size), "must be >= 2 (a ring)");
  }
  if (o.max_size < o.min_size || o.max_size > 64) {
    throw InputError("--max-size", std::to_string(o.max_size),
                     "sizes must satisfy 2 <= --min-size <= --max-size <= 64");
  }
  for (std::size_t i = 0; i < o.algorithms.size(); ++i) {
    parse_table_algorithm(o.algorithms[i], "--algorithms");
    for (std::size_t j = 0; j < i; ++j) {
      if (o.algorithms[j] == o.algorithms[i]) {
        throw InputError("--algorithms", o.algorithms[i], "named twice: each algorithm once");
      }
    }
  }
  // Every system the study will draw (the draw is the seed's, so known now), checked before
  // the file is made: a system past the tables' limit found mid-run would leave a .partial.
  for (std::size_t k = 0; k < o.dims.size(); ++k) {
    for (const auto& sizes : tables::study_systems(o.dims[k], o.systems[k], o.min_size, o.max_size,
                                                   o.generator.options.seed)) {
      std::uint64_t nodes = 1;
      std::string spec = "torus";
      for (int size : sizes) {
        nodes *= static_cast<std::uint64_t>(size);
        spec += nodes == static_cast<std::uint64_t>(size) ? ':' : 'x';  // sizes are >= 2
        spec += std::to_string(size);
      }
      if (nodes > tables::kMaxTableNodes) {
        throw InputError("--max-size", std::to_string(o.max_size),
                         "--dims " + std::to_string(o.dims[k]) + " draws " + spec + " (" +
                             std::to_string(nodes) +
                             " nodes): a routing table holds N^2 "
                             "routes, at most " +
                             std::to_string(tables::kMaxTableNodes) +
                             " nodes (a smaller --max-size, or fewer --dims)");
      }
    }
  }
}

std::vector<io::ColumnSpec> columns(const StudyOptions& o) {
  std::vector<io::ColumnSpec> c{
      {"index", io::ElementType::kInt64, "", "system number within its dimension count"},
      {"dims", io::ElementType::kInt64, "", "dimensions"}};
  for (int i = 0; i < 6; ++i) {
    c.push_back({"size_" + std::to_string(i), io::ElementType::kInt64, "",
                 "size of dimension " + std::to_string(i) + " (0: none)"});
  }
  c.push_back({"nodes", io::ElementType::kInt64, "", "network nodes N"});
  c.push_back({"channels", io::ElementType::kInt64, "", "directed channels |C|"});
  c.push_back({"added_turns", io::ElementType::kInt64, "", "FS/LS turns of the augmentation"});
  c.push_back({"unique_pairs", io::ElementType::kUInt64, "",
               "ordered pairs with a single minimal route (0 when neither sssp nor genetic ran)"});
  c.push_back({"unique_pairs_literal", io::ElementType::kUInt64, "",
               "ordered pairs with a single path in the literal routing graph (order-preserving "
               "FS/LS splits counted as paths of their own)"});
  c.push_back({"perfect_load", io::ElementType::kFloat64, "routes", "sum of pair distances / |C|"});
  for (const auto& a : o.algorithms) {
    c.push_back({a + "_pi", io::ElementType::kFloat64, "routes", "edge-forwarding index"});
    c.push_back({a + "_sigma4", io::ElementType::kFloat64, "routes", "sigma(4, R)"});
    c.push_back({a + "_min_load", io::ElementType::kFloat64, "routes", "least channel load"});
    c.push_back({a + "_max_route", io::ElementType::kInt64, "hops", "longest route"});
    c.push_back({a + "_seconds", io::ElementType::kFloat64, "s",
                 "generation wall time (augmentation included)"});
    c.push_back({a + "_cpu_seconds", io::ElementType::kFloat64, "s", "generation CPU time"});
    c.push_back({a + "_ok", io::ElementType::kInt64, "",
                 "1 when proven complete, minimal, Angara-rule abiding and deadlock-free"});
  }
  c.push_back({"genetic_generations", io::ElementType::kInt64, "", "generations run"});
  c.push_back({"sssp_calls", io::ElementType::kUInt64, "", "BUILD_SSSP calls"});
  return c;
}

/// Pairs with a single path in the literal routing graph (with the augmentation's turns).
std::uint64_t literal_unique_pairs(const Torus& topo, const Communicator& comm) {
  const tables::CdgAugmentation aug(topo);
  const tables::RoutingGraph graph(topo, aug.turns());
  tables::RouteSearch search(graph);
  const std::uint32_t n = topo.num_nodes();
  std::vector<std::uint32_t> counts(n);
  std::vector<RouteWord> unique(n);
  const tables::SourceBlock block = tables::source_block(n, comm.rank(), comm.size());
  std::uint64_t total = 0;
  for (std::uint32_t s = block.begin; s < block.end; ++s) {
    search.count_routes(NodeId(s), counts, unique, tables::EdgeSet::kLiteral);
    for (std::uint32_t d = 0; d < n; ++d) total += (d != s && counts[d] == 1) ? 1 : 0;
  }
  return comm.sum(total);
}

/// Writes the study's description into `file` (the partial sibling of -o).
void write_header(const StudyOptions& o, const io::H5File& file, const Communicator& comm) {
  const io::H5Group root = file.root();
  root.set_attribute(io::schema::kSchemaVersionAttr, io::schema::kSchemaVersion);
  io::set_run_status(file, io::RunStatus::kRunning);
  root.set_attribute(tables::table_schema::kContentAttr, std::string_view("angara-table-study"));
  root.set_attribute(tables::table_schema::kVersionAttr, tables::table_schema::kVersion);
  root.set_attribute(io::schema::kWormnetVersionAttr, std::string_view(WORMNET_VERSION));
  root.set_attribute(io::schema::kGitShaAttr, std::string_view(build_git_sha()));
  root.set_attribute(io::schema::kRanksAttr, static_cast<std::int64_t>(comm.size()));
  const std::vector<std::int64_t> dims(o.dims.begin(), o.dims.end());
  const std::vector<std::int64_t> counts(o.systems.begin(), o.systems.end());
  root.set_attribute("dims", std::span<const std::int64_t>(dims));
  root.set_attribute("systems", std::span<const std::int64_t>(counts));
  root.set_attribute("min_size", static_cast<std::int64_t>(o.min_size));
  root.set_attribute("max_size", static_cast<std::int64_t>(o.max_size));
  root.set_attribute("seed", o.generator.options.seed);
  root.set_attribute("sync", static_cast<std::int64_t>(o.generator.options.sync_sources));
  root.set_attribute("algorithms", std::span<const std::string>(o.algorithms));
  const tables::GeneticOptions& ga = o.generator.options.genetic;
  root.set_attribute("genetic_patience", static_cast<std::int64_t>(ga.patience));
  root.set_attribute("genetic_min_gain", ga.min_gain);
  root.set_attribute("genetic_good_enough", ga.good_enough);
  root.set_attribute("genetic_max_generations", static_cast<std::int64_t>(ga.max_generations));
}

int run_study(StudyOptions& o) {
  check(o);
  const Communicator comm = Communicator::world();
  io::OutputFile out = io::OutputFile::claim(comm, o.output, "--output");
  io::H5File file = io::H5File::create(comm, out.partial(), "--output");
  std::optional<io::TimeSeriesTable> rows;
  // The file system's failures: the partial file (every finished system, flushed) says
  // "failed" where it can still be written; an earlier study at -o stays.
  const auto guarded = [&](const std::function<void()>& write) {
    try {
      io::guarded_write(comm, out.partial(), write);
    } catch (const OutputError&) {
      try {
        rows.reset();
        io::guarded_write(comm, out.partial(), [&] {
          io::set_run_status(file, io::RunStatus::kFailed);
          file.close();
        });
      } catch (const OutputError&) {
      }
      throw;
    }
  };
  guarded([&] {
    write_header(o, file, comm);
    rows = io::TimeSeriesTable::create(file.root(), "systems", columns(o), 256);
    file.flush();
  });

  int total = 0;
  for (int c : o.systems) total += c;
  int done = 0;
  for (std::size_t k = 0; k < o.dims.size(); ++k) {
    const auto systems = tables::study_systems(o.dims[k], o.systems[k], o.min_size, o.max_size,
                                               o.generator.options.seed);
    for (std::size_t i = 0; i < systems.size(); ++i) {
      const Torus topo(systems[i], true);
      std::vector<Cell> row{Cell{static_cast<std::int64_t>(i)},
                            Cell{static_cast<std::int64_t>(o.dims[k])}};
      for (int d = 0; d < 6; ++d) {
        row.emplace_back(static_cast<std::int64_t>(d < topo.num_dims() ? topo.size(d) : 0));
      }
      row.emplace_back(static_cast<std::int64_t>(topo.num_nodes()));
      row.emplace_back(static_cast<std::int64_t>(topo.num_channels()));
      std::vector<Cell> per_algorithm;
      std::ostringstream line;
      line << "[" << ++done << "/" << total << "] " << topo.spec() << " (" << topo.num_nodes()
           << " nodes):";
      std::int64_t turns = 0;
      std::uint64_t unique = 0;
      double perfect = 0.0;
      std::int64_t generations = 0;
      std::uint64_t calls = 0;
      for (const auto& name : o.algorithms) {
        tables::GeneratorOptions go = o.generator.options;
        go.algorithm = parse_table_algorithm(name, "--algorithms");
        const tables::GeneratedTable g = tables::generate_table(topo, go, comm);
        const tables::TableReport r = tables::check_table(*g.table, g.turns, comm);
        turns = static_cast<std::int64_t>(g.stats.added_turns);
        unique = std::max(unique, g.stats.unique_pairs);
        perfect = r.metrics.perfect_load;
        if (go.algorithm == tables::TableAlgorithm::kGenetic) generations = g.stats.generations;
        if (go.algorithm == tables::TableAlgorithm::kSssp) calls = g.stats.build_sssp_calls;
        per_algorithm.emplace_back(r.metrics.pi);
        per_algorithm.emplace_back(r.metrics.sigma4);
        per_algorithm.emplace_back(r.metrics.min_load);
        per_algorithm.emplace_back(static_cast<std::int64_t>(r.metrics.max_route_length));
        per_algorithm.emplace_back(g.stats.seconds);
        per_algorithm.emplace_back(g.stats.cpu_seconds);
        per_algorithm.emplace_back(static_cast<std::int64_t>(r.verdict.ok() ? 1 : 0));
        char buf[96];
        std::snprintf(buf, sizeof buf, "  %s pi %.0f (%.3f s)%s", name.c_str(), r.metrics.pi,
                      g.stats.seconds, r.verdict.ok() ? "" : " NOT PROVEN");
        line << buf;
      }
      row.emplace_back(turns);
      row.emplace_back(unique);
      row.emplace_back(literal_unique_pairs(topo, comm));
      row.emplace_back(perfect);
      row.insert(row.end(), per_algorithm.begin(), per_algorithm.end());
      row.emplace_back(generations);
      row.emplace_back(calls);
      guarded([&] {
        rows->append(row);
        file.flush();
      });
      if (comm.is_root() && !o.quiet) {
        std::printf("%s\n", line.str().c_str());
        std::fflush(stdout);
      }
    }
  }
  guarded([&] {
    rows.reset();
    io::set_run_status(file, io::RunStatus::kComplete);
    file.close();
  });
  out.commit(comm);
  out.release();
  if (comm.is_root() && !o.quiet) std::printf("written       %s\n", o.output.c_str());
  return 0;
}

}  // namespace

Command add_tables_study_command(CLI::App& root) {
  auto opts = std::make_shared<StudyOptions>();
  CLI::App* app = root.add_subcommand(
      "tables-study",
      "The Angara paper's Figure 5 study: tables of random tori, one HDF5 row each");
  app->add_option("--dims", opts->dims, "dimension counts, e.g. 2,3,4")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--systems", opts->systems, "systems per dimension count (paper: 49,339,1173)")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--min-size", opts->min_size, "smallest dimension size")->capture_default_str();
  app->add_option("--max-size", opts->max_size, "largest dimension size")->capture_default_str();
  std::string names;
  for (const std::string& n : table_algorithm_names()) names += (names.empty() ? "" : ", ") + n;
  app->add_option("--algorithms", opts->algorithms, "any of " + names)
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--output,-o", opts->output, "HDF5 file for the results")->required();
  add_generator_options(*app, opts->generator);
  app->add_flag("--quiet,-q", opts->quiet, "No progress lines");
  return {app, [opts] { return run_study(*opts); }};
}

}  // namespace wormnet::cli
