#include "simulation_driver.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "batch_control.hpp"
#include "build_version.hpp"
#include "input_files.hpp"
#include "output_paths.hpp"
#include "run_support.hpp"
#include "stop_signals.hpp"
#include "wormnet/config/batch_config.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"
#include "wormnet/driver/run_session.hpp"
#include "wormnet/io/checkpoint_file.hpp"
#include "wormnet/workload/closed_loop.hpp"

namespace wormnet::cli {

namespace {

/// InputError naming the option behind the longest line of `config_toml` when the text is
/// longer than a checkpoint holds (io::kMostConfigBytes): refused before anything is written,
/// rather than found at the first checkpoint (a signal, --checkpoint-every) as a failed write.
void check_config_size(const std::string& config_toml) {
  if (config_toml.size() <= io::kMostConfigBytes) return;
  std::string_view longest;
  for (std::size_t at = 0; at < config_toml.size();) {
    const std::size_t end = std::min(config_toml.find('\n', at), config_toml.size());
    if (end - at > longest.size()) longest = std::string_view(config_toml).substr(at, end - at);
    at = end + 1;
  }
  const std::size_t eq = longest.find(" = ");
  std::string option = "--" + std::string(longest.substr(0, std::min(eq, longest.size())));
  std::replace(option.begin(), option.end(), '_', '-');
  const std::string_view value = eq == std::string_view::npos ? longest : longest.substr(eq + 3);
  throw InputError(option, std::string(value.substr(0, 40)) + "...",
                   "makes the run's configuration " + std::to_string(config_toml.size()) +
                       " bytes, more than a checkpoint holds (" +
                       std::to_string(io::kMostConfigBytes) +
                       "): a shorter list (--load-range for a sweep of many loads)");
}

/// A load that would not produce a single message in the measurement window measures
/// nothing (and one that small once scheduled its messages past the end of the cycle
/// counter): refused before anything is written.
void refuse_silent_loads(const SimOptions& o, const SimSetup& setup,
                         const SimulationRequest& request) {
  const TrafficConfig& t = o.config.traffic;
  const double window = static_cast<double>(setup.plan.window.length);
  const double nodes = static_cast<double>(setup.plan.traffic_nodes);
  const double mean_length = 0.5 * (t.length_min + t.length_max);
  for (const double point : request.points) {
    const double rate = offered_rate(o, setup, point, request.relative);
    const double expected = nodes * window * rate / mean_length;
    if (expected >= 1.0) continue;
    const char* option = request.command == "sweep"
                             ? (request.range ? "--load-range" : "--loads")
                             : (request.relative ? "--load-fraction" : "--load");
    throw InputError(option, number_text(point),
                     "expects " + number_text(expected) + " messages in the measurement window (" +
                         number_text(nodes) + " nodes x " + number_text(window) + " cycles x " +
                         number_text(rate) + " flits/node/cycle / " + number_text(mean_length) +
                         " flits per message), fewer than one: nothing would be measured; "
                         "raise the load or --measure");
  }
}

/// Ends a run a signal stopped before its first cycle: one line, exit code 5.
int interrupted_during_setup(const Communicator& comm,
                             const std::optional<io::RunProgress>& restart,
                             const std::string& restart_dir) {
  if (comm.is_root()) {
    if (restart) {
      std::fprintf(stderr,
                   "wormnet: interrupted by a signal during setup, before the first cycle: the "
                   "checkpoint '%s' is unchanged, continue again with --restart %s\n",
                   restart_dir.c_str(), restart_dir.c_str());
    } else {
      std::fprintf(stderr,
                   "wormnet: interrupted by a signal during setup, before the first cycle: "
                   "nothing was written and there is nothing to restart from (run the command "
                   "again)\n");
    }
  }
  return kExitInterrupted;
}

/// What the results file records of the workload besides its messages and times.
io::WorkloadRecord workload_record(const WorkloadConfig& wo, const Workload& w) {
  io::WorkloadRecord r;
  r.source = enum_name(wo.kind);
  r.trace = wo.is_trace() ? wo.trace : "";
  r.mapping = wo.is_trace() ? "" : enum_name(wo.mapping);
  r.grid.assign(w.grid.begin(), w.grid.end());
  r.process_node.assign(w.node_of.begin(), w.node_of.end());
  r.message_flits = wo.is_trace() || wo.is_npb() ? 0 : static_cast<std::uint64_t>(wo.message_size);
  r.processes_per_node = wo.is_trace() ? 0 : wo.processes_per_node;
  r.local_latency = wo.local_latency;
  r.compute_per_step = wo.is_trace() || wo.is_npb() ? 0 : wo.compute_cycles;
  r.compute_rate = wo.is_npb() ? wo.compute_rate : 0;
  r.npb_class = wo.is_npb() ? enum_name(wo.npb_class) : "";
  r.npb_scale = wo.is_npb() ? wo.npb_scale : 0;
  return r;
}

/// The lines before the first point (rank 0, unless --quiet).
void print_start(const Communicator& comm, const SimOptions& o, const SimSetup& setup,
                 const SimulationRequest& request, const io::RunProgress* restart,
                 const std::string& restart_dir, const io::ResultWriter* writer) {
  if (!comm.is_root() || o.quiet) return;
  std::printf("wormnet %s: %s", request.command.c_str(), describe_config(o, setup).c_str());
  std::printf("%s", describe_partition(setup).c_str());
  std::printf("%s", describe_setup(setup, comm).c_str());
  if (restart != nullptr) {
    std::printf("restart    from %s at point %lld, cycle %llu\n",
                io::checkpoint_path(restart_dir).c_str(), static_cast<long long>(restart->point),
                static_cast<unsigned long long>(restart->cycle));
  }
  if (writer != nullptr)
    std::printf("writing    %s (renamed to %s when the run ends)\n", writer->writing().c_str(),
                writer->target().c_str());
  std::fflush(stdout);
}

/// What every checkpoint of the session records besides the point and the loop's state.
io::RunProgress progress_base(const SimulationRequest& request, const std::string& config_toml,
                              const std::string& inputs_text, const std::string& output) {
  io::RunProgress base;
  base.command = request.command;
  base.config_toml = config_toml;
  base.inputs = inputs_text;
  base.version = build_version();
  base.output = output;
  return base;
}

/// The offered load of each point (0 for a closed-loop workload: it replaces the traffic),
/// and where a restart takes them up.
SessionPoints session_points(const SimOptions& o, const SimSetup& setup,
                             const SimulationRequest& request, const io::RunProgress* restart) {
  SessionPoints points;
  points.after_saturation = request.after_saturation;
  for (const double point : request.points) {
    points.rates.push_back(
        o.config.workload.active() ? 0.0 : offered_rate(o, setup, point, request.relative));
  }
  if (restart != nullptr) {
    points.first = static_cast<std::size_t>(restart->point);
    points.left = restart->left_after_saturation;
  }
  return points;
}

/// The session's report on the command line: the batch control's point, and the lines of
/// each point on rank 0 (unless --quiet).
class PrintedReport final : public SessionReport {
 public:
  PrintedReport(const Communicator& comm, const SimOptions& o, const SimSetup& setup,
                BatchControl& control, std::string checkpoint_dir, std::size_t points)
      : o_(o),
        setup_(setup),
        control_(control),
        checkpoint_dir_(std::move(checkpoint_dir)),
        points_(points),
        printing_(comm.is_root() && !o.quiet) {}

