#include "wormnet/io/result_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/row_distribution.hpp"
#include "wormnet/stats/latency_histogram.hpp"
#include "wormnet/tables/fault_record.hpp"

namespace wormnet::io {

namespace {

using Cell = TimeSeriesTable::Cell;

/// Runs of consecutive ids from a sorted list of ids.
std::vector<IndexRun> runs_of(const std::vector<std::uint32_t>& ids) {
  std::vector<IndexRun> runs;
  for (std::uint32_t id : ids) {
    if (!runs.empty() && runs.back().offset + runs.back().count == id) {
      ++runs.back().count;
    } else {
      runs.push_back(IndexRun{id, 1});
    }
  }
  return runs;
}

/// The windows of the channel series while the point runs (ResultWriter::channel_window()).
constexpr std::string_view kSeriesWindows = "channel_series_windows";
/// Their blocked cycles, a dataset per window named alike.
constexpr std::string_view kBlockedWindows = "channel_series_blocked_windows";

std::string series_window_name(std::uint64_t index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%06llu", static_cast<unsigned long long>(index));
  return buf;
}

std::string point_name(int index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "points/%03d", index);
  return buf;
}

void write_latency(const H5Group& g, const std::string& name, const LatencyHistogram& h) {
  g.write_dataset<std::uint64_t>(name, h.counts());
  const H5DataSet d = g.open_dataset(name);
  d.set_attribute("count", h.count());
  d.set_attribute("sum", h.sum());
  d.set_attribute("max", h.max());
  d.set_attribute(schema::kUnitAttr, std::string_view("packets per bucket"));
}

}  // namespace

namespace {

/// The output's partial file, created; a creation the file system refuses removes what it
/// left (nothing was written).
H5File create_partial(const Communicator& comm, const OutputFile& output) {
  try {
    return H5File::create(comm, output.partial(), output.option());
  } catch (const OutputError&) {
    output.discard_partial(comm);
    throw;
  }
}

}  // namespace

ResultWriter::ResultWriter(const Communicator& comm, OutputFile output, const RunDescription& run)
    : comm_(comm), output_(std::move(output)), file_(create_partial(comm, output_)), run_(run) {
  try {
    guarded([&] { write_description(run); });
  } catch (const OutputError&) {
    abandon();
    throw;
  }
}

void ResultWriter::write_description(const RunDescription& run) {
  const H5Group root = file_.root();
  root.set_attribute(schema::kSchemaVersionAttr, schema::kResultsSchemaVersion);
  set_run_status(file_, RunStatus::kRunning);
  root.set_attribute(schema::kWormnetVersionAttr, std::string_view(run.version));
  root.set_attribute(schema::kGitShaAttr, std::string_view(run.git_sha));
  root.set_attribute(schema::kRanksAttr, static_cast<std::int64_t>(comm_.size()));
  root.set_attribute(schema::kConfigAttr, std::string_view(run.config_toml));
  if (!run.inputs.empty()) root.set_attribute(schema::kInputsAttr, std::string_view(run.inputs));
  root.set_attribute("command", std::string_view(run.command));
  root.set_attribute("flit_rate", run.config->measure.flit_rate);
  write_network(run);
  summary_ = TimeSeriesTable::create(
      root, "summary",
      {{"point", ElementType::kInt64, "", "load point index (group points/NNN)"},
       {"offered_load", ElementType::kFloat64, "flits/node/cycle", "configured offered load"},
       {"offered_measured", ElementType::kFloat64, "flits/node/cycle",
        "flits generated during the measurement window"},
       {"accepted", ElementType::kFloat64, "flits/node/cycle",
        "flits ejected during the measurement window"},
       {"accepted_vs_saturation", ElementType::kFloat64, "",
        "accepted / ((N-1)/pi), the routing's uniform saturation rate (0 when unknown)"},
       {"accepted_vs_bisection", ElementType::kFloat64, "",
        "accepted / the topology's uniform-traffic bisection bound"},
       {"latency_mean", ElementType::kFloat64, "cycles", "creation to tail ejection, mean"},
       {"latency_p50", ElementType::kFloat64, "cycles", "median (histogram bucket)"},
       {"latency_p95", ElementType::kFloat64, "cycles", "95th percentile"},
       {"latency_p99", ElementType::kFloat64, "cycles", "99th percentile"},
       {"latency_max", ElementType::kFloat64, "cycles", "maximum"},
       {"latency_mean_us", ElementType::kFloat64, "us", "mean latency / flit rate"},
       {"network_mean", ElementType::kFloat64, "cycles", "head injection to tail ejection"},
       {"queueing_mean", ElementType::kFloat64, "cycles", "creation to head injection"},
       {"average_hops", ElementType::kFloat64, "hops", "channels crossed per packet"},
       {"delivered", ElementType::kInt64, "packets", "labelled packets delivered"},
       {"labelled", ElementType::kInt64, "packets", "labelled packets generated"},
       {"saturated", ElementType::kInt64, "", "1 when flagged saturated"},
       {"deadlock", ElementType::kInt64, "", "1 when the watchdog found a deadlock"},
       {"cycles", ElementType::kInt64, "cycles", "cycles simulated"},
       {"wall_seconds", ElementType::kFloat64, "s", "wall-clock time of the point"}},
      64);
  file_.flush();
}

