#include "wormnet/tables/table_file.hpp"

#include <filesystem>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/tables/fault_record.hpp"

namespace wormnet::tables {

namespace {

std::int64_t flag(bool b) {
  return b ? 1 : 0;
}

void write_generation(const io::H5Group& g, const GenerationStats& st, const GeneratorOptions& o) {
  g.set_attribute("seconds", st.seconds);
  g.set_attribute("cpu_seconds", st.cpu_seconds);
  g.set_attribute("augmentation_seconds", st.augmentation_seconds);
  g.set_attribute("added_turns", st.added_turns);
  g.set_attribute("exchanges", st.exchanges);
  g.set_attribute("expanded", st.expanded);
  g.set_attribute("unique_pairs", st.unique_pairs);
  g.set_attribute("build_sssp_calls", st.build_sssp_calls);
  g.set_attribute("groups", st.groups);
  g.set_attribute("genes", st.genes);
  g.set_attribute("generations", static_cast<std::int64_t>(st.generations));
  g.set_attribute("initial_sigma4", st.initial_sigma4);
  g.set_attribute("final_sigma4", st.final_sigma4);
  g.set_attribute("ranks", static_cast<std::int64_t>(st.ranks));
  g.set_attribute("seed", o.seed);
  g.set_attribute("sync", static_cast<std::int64_t>(st.sync));
  g.set_attribute(
      "turn_candidates",
      std::string_view(o.candidates == CdgAugmentation::Candidates::kAll ? "all" : "usable"));
  g.set_attribute("population", static_cast<std::int64_t>(o.genetic.population));
  g.set_attribute("children", static_cast<std::int64_t>(o.genetic.children));
  g.set_attribute("mutation", o.genetic.mutation);
  g.set_attribute("patience", static_cast<std::int64_t>(o.genetic.patience));
  g.set_attribute("min_gain", o.genetic.min_gain);
  g.set_attribute("good_enough", o.genetic.good_enough);
  g.set_attribute("max_generations", static_cast<std::int64_t>(o.genetic.max_generations));
}

void write_report(const io::H5Group& metrics, const io::H5Group& proof, const TableReport& r) {
  const TableMetrics& m = r.metrics;
  metrics.set_attribute("pi", m.pi);
  metrics.set_attribute("sigma4", m.sigma4);
  metrics.set_attribute("min_load", m.min_load);
  metrics.set_attribute("mean_load", m.mean_load);
  metrics.set_attribute("perfect_load", m.perfect_load);
  metrics.set_attribute("saturation_rate", m.saturation_rate);
  metrics.set_attribute("max_route_length", static_cast<std::int64_t>(m.max_route_length));
  metrics.set_attribute("mean_route_length", m.mean_route_length);
  metrics.set_attribute("pairs", m.pairs);
  const TableVerdict& v = r.verdict;
  proof.set_attribute("complete", flag(v.complete));
  proof.set_attribute("minimal", flag(v.minimal));
  proof.set_attribute("angara_rules", flag(v.angara_rules));
  proof.set_attribute("deadlock_free", flag(v.deadlock_free));
  proof.set_attribute("cdg_edges", v.cdg_edges);
  proof.set_attribute("ring_dependencies", v.ring_dependencies);
  proof.set_attribute("defect", std::string_view(v.defect));
  proof.set_attribute("cycle", std::string_view(v.cycle));
  proof.set_attribute("check_seconds", r.seconds);
}

/// "(a, b)": a dataset's shape as the messages print it.
std::string shape_text(const io::Shape& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + ")";
}

[[noreturn]] void bad(std::string_view option, const std::string& path, const std::string& why) {
  throw InputError(std::string(option), path, why);
}

void write_contents(const io::OutputFile& out, const TableFileContents& c,
                    const Communicator& comm) {
  const RouteTable& table = *c.table;
  const Torus& topo = table.topology();
  const std::uint64_t n = topo.num_nodes();
  io::H5File file = io::H5File::create(comm, out.partial(), out.option(), true);
  const io::H5Group root = file.root();
  root.set_attribute(io::schema::kSchemaVersionAttr, io::schema::kSchemaVersion);
  // The strings the loader reads are fixed-length: reading them never goes through HDF5's
  // global heap, which HDF5 1.10 reads without bounds (a damaged file crashed the loader).
  io::set_run_status(file, io::RunStatus::kRunning, io::StringStorage::kFixed);
  root.set_fixed_string_attribute(table_schema::kContentAttr, table_schema::kContent);
  root.set_attribute(table_schema::kVersionAttr, table_schema::kVersion);
  root.set_attribute(io::schema::kWormnetVersionAttr, std::string_view(c.version));
  root.set_attribute(io::schema::kGitShaAttr, std::string_view(c.git_sha));
  root.set_attribute(io::schema::kRanksAttr, static_cast<std::int64_t>(comm.size()));
  root.set_fixed_string_attribute(table_schema::kTopologyAttr, topo.spec());
  root.set_fixed_string_attribute("algorithm", enum_name(c.options.algorithm));

  std::vector<std::uint32_t> words;
  std::vector<std::uint32_t> turns;
  if (comm.is_root()) {
    words.assign(table.words().begin(), table.words().end());
    turns.assign(c.turns->masks().begin(), c.turns->masks().end());
  }
  const io::H5DataSet routes =
      root.write_dataset<std::uint32_t>(table_schema::kRoutes, words, {n, n});
  routes.set_attribute(io::schema::kDescriptionAttr,
                       std::string_view("route word of (row = source, column = destination): "
                                        "bits 0-2 FS dimension + 1, bits 3-5 LS dimension + 1, "
                                        "bit 6 + i: direction-order part goes - in dimension i; "
                                        "65535 = no route"));
  const auto dirs = static_cast<std::uint64_t>(2 * topo.num_dims());
  const io::H5DataSet turn_set =
      root.write_dataset<std::uint32_t>(table_schema::kTurns, turns, {n, dirs});
  turn_set.set_attribute(io::schema::kDescriptionAttr,
                         std::string_view("added turns per (node, arrival direction in the "
                                          "order +X +Y .. -X -Y ..): bit j set when the packet "
                                          "may leave in direction j"));
  const io::H5DataSet loads =
      root.write_dataset<std::uint64_t>(table_schema::kLoads, c.report->loads);
  loads.set_attribute(io::schema::kUnitAttr, std::string_view("routes"));
  loads.set_attribute(io::schema::kDescriptionAttr,
                      std::string_view("gamma_c: routes crossing each directed channel (channel "
                                       "ids: source node, then port)"));
  const bool faulty = c.faults != nullptr && !c.faults->empty();
  if (faulty) {
    // Each pair's route length and stretch (root computes them; the others write nothing).
    std::vector<std::uint32_t> lengths;
    std::vector<double> stretch;
    if (comm.is_root()) {
      const std::vector<std::uint16_t> hops = route_lengths(table, c.faults);
      lengths.assign(hops.begin(), hops.end());
      stretch.assign(hops.size(), 0.0);
      for (std::size_t i = 0; i < hops.size(); ++i) {
        const int dist = topo.distance(NodeId(static_cast<std::uint32_t>(i / n)),
                                       NodeId(static_cast<std::uint32_t>(i % n)));
        if (hops[i] != kNoLength && dist > 0) stretch[i] = static_cast<double>(hops[i]) / dist;
      }
    }
    const io::H5DataSet l =
        root.write_dataset<std::uint32_t>(table_schema::kLengths, lengths, {n, n});
    l.set_attribute(io::schema::kUnitAttr, std::string_view("hops"));
    l.set_attribute(io::schema::kDescriptionAttr,
                    std::string_view("route length of (row = source, column = destination) "
                                     "over the working channels; 65535 = no route (no legal "
                                     "route, or a failed end)"));
    const io::H5DataSet st = root.write_dataset<double>(table_schema::kStretch, stretch, {n, n});
    st.set_attribute(io::schema::kDescriptionAttr,
                     std::string_view("route length over the fault-free torus distance; 0 on "
                                      "the diagonal and where there is no route"));
  }
  const io::H5Group metrics = root.create_group(table_schema::kMetrics);
  write_report(metrics, root.create_group(table_schema::kProof), *c.report);
  if (faulty) {
    metrics.set_attribute("mean_stretch", c.report->metrics.mean_stretch);
    metrics.set_attribute("max_stretch", c.report->metrics.max_stretch);
    metrics.set_attribute("unroutable_pairs", c.report->verdict.unroutable);
  }
  write_generation(root.create_group(table_schema::kGeneration), *c.stats, c.options);
  if (c.faults != nullptr) write_faults(root, topo, *c.faults, c.fault_config);
  io::set_run_status(file, io::RunStatus::kComplete, io::StringStorage::kFixed);
  file.close();
}

}  // namespace

void write_table_file(const std::string& path, std::string_view option, const TableFileContents& c,
                      const Communicator& comm) {
  io::OutputFile out = io::OutputFile::claim(comm, path, std::string(option));
  write_table_file(out, c, comm);
}

void write_table_file(io::OutputFile& out, const TableFileContents& c, const Communicator& comm) {
  try {
    io::guarded_write(comm, out.partial(), [&] { write_contents(out, c, comm); });
    out.commit(comm, true);
  } catch (const OutputError& e) {
    if (out.failed_after_rename()) throw;  // in place; its directory failed to sync
    // A table is written in one go at the end: a partial one holds nothing of use.
    out.discard_after(comm, e);
  }
  out.release();
}

LoadedTable load_table_file(const std::string& path, std::string_view option, const Torus& topo,
                            const Communicator& comm, const FaultSet& faults) {
  // The whole file is checked before HDF5 parses any of it (file_seal.hpp): HDF5 does not
  // validate the metadata of a damaged file, and crashed on some. Root reads it.
  const io::SealVerdict seal = io::check_seal(comm, path);
  if (seal.unsealed) {
    bad(option, path,
        "not a routing-table file of this wormnet (" + seal.problem +
            "; make one with wormnet tables -o)");
  }
  if (!seal.problem.empty()) bad(option, path, "the table file is damaged: " + seal.problem);
  io::H5File file = io::H5File::open_read_only(comm, path, option);
  LoadedTable out;
  const std::uint64_t n = topo.num_nodes();
  const auto dirs = static_cast<std::uint64_t>(2 * topo.num_dims());
  std::vector<std::uint32_t> words;
  std::vector<std::uint32_t> masks;
  try {
    const io::H5Group root = file.root();
    if (!root.has_attribute(table_schema::kContentAttr)) {
      bad(option, path, "not a routing-table file (make one with wormnet tables -o)");
    }
    std::string content;
    try {
      content = root.fixed_string_attribute(table_schema::kContentAttr);
    } catch (const io::H5Error&) {
      bad(option, path,
          "not a routing-table file of this wormnet (its strings are fixed-length; a table of "
          "an older wormnet: make it again with wormnet tables -o)");
    }
    if (content != table_schema::kContent) {
      bad(option, path, "not a routing-table file (make one with wormnet tables -o)");
    }
    const auto version = root.attribute<std::int64_t>(table_schema::kVersionAttr);
    if (version != table_schema::kVersion) {
      bad(option, path,
          "table schema version " + std::to_string(version) + ", this wormnet reads version " +
              std::to_string(table_schema::kVersion));
    }
    const auto status = io::run_status(file, io::StringStorage::kFixed);
    if (status != io::RunStatus::kComplete) {
      bad(option, path,
          "the file was not finished (status " + std::string(enum_name(status)) + ")");
    }
    const auto made_for = root.fixed_string_attribute(table_schema::kTopologyAttr);
    if (made_for != topo.spec()) {
      bad(option, path, "the table was made for " + made_for + ", not for " + topo.spec());
    }
    out.algorithm = root.fixed_string_attribute("algorithm");
    // One route word per ordered pair, at (source, destination): a file that lists a pair
    // twice (a source's row or a destination's column repeated, or a flat list of entries)
    // has another shape, and is refused before any route is read.
    const io::H5DataSet routes = root.open_dataset(table_schema::kRoutes);
    if (routes.shape() != io::Shape{n, n}) {
      bad(option, path,
          "dataset routes has shape " + shape_text(routes.shape()) + ", it must be (" +
              std::to_string(n) + ", " + std::to_string(n) +
              "): one route word per (source, destination) pair of the " + std::to_string(n) +
              " nodes");
    }
    if (routes.element_type() != io::ElementType::kUInt32) {
      bad(option, path, "dataset routes must hold uint32 route words");
    }
    const io::H5DataSet turns = root.open_dataset(table_schema::kTurns);
    if (turns.shape() != io::Shape{n, dirs} || turns.element_type() != io::ElementType::kUInt32) {
      bad(option, path,
          "dataset turns must be uint32 of shape (" + std::to_string(n) + ", " +
              std::to_string(dirs) + ")");
    }
    words = routes.read<std::uint32_t>();
    masks = turns.read<std::uint32_t>();
    const RecordedFaults recorded = read_faults(root);
    if (!same_faults(recorded, faults)) {
      const auto count = [](std::size_t links, std::size_t nodes) {
        return std::to_string(links) + " failed link" + (links == 1 ? "" : "s") + " and " +
               std::to_string(nodes) + " failed node" + (nodes == 1 ? "" : "s");
      };
      bad(option, path,
          "the table was made for a network with " +
              count(recorded.links.size(), recorded.nodes.size()) + ", this one has " +
              count(faults.failed_links().size(), faults.failed_nodes().size()) +
              (recorded.links.size() == faults.failed_links().size() &&
                       recorded.nodes.size() == faults.failed_nodes().size()
                   ? " (other ones)"
                   : "") +
              ": give the faults the table was made with (its group /faults)");
    }
  } catch (const io::H5Error& e) {
    bad(option, path, std::string("not a readable routing-table file: ") + e.what());
  }
  file.close();

  auto table = std::make_shared<RouteTable>(topo);
  auto dest = table->words();
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] > 0xFFFF) {
      bad(option, path,
          "route word " + std::to_string(words[i]) + " at (" + std::to_string(i / n) + ", " +
              std::to_string(i % n) + ") does not fit 16 bits");
    }
    dest[i] = static_cast<RouteWord>(words[i]);
  }
  out.turns = TurnSet(topo.num_nodes(), topo.num_dims());
  for (std::size_t i = 0; i < masks.size(); ++i) {
    if (masks[i] >> dirs) bad(option, path, "turn mask with a direction the torus does not have");
    out.turns.masks()[i] = static_cast<std::uint16_t>(masks[i]);
  }
  out.report = check_table(*table, out.turns, comm, &faults);
  const TableVerdict& v = out.report.verdict;
  if (!v.complete || !(v.minimal || v.faulty) || !v.angara_rules) bad(option, path, v.defect);
  if (!v.deadlock_free) {
    bad(option, path, "the routes' channel dependencies have a cycle between rings: " + v.cycle);
  }
  out.table = std::move(table);
  return out;
}

}  // namespace wormnet::tables