  void point_starts(int index, double rate, std::int64_t left) override {
    control_.set_point(index, rate, left);
  }
  void stopped(std::size_t index, Cycle cycle) override {
    if (!printing_) return;
    control_.finish_progress();
    std::printf("stopped    at cycle %llu of point %zu; continue with --restart %s\n",
                static_cast<unsigned long long>(cycle), index, checkpoint_dir_.c_str());
  }
  void point_done(std::size_t index, const RunSummary& s) override {
    if (!printing_) return;
    if (points_ > 1) std::printf("point %zu\n", index);
    std::printf("%s", format_summary(s, setup_, o_.config.workload.active()).c_str());
  }
  void workload_done(const CompletionReport& report, const MessageGraph& graph) override {
    if (!printing_) return;
    std::printf("%s", describe_completion(report, graph, o_.config.measure.flit_rate).c_str());
  }
  void finished() override {
    if (printing_ && !o_.output.empty()) std::printf("results    %s\n", o_.output.c_str());
  }

 private:
  const SimOptions& o_;
  const SimSetup& setup_;
  BatchControl& control_;
  std::string checkpoint_dir_;
  std::size_t points_;
  bool printing_;
};

/// The checkpoint's progress record when --restart `dir` was given, checked to be of
/// `command`, of this wormnet's version and of the configuration `config_toml` (InputError
/// naming --restart otherwise). Collective.
std::optional<io::RunProgress> checked_restart(const Communicator& comm, const std::string& dir,
                                               const std::string& command,
                                               const std::string& config_toml) {
  if (dir.empty()) return std::nullopt;
  io::RunProgress restart = read_restart(comm, dir, command, build_version());
  refuse_other_configuration(restart, dir, config_toml);
  return restart;
}

/// The inputs' digests before the setup: a restart checks them against its checkpoint's
/// before anything is claimed or written; a run that is no restart stamps them now and
/// digests them after loading them (digest_after_setup), so that the file digested is the
/// file loaded, and a broken file is refused by its loader at once. False when a signal
/// stopped the reading.
bool digest_before_setup(const Communicator& comm, std::vector<InputFile>& inputs,
                         const io::RunProgress* restart, const std::string& restart_dir) {
  try {
    if (restart != nullptr) {
      digest_inputs(comm, inputs, stop_signalled);
      refuse_changed_inputs(restart->inputs, inputs, restart_dir);
    } else {
      stamp_inputs(comm, inputs);
    }
  } catch (const Interrupted&) {
    return false;
  }
  return true;
}

/// What was loaded is what was digested: neither file was written or replaced since. False
/// when a signal stopped the reading, or reached a rank.
bool digest_after_setup(const Communicator& comm, std::vector<InputFile>& inputs, bool restart) {
  try {
    if (!restart) digest_inputs(comm, inputs, stop_signalled);
  } catch (const Interrupted&) {
    return false;
  }
  refuse_inputs_changed_since_digest(comm, inputs);
  return !stop_requested(comm);
}

/// The outputs, checked against each other and the inputs, and claimed before the setup;
/// the checkpoint's when checkpoints are planned, on a restart, or with --checkpoint-dir.
SessionOutputs claim_session_outputs(const Communicator& comm, const SimOptions& o,
                                     const std::string& checkpoint_dir, bool restart) {
  const BatchConfig& batch = o.config.batch;
  refuse_overlaps(comm, simulation_outputs(o, checkpoint_dir), simulation_inputs(o));
  const bool checkpoints = batch.plans_checkpoints() || restart || !batch.checkpoint_dir.empty();
  return claim_outputs(
      comm, SessionPaths{o.output, o.workload.write_trace, checkpoints ? checkpoint_dir : ""},
      restart);
}

/// The network and the workload (nothing when a signal stopped the reading of an input).
std::optional<SimSetup> set_up(const Communicator& comm, const SimOptions& o,
                               const SimulationRequest& request) {
  std::optional<SimSetup> built;
  try {
    built.emplace(build_setup(o, comm, request.relative));
  } catch (const Interrupted&) {
    return std::nullopt;
  }
  if (request.relative && built->bounds.saturation_rate <= 0) {
    throw InputError("--relative", "set", "needs the load analysis (network too large)");
  }
  return built;
}

/// A closed-loop workload of the session: the workload built with the network (its lengths:
/// the plan's), the engine's script of it, and what the session reports of it.
struct SessionScript {
  std::optional<Workload> workload;
  std::unique_ptr<ClosedLoop> loop;
  std::optional<SessionWorkload> session;