ResultWriter::ResultWriter(const Communicator& comm, OutputFile output, H5File file,
                           const RunDescription& run)
    : comm_(comm), output_(std::move(output)), file_(std::move(file)), run_(run) {}

namespace {

/// Why the results file at `path` cannot be continued by a restart of configuration
/// `config` computed from `inputs` (RunDescription::inputs), or "" (read-only look,
/// collective).
std::string continuation_problem(const Communicator& comm, const std::string& path,
                                 const std::string& option, const std::string& config,
                                 const std::string& inputs) {
  H5File f = H5File::open_read_only(comm, path, option);
  const H5Group root = f.root();
  std::string problem;
  try {
    if (!root.has_attribute(schema::kSchemaVersionAttr) || !root.has_group("summary") ||
        root.attribute<std::int64_t>(schema::kSchemaVersionAttr) != schema::kResultsSchemaVersion) {
      problem = "not a wormnet results file of schema version " +
                std::to_string(schema::kResultsSchemaVersion);
    } else if (root.attribute<std::string>(schema::kConfigAttr) != config) {
      problem = "holds a run of another configuration than the checkpoint's";
    } else if ((root.has_attribute(schema::kInputsAttr)
                    ? root.attribute<std::string>(schema::kInputsAttr)
                    : std::string()) != inputs) {
      problem =
          "holds a run computed from other input files (tables, trace) than the "
          "checkpoint's";
    } else if (const RunStatus status = run_status(f); status == RunStatus::kComplete ||
                                                       status == RunStatus::kDeadlock ||
                                                       status == RunStatus::kIncomplete) {
      problem = "the run it holds is finished (status " + std::string(enum_name(status)) +
                "): nothing to continue";
    }
  } catch (const H5Error& e) {
    problem = std::string("not a readable wormnet results file: ") + e.what();
  }
  f.close();
  return problem;
}

}  // namespace

std::unique_ptr<ResultWriter> ResultWriter::reopen(const Communicator& comm, OutputFile output,
                                                   const RunDescription& run,
                                                   std::uint64_t summary_rows) {
  // A killed run left its file at the partial name; an interrupted one renamed it over the
  // target. Look before moving anything: a refused restart leaves both as they are.
  const bool partial = output.partial_exists(comm);
  const std::string existing = partial ? output.partial() : output.target();
  if (!partial && !output.target_exists(comm)) {
    throw InputError(output.option(), output.target(),
                     "the results file of the checkpointed run is missing (neither it nor '" +
                         output.partial() + "' exists)");
  }
  if (const std::string problem =
          continuation_problem(comm, existing, output.option(), run.config_toml, run.inputs);
      !problem.empty()) {
    throw InputError(output.option(), existing, problem);
  }
  if (!partial) output.reclaim_target(comm);
  H5File file = H5File::open_read_write(comm, output.partial(), output.option());
  const H5Group root = file.root();
  std::unique_ptr<ResultWriter> w(new ResultWriter(comm, std::move(output), std::move(file), run));
  try {
    w->guarded([&] {
      set_run_status(w->file_, RunStatus::kRunning);
      w->summary_ = TimeSeriesTable::open(root, "summary");
    });
    if (w->summary_->rows() < summary_rows) {
      throw InputError(w->output_.option(), w->writing(),
                       "holds fewer finished points than the checkpoint records");
    }
    w->guarded([&] {
      w->summary_->truncate(summary_rows);
      w->file_.flush();
    });
  } catch (const std::exception&) {
    w->abandon();
    throw;
  }
  return w;
}

ResultWriter::~ResultWriter() {
  if (file_.is_open() && std::uncaught_exceptions() == 0) abandon();
}

void ResultWriter::write_workload(const WorkloadRecord& w) {
  guarded([&] {
    const H5Group g = file_.root().create_group("workload");
    const CompletionReport& r = *w.report;
    const double flit_rate = run_.config->measure.flit_rate;
    g.set_attribute("source", std::string_view(w.source));
    g.set_attribute("trace", std::string_view(w.trace));
    g.set_attribute("mapping", std::string_view(w.mapping));
    g.set_attribute("grid", std::span<const std::int64_t>(w.grid));
    g.set_attribute("message_flits", w.message_flits);
    g.set_attribute("messages", static_cast<std::uint64_t>(w.graph->size()));
    g.set_attribute("iterations", static_cast<std::uint64_t>(r.iterations.size()));
    g.set_attribute("complete", static_cast<std::int64_t>(r.complete ? 1 : 0));
    g.set_attribute("completion_cycles", static_cast<std::uint64_t>(r.completion));
    g.set_attribute("completion_us", static_cast<double>(r.completion) / flit_rate);
    g.set_attribute("path_wait_cycles", static_cast<std::uint64_t>(r.path_wait));
    g.set_attribute("path_queueing_cycles", static_cast<std::uint64_t>(r.path_queueing));
    g.set_attribute("path_network_cycles", static_cast<std::uint64_t>(r.path_network));
    g.set_attribute("path_compute_cycles", static_cast<std::uint64_t>(r.path_compute));
    g.set_attribute("path_local_cycles", static_cast<std::uint64_t>(r.path_local));
    const MessageGraph::Kinds kinds = w.graph->kinds();
    g.set_attribute("network_messages", kinds.network);
    g.set_attribute("local_messages", kinds.local);
    g.set_attribute("markers", kinds.markers);
    g.set_attribute("compute_cycles", kinds.compute);
    g.set_attribute("processes_per_node", w.processes_per_node);
    g.set_attribute("local_latency_cycles", w.local_latency);
    g.set_attribute("compute_per_step", w.compute_per_step);
    g.set_attribute("compute_rate", w.compute_rate);
    g.set_attribute("npb_class", std::string_view(w.npb_class));
    g.set_attribute("npb_scale", w.npb_scale);
    g.write_dataset<std::uint64_t>("process_node", w.process_node);
    std::vector<std::uint64_t> path(r.critical_path.begin(), r.critical_path.end());
    g.write_dataset<std::uint64_t>("critical_path", path);

    const H5Group it = g.create_group("iterations");
    std::vector<std::uint64_t> start, end, cycles, messages, flits, max_network;
    std::vector<double> queueing, network;
    Cycle previous = 0;
    for (const IterationTimes& i : r.iterations) {
      start.push_back(i.start);
      end.push_back(i.end);
      cycles.push_back(i.end >= previous ? i.end - previous : 0);
      previous = std::max(previous, i.end);
      messages.push_back(i.messages);
      flits.push_back(i.flits);
      max_network.push_back(i.max_network);
      queueing.push_back(i.mean_queueing);
      network.push_back(i.mean_network);
    }
    it.write_dataset<std::uint64_t>("start", start);
    it.write_dataset<std::uint64_t>("end", end);
    it.write_dataset<std::uint64_t>("cycles", cycles);
    it.write_dataset<std::uint64_t>("messages", messages);
    it.write_dataset<std::uint64_t>("flits", flits);
    it.write_dataset<double>("mean_queueing", queueing);
    it.write_dataset<double>("mean_network", network);
    it.write_dataset<std::uint64_t>("max_network", max_network);

    const H5Group m = g.create_group("messages");
    std::vector<std::uint64_t> src, dst, size, iter, compute, issued, injected, delivered;
    const auto minus_one = [](std::uint64_t v) { return v == 0 ? ~std::uint64_t{0} : v - 1; };
    for (std::uint32_t id = 0; id < w.graph->size(); ++id) {
      const WorkloadMessage& x = w.graph->messages()[id];
      src.push_back(x.source);
      dst.push_back(x.dest);
      size.push_back(x.flits);
      iter.push_back(x.iteration);
      compute.push_back(x.compute);
      issued.push_back(minus_one(w.times->issued[id]));
      injected.push_back(minus_one(w.times->injected[id]));
      delivered.push_back(minus_one(w.times->delivered[id]));
    }
    m.write_dataset<std::uint64_t>("source", src);
    m.write_dataset<std::uint64_t>("destination", dst);
    m.write_dataset<std::uint64_t>("flits", size);
    m.write_dataset<std::uint64_t>("iteration", iter);
    m.write_dataset<std::uint64_t>("compute", compute);
    m.write_dataset<std::uint64_t>("issued", issued);
    m.write_dataset<std::uint64_t>("injected", injected);
    m.write_dataset<std::uint64_t>("delivered", delivered);
    file_.flush();
  });
}

void ResultWriter::guarded(const std::function<void()>& write) const {
  guarded_write(comm_, output_.partial(), write);
}