  /// The script to `sim`, and its progress to the checkpoints `control` writes.
  void attach(const Communicator& comm, Simulation& sim, BatchControl& control) const {
    if (!loop) return;
    sim.set_script(loop.get());
    control.set_workload_progress([&comm, this] { return summed_times(comm, *loop).flat(); });
  }
};

/// The session's closed-loop workload, which replaces the load point's traffic (offered rate
/// 0); without one, the loads are checked to measure something.
SessionScript session_script(const Communicator& comm, const SimOptions& o, SimSetup& setup,
                             const SimulationRequest& request) {
  SessionScript s;
  if (!o.config.workload.active()) {
    refuse_silent_loads(o, setup, request);
    return s;
  }
  s.workload = std::move(setup.workload);
  s.loop =
      std::make_unique<ClosedLoop>(s.workload->graph, setup.partition.nodes_of(comm.rank()),
                                   setup.topology->num_nodes(), o.config.workload.local_latency);
  s.session = SessionWorkload{&s.workload->graph, s.loop.get(),
                              workload_record(o.config.workload, *s.workload)};
  return s;
}

/// The trace file (--write-trace) and the results file, written or opened after the
/// checkpoint's model was read.
std::unique_ptr<io::ResultWriter> open_outputs(
    const Communicator& comm, const SimOptions& o, const SimSetup& setup,
    const SimulationRequest& request, const std::string& config_toml,
    const std::string& inputs_text, const io::RunProgress* restart, const SessionScript& script,
    SessionOutputs& outputs) {
  if (script.workload && outputs.trace) {
    write_trace_file(comm, script.workload->graph, *outputs.trace);
  }
  if (!outputs.results) return nullptr;
  io::RunDescription description = describe_run(o, setup, comm, request.command, config_toml);
  description.inputs = inputs_text;
  return open_results(comm, std::move(*outputs.results), description, restart);
}

}  // namespace

int run_simulation(SimOptions& o, const BatchOptionText& batch_text,
                   const SimulationRequest& request) {
  const Communicator comm = Communicator::world();
  // A signal stops the run cleanly, setup included: main installed the handlers before
  // reading any input (install_stop_signals()).
  finish_sim_options(o);
  finish_batch_options(batch_text, o.given, o.config.batch);
  const BatchConfig& batch = o.config.batch;
  const std::string config_toml = to_toml(o) + request.extra_toml;
  check_config_size(config_toml);
  // A restart continues a checkpoint of this very configuration, version and input files.
  const std::optional<io::RunProgress> restart =
      checked_restart(comm, batch.restart, request.command, config_toml);
  const io::RunProgress* resumed = restart ? &*restart : nullptr;
  const auto interrupted = [&] { return interrupted_during_setup(comm, restart, batch.restart); };
  std::vector<InputFile> inputs = input_files(o);
  if (!digest_before_setup(comm, inputs, resumed, batch.restart)) return interrupted();
  if (restart && o.output.empty()) o.output = restart->output;
  const std::string checkpoint_dir = checkpoint_directory(batch, o.output);
  SessionOutputs outputs = claim_session_outputs(comm, o, checkpoint_dir, resumed != nullptr);

  std::optional<SimSetup> built = set_up(comm, o, request);
  if (!built) return interrupted();
  SimSetup& setup = *built;
  SessionScript script = session_script(comm, o, setup, request);
  if (!digest_after_setup(comm, inputs, resumed != nullptr)) return interrupted();
  const std::string inputs_text = inputs_toml(inputs);
  // The checkpoint's model is read (and checked) before the results file is touched.
  std::unique_ptr<Resume> resume;
  if (restart) {
    resume = resume_from(comm, *restart, batch.restart, setup, o.config.network.buffer_depth,
                         script.session ? &*script.session : nullptr);
    if (stop_requested(comm)) return interrupted();
  }
  std::unique_ptr<io::ResultWriter> writer =
      open_outputs(comm, o, setup, request, config_toml, inputs_text, resumed, script, outputs);
  print_start(comm, o, setup, request, resumed, batch.restart, writer.get());

  BatchControl control(comm, batch, checkpoint_dir,
                       progress_base(request, config_toml, inputs_text, o.output), writer.get(),
                       o.quiet, setup.plan.window.end(), std::move(outputs.checkpoint),
                       setup.plan.traffic_nodes);
  Simulation sim = make_simulation(o.config, setup, comm, setup.bounds);
  sim.set_hooks(&control);
  script.attach(comm, sim, control);
  PrintedReport report(comm, o, setup, control, checkpoint_dir, request.points.size());
  return run_points(comm, sim, control.results(), session_points(o, setup, request, resumed),
                    std::move(resume), writer.get(), script.session ? &*script.session : nullptr,
                    report);
}

}  // namespace wormnet::cli