void ResultWriter::write_network(const RunDescription& run) {
  const Topology& topo = *run.topology;
  const Partition& part = *run.partition;
  const H5Group root = file_.root();
  const std::vector<std::uint32_t> mine = part.nodes_of(comm_.rank());
  const RowDistribution node_rows(topo.num_nodes(), runs_of(mine));

  const H5Group t = root.create_group("topology");
  t.set_attribute("spec", std::string_view(topo.spec()));
  t.set_attribute("kind", std::string_view(enum_name(topo.kind())));
  t.set_attribute("nodes", static_cast<std::uint64_t>(topo.num_nodes()));
  t.set_attribute("links", static_cast<std::uint64_t>(topo.num_links()));
  t.set_attribute("channels", static_cast<std::uint64_t>(topo.num_channels()));
  t.set_attribute("ports", static_cast<std::int64_t>(topo.num_ports()));
  t.set_attribute("diameter", static_cast<std::int64_t>(topo.diameter()));
  t.set_attribute("bisection_bound", run.bounds.bisection);
  std::vector<std::string> labels;
  for (int p = 0; p < topo.num_ports(); ++p)
    labels.push_back(Topology::port_label(static_cast<PortId>(p)));
  t.set_attribute("port_labels", std::span<const std::string>(labels));

  const int ncoords = topo.coords(NodeId(0)).n;
  std::vector<std::int32_t> coords;
  coords.reserve(mine.size() * static_cast<std::size_t>(ncoords));
  for (std::uint32_t n : mine) {
    const Coord c = topo.coords(NodeId(n));
    for (int i = 0; i < ncoords; ++i) coords.push_back(c[i]);
  }
  t.write_distributed<std::int32_t>("coords", node_rows, coords,
                                    {static_cast<std::uint64_t>(ncoords)});

  // Channels are numbered by (source node, port): a rank's channels are its nodes' ranges.
  std::vector<IndexRun> channel_runs;
  std::vector<std::uint32_t> src;
  std::vector<std::uint32_t> dst;
  std::vector<std::uint8_t> port;
  for (const IndexRun& r : node_rows.runs()) {
    const auto first = topo.first_channel(NodeId(static_cast<std::uint32_t>(r.offset)));
    const auto last =
        r.offset + r.count < topo.num_nodes()
            ? topo.first_channel(NodeId(static_cast<std::uint32_t>(r.offset + r.count)))
            : topo.num_channels();
    channel_runs.push_back(IndexRun{first, last - first});
    for (std::uint32_t c = first; c < last; ++c) {
      src.push_back(topo.channel_source(ChannelId(c)).value());
      dst.push_back(topo.channel_dest(ChannelId(c)).value());
      port.push_back(topo.channel_port(ChannelId(c)));
    }
  }
  const RowDistribution channel_rows(topo.num_channels(), channel_runs);
  t.write_distributed<std::uint32_t>("channel_source", channel_rows, src);
  t.write_distributed<std::uint32_t>("channel_dest", channel_rows, dst);
  t.write_distributed<std::uint8_t>("channel_port", channel_rows, port);

  if (run.faults != nullptr) {
    tables::write_faults(root, topo, *run.faults, run.config->network.faults, run.silenced_sources);
  }

  const H5Group p = root.create_group("partition");
  p.set_attribute("method", std::string_view(part.method()));
  p.set_attribute("ranks", static_cast<std::int64_t>(part.parts()));
  p.set_attribute("edge_cut", part.edge_cut(topo));
  p.set_attribute("largest_part", part.largest_part());
  p.set_attribute("smallest_part", part.smallest_part());
  p.set_attribute("lookahead", static_cast<std::uint64_t>(run.plan->lookahead));
  std::vector<std::uint32_t> owner(mine.size(), static_cast<std::uint32_t>(comm_.rank()));
  p.write_distributed<std::uint32_t>("owner", node_rows, owner);

  const H5Group r = root.create_group("routing");
  const RoutingTraits& routing = run.plan->routing;
  r.set_attribute("name", std::string_view(routing.name));
  r.set_attribute("description", std::string_view(routing.description));
  r.set_attribute("vcs", static_cast<std::int64_t>(run.plan->vcs));
  r.set_attribute("minimal", static_cast<std::int64_t>(routing.minimal ? 1 : 0));
  r.set_attribute("bubble_flow_control", static_cast<std::int64_t>(run.plan->bubble ? 1 : 0));
  r.set_attribute("saturation_rate", run.bounds.saturation_rate);
  r.set_attribute("escape_vcs", static_cast<std::int64_t>(routing.escape_classes));
  if (run.channel_load != nullptr && !run.channel_load->empty()) {
    // gamma_c of this rank's channels (every rank holds all of them), for channel heatmaps.
    std::vector<double> load;
    for (const IndexRun& cr : channel_runs) {
      const auto first = run.channel_load->begin() + static_cast<std::ptrdiff_t>(cr.offset);
      load.insert(load.end(), first, first + static_cast<std::ptrdiff_t>(cr.count));
    }
    r.write_distributed<double>("channel_load", channel_rows, load);
    r.open_dataset("channel_load")
        .set_attribute(schema::kDescriptionAttr,
                       std::string_view("gamma_c: routes through each channel over all ordered "
                                        "pairs (an adaptive routing's pair split evenly)"));
  }
  if (run.pattern_ideal && run.pattern_ideal->channel_load != nullptr) {
    // The pattern's own loads and ideal (written only for a pattern that is not uniform).
    const PatternIdealRecord& pi = *run.pattern_ideal;
    const H5Group g = r.create_group("pattern");
    g.set_attribute("name", std::string_view(pi.pattern));
    g.set_attribute("pi", pi.pi);
    g.set_attribute("saturation_rate", pi.saturation_rate);
    g.set_attribute("offered_at_ideal", pi.offered_at_ideal);
    g.set_attribute("pairs", pi.pairs);
    g.set_attribute("senders", pi.senders);
    std::vector<double> load;
    for (const IndexRun& cr : channel_runs) {
      const auto first = pi.channel_load->begin() + static_cast<std::ptrdiff_t>(cr.offset);
      load.insert(load.end(), first, first + static_cast<std::ptrdiff_t>(cr.count));
    }
    g.write_distributed<double>("channel_load", channel_rows, load);
    g.open_dataset("channel_load")
        .set_attribute(schema::kDescriptionAttr,
                       std::string_view("flits per cycle through each channel per flit/node/cycle "
                                        "offered under the pattern: its pairs' routes, each "
                                        "weighted by its share of the source's messages"));
  }
}

void ResultWriter::begin_point(int index, double offered_load) {
  guarded([&] { begin_point_unguarded(index, offered_load); });
}

void ResultWriter::begin_point_unguarded(int index, double offered_load) {
  point_index_ = index;
  offered_load_ = offered_load;
  if (resume_rows_) {
    // Continue the interrupted point: keep the windows before the checkpoint, drop anything
    // written after it (later windows, end-of-point results, later points).
    const H5Group root = file_.root();
    for (int later = index + 1; root.has_group(point_name(later)); ++later) {
      root.remove(point_name(later));
    }
    point_ = root.open_group(point_name(index));
    for (const char* name :
         {"channel_flits", "latency_histogram", "deadlock", "congestion", "channel_series"}) {
      point_->remove(name);
    }
    for (const std::string_view group : {kSeriesWindows, kBlockedWindows}) {
      if (!point_->has_group(group)) continue;  // the channel series' windows after it
      const H5Group w = point_->open_group(group);
      for (const std::string& name : w.member_names()) {
        if (std::stoull(name) >= *resume_rows_) w.remove(name);
      }
    }
    series_ = TimeSeriesTable::open(*point_, "timeseries");
    if (series_->rows() < *resume_rows_) {
      throw InputError("--restart", file_.path(),
                       "the results file holds fewer windows than the checkpoint records");
    }
    series_->truncate(*resume_rows_);
    resume_rows_.reset();
    file_.flush();
    return;
  }
  point_ = file_.root().create_group(point_name(index));
  point_->set_attribute("index", static_cast<std::int64_t>(index));
  point_->set_attribute("offered_load", offered_load);
  series_ = TimeSeriesTable::create(
      *point_, "timeseries",
      {{"cycle_end", ElementType::kInt64, "cycles", "first cycle after the window"},
       {"cycles", ElementType::kInt64, "cycles", "window length"},
       {"created_flits", ElementType::kInt64, "flits", "generated by the sources"},
       {"injected_flits", ElementType::kInt64, "flits", "entered injection buffers"},
       {"ejected_flits", ElementType::kInt64, "flits", "left the network"},
       {"ejected_packets", ElementType::kInt64, "packets", "tails ejected"},
       {"flit_hops", ElementType::kInt64, "flits", "flits that crossed a network channel"},
       {"latency_mean", ElementType::kFloat64, "cycles",
        "mean latency of the packets ejected in the window"},
       {"flits_in_network", ElementType::kInt64, "flits", "in buffers and links at the end"},
       {"flits_at_sources", ElementType::kInt64, "flits", "waiting at sources at the end"},
       {"messages_at_sources", ElementType::kInt64, "messages", "waiting at sources at the end"},
       {"offered", ElementType::kFloat64, "flits/node/cycle", "created_flits / (N cycles)"},
       {"accepted", ElementType::kFloat64, "flits/node/cycle", "ejected_flits / (N cycles)"}},
      TimeSeriesTable::kDefaultChunkRows);
  file_.flush();
}

void ResultWriter::window(const WindowRow& row) {
  guarded([&] { window_unguarded(row); });
}

void ResultWriter::window_unguarded(const WindowRow& row) {
  const TrafficCounters& c = row.counters;
  // Per node of the traffic: every node, or the working ones of a network with faults.
  const double node_cycles =
      static_cast<double>(run_.plan->traffic_nodes) * static_cast<double>(row.cycles);
  const auto i64 = [](std::uint64_t v) { return Cell{static_cast<std::int64_t>(v)}; };
  series_->append(
      {i64(row.cycle_end), i64(row.cycles), i64(c.created_flits), i64(c.injected_flits),
       i64(c.ejected_flits), i64(c.ejected_packets), i64(c.flit_hops),
       Cell{c.ejected_packets
                ? static_cast<double>(c.latency_sum) / static_cast<double>(c.ejected_packets)
                : 0.0},
       i64(row.flits_in_network), i64(row.flits_at_sources), i64(row.messages_at_sources),
       Cell{static_cast<double>(c.created_flits) / node_cycles},
       Cell{static_cast<double>(c.ejected_flits) / node_cycles}});
  file_.flush();
}

void ResultWriter::channel_window(
    Cycle cycle_end, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_blocked) {
  guarded([&] {
    // Named by the row the window gets in the time series (appended just after). The flits
    // come from the channels' sending ranks, the blocked cycles from their receiving ones:
    // each dataset is whole once every rank wrote its rows.
    const std::string name = series_window_name(series_->rows());
    const auto write = [&](std::string_view group,
                           const std::vector<std::pair<std::uint32_t, std::uint64_t>>& values) {
      std::vector<std::pair<std::uint32_t, std::uint64_t>> mine = values;
      std::sort(mine.begin(), mine.end());
      std::vector<std::uint32_t> ids;
      std::vector<std::uint64_t> counts;
      for (const auto& [c, n] : mine) {
        ids.push_back(c);
        counts.push_back(n);
      }
      const H5Group w = point_->require_group(group);
      w.write_distributed<std::uint64_t>(
          name, RowDistribution(run_.topology->num_channels(), runs_of(ids)), counts);
      w.open_dataset(name).set_attribute("cycle_end", static_cast<std::int64_t>(cycle_end));
    };
    write(kSeriesWindows, channel_flits);
    write(kBlockedWindows, channel_blocked);
  });
}

void ResultWriter::write_channel_series(const H5Group& point, const RowDistribution& rows,
                                        std::size_t local_channels) const {
  const H5Group pending = point.open_group(kSeriesWindows);
  const std::vector<std::string> names = pending.member_names();  // in window order
  const std::size_t windows = names.size();
  std::vector<std::int64_t> ends;
  // [channel, window] of one pending group, this rank's rows.
  const auto gather = [&](const H5Group& from, bool read_ends) {
    std::vector<std::uint64_t> local(local_channels * windows);
    for (std::size_t w = 0; w < windows; ++w) {
      const H5DataSet d = from.open_dataset(names[w]);
      const std::vector<std::uint64_t> column = d.read_rows<std::uint64_t>(rows);
      for (std::size_t k = 0; k < local_channels; ++k) local[k * windows + w] = column[k];
      if (read_ends) ends.push_back(d.attribute<std::int64_t>("cycle_end"));
    }
    return local;
  };
  const std::vector<std::uint64_t> flits = gather(pending, true);
  const std::vector<std::uint64_t> blocked = gather(point.open_group(kBlockedWindows), false);
  const H5Group g = point.create_group("channel_series");
  g.set_attribute("windows", static_cast<std::uint64_t>(windows));
  g.write_distributed<std::uint64_t>("flits", rows, flits, Shape{windows});
  g.open_dataset("flits").set_attribute(schema::kUnitAttr, std::string_view("flits"));
  g.open_dataset("flits").set_attribute(
      schema::kDescriptionAttr,
      std::string_view("[channel, window]: flits that crossed the channel in the statistics "
                       "window (the rows of timeseries, one to one)"));
  g.write_distributed<std::uint64_t>("blocked", rows, blocked, Shape{windows});
  g.open_dataset("blocked").set_attribute(schema::kUnitAttr, std::string_view("cycles"));
  g.open_dataset("blocked").set_attribute(
      schema::kDescriptionAttr,
      std::string_view("[channel, window]: cycles the channel's input VCs at its downstream "
                       "router waited (vc_wait + credit_wait + switch_wait, summed over its "
                       "VCs: VC-cycles) in the window's cycles inside the measurement window"));
  g.write_dataset<std::int64_t>("cycle_end", ends);
  g.open_dataset("cycle_end").set_attribute(schema::kUnitAttr, std::string_view("cycles"));
  g.open_dataset("cycle_end")
      .set_attribute(schema::kDescriptionAttr,
                     std::string_view("first cycle after each window (timeseries' cycle_end)"));
  point.remove(kSeriesWindows);
  point.remove(kBlockedWindows);
}

void ResultWriter::write_congestion(const H5Group& point, const ChannelCongestion& mine,
                                    Cycle window) const {
  const H5Group g = point.create_group("congestion");
  const auto vcs = static_cast<std::size_t>(mine.vcs);
  const std::uint64_t channels = run_.topology->num_channels();
  g.set_attribute("window_cycles", static_cast<std::uint64_t>(window));
  g.set_attribute("escape_vcs", static_cast<std::int64_t>(mine.escape_vcs));
  const auto describe = [&](std::string_view name, std::string_view unit, std::string_view what) {
    H5DataSet d = g.open_dataset(name);
    d.set_attribute(schema::kUnitAttr, unit);
    d.set_attribute(schema::kDescriptionAttr, what);
  };
  // The rows of a rank's channels in the order of their global ids (RowDistribution wants
  // the local data in the order of the runs given).
  const auto sorted = [](const std::vector<std::uint32_t>& ids) {
    std::vector<std::size_t> order(ids.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
    return order;
  };
  // The file's rows of those channels, one per channel.
  const auto rows_of = [&](const std::vector<std::size_t>& order,
                           const std::vector<std::uint32_t>& ids) {
    std::vector<std::uint32_t> sorted_ids;
    for (const std::size_t k : order) sorted_ids.push_back(ids[k]);
    return RowDistribution(channels, runs_of(sorted_ids));
  };
  const auto by_vc = [&](const std::vector<std::size_t>& order,
                         const std::vector<std::uint64_t>& values) {
    std::vector<std::uint64_t> out;
    for (const std::size_t k : order) {
      for (std::size_t v = 0; v < vcs; ++v) out.push_back(values[k * vcs + v]);
    }
    return out;
  };
  const Shape row{vcs};
  {  // the input side: rows of the channels whose target router is this rank's
    const std::vector<std::size_t> order = sorted(mine.in_channels);
    const RowDistribution rows = rows_of(order, mine.in_channels);
    const std::vector<std::uint64_t> vc_wait = by_vc(order, mine.vc_wait);
    const std::vector<std::uint64_t> credit_wait = by_vc(order, mine.credit_wait);
    const std::vector<std::uint64_t> switch_wait = by_vc(order, mine.switch_wait);
    const std::vector<std::uint64_t> occupancy = by_vc(order, mine.occupancy);
    std::vector<double> mean(occupancy.size());
    std::vector<std::uint64_t> blocked(order.size(), 0);
    for (std::size_t j = 0; j < occupancy.size(); ++j) {
      mean[j] = window > 0 ? static_cast<double>(occupancy[j]) / static_cast<double>(window) : 0.0;
      blocked[j / vcs] += vc_wait[j] + credit_wait[j] + switch_wait[j];
    }
    g.write_distributed<std::uint64_t>("vc_wait", rows, vc_wait, row);
    describe("vc_wait", "cycles",
             "cycles a routed head at the front of the VC was refused an output VC");
    g.write_distributed<std::uint64_t>("credit_wait", rows, credit_wait, row);
    describe("credit_wait", "cycles",
             "cycles the VC held an output VC and a flit past its VC allocation delay, without a "
             "credit");
    g.write_distributed<std::uint64_t>("switch_wait", rows, switch_wait, row);
    describe("switch_wait", "cycles",
             "cycles the VC held an output VC, a flit and a credit, and moved none (switch lost)");
    g.write_distributed<double>("occupancy", rows, mean, row);
    describe("occupancy", "flits", "mean flits buffered in the VC at the end of a window cycle");
    g.write_distributed<std::uint64_t>("blocked", rows, blocked);
    describe("blocked", "cycles", "vc_wait + credit_wait + switch_wait, summed over the VCs");
  }
  {  // the output side: rows of the channels whose source router is this rank's
    const std::vector<std::size_t> order = sorted(mine.out_channels);
    const RowDistribution rows = rows_of(order, mine.out_channels);
    const std::vector<std::uint64_t> flits = by_vc(order, mine.vc_flits);
    g.write_distributed<std::uint64_t>("vc_flits", rows, flits, row);
    describe("vc_flits", "flits", "flits that crossed the channel on each VC in the window");
    if (mine.escape_vcs != 0) {
      std::vector<std::uint64_t> escape(order.size(), 0);
      std::vector<std::uint64_t> adaptive(order.size(), 0);
      for (std::size_t j = 0; j < flits.size(); ++j) {
        ((mine.escape_vcs >> (j % vcs)) & 1U) != 0 ? escape[j / vcs] += flits[j]
                                                   : adaptive[j / vcs] += flits[j];
      }
      g.write_distributed<std::uint64_t>("escape_flits", rows, escape);
      describe("escape_flits", "flits", "flits that crossed the channel on an escape VC");
      g.write_distributed<std::uint64_t>("adaptive_flits", rows, adaptive);
      describe("adaptive_flits", "flits", "flits that crossed the channel on an adaptive VC");
    }
  }
}

void ResultWriter::end_point(
    const RunSummary& s, const MeasuredStats& measured,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) {
  guarded([&] { end_point_unguarded(s, measured, channel_flits); });
}

void ResultWriter::end_point_unguarded(
    const RunSummary& s, const MeasuredStats& measured,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) {
  const H5Group& g = *point_;
  const auto lat = [&](const char* prefix, const LatencySummary& l) {
    const std::string p(prefix);
    g.set_attribute(p + "_mean", l.mean);
    g.set_attribute(p + "_p50", l.p50);
    g.set_attribute(p + "_p95", l.p95);
    g.set_attribute(p + "_p99", l.p99);
    g.set_attribute(p + "_max", l.max);
  };
  g.set_attribute("offered_measured", s.offered_measured);
  g.set_attribute("accepted", s.accepted);
  g.set_attribute("accepted_vs_saturation", s.accepted_vs_saturation);
  g.set_attribute("accepted_vs_bisection", s.accepted_vs_bisection);
  lat("latency", s.latency);
  lat("network", s.network);
  lat("queueing", s.queueing);
  g.set_attribute("average_hops", s.average_hops);
  g.set_attribute("window_cycles", static_cast<std::uint64_t>(s.window_cycles));
  g.set_attribute("labelled_packets", s.measured_packets);
  g.set_attribute("delivered_packets", s.delivered_packets);
  // Only with --drop-unroutable (a file without it is as before).
  if (run_.config != nullptr && run_.config->traffic.drop_unroutable) {
    g.set_attribute("dropped_messages", s.dropped_messages);
  }
  g.set_attribute("saturated", static_cast<std::int64_t>(s.saturated ? 1 : 0));
  g.set_attribute("saturation_reason", std::string_view(s.saturation_reason));
  // Only in a run that asked for the early stop (files without it keep their layout).
  if (run_.config->measure.early_stop())
    g.set_attribute("stopped_early", static_cast<std::int64_t>(s.stopped_early ? 1 : 0));
  g.set_attribute("deadlock", static_cast<std::int64_t>(s.deadlock ? 1 : 0));
  g.set_attribute("cycles", static_cast<std::uint64_t>(s.cycles));
  g.set_attribute("flit_hops", s.flit_hops);
  g.set_attribute("wall_seconds", s.wall_seconds);
  g.set_attribute("packet_cycles", measured.packet_cycles);

  // Latency histograms (identical on every rank after the merge; root writes them).
  const H5Group h = g.create_group("latency_histogram");
  std::vector<std::uint64_t> lower(LatencyHistogram::kBuckets);
  for (int b = 0; b < LatencyHistogram::kBuckets; ++b) {
    lower[static_cast<std::size_t>(b)] = LatencyHistogram::lower_bound(b);
  }
  h.write_dataset<std::uint64_t>("bucket_lower", lower);
  h.open_dataset("bucket_lower").set_attribute(schema::kUnitAttr, std::string_view("cycles"));
  write_latency(h, "total", measured.total);
  write_latency(h, "network", measured.network);
  write_latency(h, "queueing", measured.queueing);

  // Per-channel counts, each rank at its channels' global ids.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> mine = channel_flits;
  std::sort(mine.begin(), mine.end());
  std::vector<std::uint32_t> ids;
  std::vector<std::uint64_t> flits;
  for (const auto& [c, f] : mine) {
    ids.push_back(c);
    flits.push_back(f);
  }
  const RowDistribution rows(run_.topology->num_channels(), runs_of(ids));
  g.write_distributed<std::uint64_t>("channel_flits", rows, flits);
  g.open_dataset("channel_flits")
      .set_attribute(schema::kDescriptionAttr,
                     std::string_view("flits that crossed each channel in the measurement window"));

  if (g.has_group(kSeriesWindows)) write_channel_series(g, rows, ids.size());
  if (congestion_) {
    write_congestion(g, *congestion_, s.window_cycles);
    congestion_.reset();
  }

  if (s.deadlock) {
    const H5Group d = g.create_group("deadlock");
    d.set_attribute("cycle", static_cast<std::uint64_t>(s.deadlock_cycle));
    std::vector<std::string> hops;
    std::vector<std::int64_t> vcs;
    for (const auto& hop : s.deadlock_cycle_hops) {
      hops.push_back(hop.channel);
      vcs.push_back(hop.vc);
    }
    d.set_attribute("channels", std::span<const std::string>(hops));
    d.set_attribute("vcs", std::span<const std::int64_t>(vcs));
  }

  const double us = s.flit_rate > 0 ? s.latency.mean / s.flit_rate : 0.0;
  summary_->append({Cell{static_cast<std::int64_t>(point_index_)},
                    Cell{offered_load_},
                    Cell{s.offered_measured},
                    Cell{s.accepted},
                    Cell{s.accepted_vs_saturation},
                    Cell{s.accepted_vs_bisection},
                    Cell{s.latency.mean},
                    Cell{static_cast<double>(s.latency.p50)},
                    Cell{static_cast<double>(s.latency.p95)},
                    Cell{static_cast<double>(s.latency.p99)},
                    Cell{static_cast<double>(s.latency.max)},
                    Cell{us},
                    Cell{s.network.mean},
                    Cell{s.queueing.mean},
                    Cell{s.average_hops},
                    Cell{static_cast<std::int64_t>(s.delivered_packets)},
                    Cell{static_cast<std::int64_t>(s.measured_packets)},
                    Cell{static_cast<std::int64_t>(s.saturated ? 1 : 0)},
                    Cell{static_cast<std::int64_t>(s.deadlock ? 1 : 0)},
                    Cell{static_cast<std::int64_t>(s.cycles)},
                    Cell{s.wall_seconds}});
  series_.reset();
  point_.reset();
  file_.flush();
}

void ResultWriter::finish(RunStatus status) {
  guarded([&] {
    summary_.reset();
    set_run_status(file_, status);
    file_.close();
  });
  output_.commit(comm_);
  output_.release();
}

void ResultWriter::abandon() {
  series_.reset();
  point_.reset();
  summary_.reset();
  try {
    guarded([&] {
      if (!file_.is_open()) return;
      set_run_status(file_, RunStatus::kFailed);
      file_.close();
    });
  } catch (const std::exception&) {
    // The file system refuses even that: the file keeps status "running".
  }
  try {
    guarded([&] { file_.close(); });
  } catch (const std::exception&) {
  }
  output_.release();
}

}  // namespace wormnet::io
