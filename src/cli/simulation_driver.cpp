#include "simulation_driver.hpp"

#include <cstdio>
#include <memory>

#include "build_version.hpp"
#include "input_files.hpp"
#include "output_paths.hpp"
#include "run_support.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/driver/run_session.hpp"
#include "wormnet/workload/closed_loop.hpp"

namespace wormnet::cli {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
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
    throw InputError(option, number(point),
                     "expects " + number(expected) + " messages in the measurement window (" +
                         number(nodes) + " nodes x " + number(window) + " cycles x " +
                         number(rate) + " flits/node/cycle / " + number(mean_length) +
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

}  // namespace

std::optional<io::RunProgress> read_restart(const Communicator& comm, const BatchOptions& batch,
                                            const std::string& command) {
  if (batch.restart.empty()) return std::nullopt;
  return wormnet::read_restart(comm, batch.restart, command, build_version());
}

int run_simulation(SimOptions& o, const BatchOptions& batch, const SimulationRequest& request) {
  const Communicator comm = Communicator::world();
  // A signal stops the run cleanly, setup included: main installed the handlers before
  // reading any input (install_stop_signals()).
  finish_sim_options(o);
  const std::string config_toml = to_toml(o) + request.extra_toml;
  const auto interrupted = [&](const std::optional<io::RunProgress>& restart) {
    return interrupted_during_setup(comm, restart, batch.restart);  // on every rank alike
  };

  // A restart continues a checkpoint of this very configuration and version.
  std::optional<io::RunProgress> restart = read_restart(comm, batch, request.command);
  if (restart) refuse_other_configuration(*restart, batch.restart, config_toml);
  // ... and the same contents of the files the configuration names by path (a table or trace
  // other than the checkpoint's crashed the restart or gave other results): checked before
  // anything is claimed or written, and their digests recorded in checkpoints and results.
  // A run that is no restart digests them after loading them (stamped now, so that the file
  // digested is the file loaded): a broken file is refused by its loader at once.
  std::vector<InputFile> inputs = input_files(o);
  try {
    if (restart) {
      digest_inputs(comm, inputs, stop_signalled);
      refuse_changed_inputs(restart->inputs, inputs, batch.restart);
    } else {
      stamp_inputs(comm, inputs);
    }
  } catch (const Interrupted&) {
    return interrupted(restart);
  }
  if (restart && o.output.empty()) o.output = restart->output;
  const BatchSettings plan = batch_settings(batch, o.output);
  refuse_overlaps(comm, simulation_outputs(o, plan), simulation_inputs(o, batch));
  const bool checkpoints =
      plan.checkpoints.plans_checkpoints() || restart || !batch.checkpoint_dir.empty();
  SessionOutputs outputs = claim_outputs(
      comm, SessionPaths{o.output, o.workload.write_trace, checkpoints ? plan.dir : ""},
      restart.has_value());

  std::optional<SimSetup> built;
  try {
    built.emplace(build_setup(o, comm, request.relative));
  } catch (const Interrupted&) {
    return interrupted(restart);
  }
  SimSetup& setup = *built;
  if (request.relative && setup.bounds.saturation_rate <= 0) {
    throw InputError("--relative", "set", "needs the load analysis (network too large)");
  }
  // A closed-loop workload replaces the load point's traffic (offered rate 0).
  std::optional<Workload> workload;
  std::unique_ptr<ClosedLoop> loop;
  std::optional<SessionWorkload> scripted;
  if (o.config.workload.active()) {
    workload = std::move(setup.workload);  // built with the network (its lengths: the plan's)
    loop =
        std::make_unique<ClosedLoop>(workload->graph, setup.partition.nodes_of(comm.rank()),
                                     setup.topology->num_nodes(), o.config.workload.local_latency);
    scripted = SessionWorkload{&workload->graph, loop.get(),
                               workload_record(o.config.workload, *workload)};
  } else {
    refuse_silent_loads(o, setup, request);
  }
  // What was loaded is what was digested: neither file was written or replaced since.
  try {
    if (!restart) digest_inputs(comm, inputs, stop_signalled);
  } catch (const Interrupted&) {
    return interrupted(restart);
  }
  refuse_inputs_changed_since_digest(comm, inputs);
  const std::string inputs_text = inputs_toml(inputs);
  if (stop_requested(comm)) return interrupted(restart);

  // The checkpoint's model is read (and checked) before the results file is touched.
  std::unique_ptr<Resume> resume;
  if (restart) {
    resume = resume_from(comm, *restart, batch.restart, setup, o.config.network.buffer_depth,
                         scripted ? &*scripted : nullptr);
    if (stop_requested(comm)) return interrupted(restart);
  }
  if (workload && outputs.trace) write_trace_file(comm, workload->graph, *outputs.trace);
  std::unique_ptr<io::ResultWriter> writer;
  if (outputs.results) {
    io::RunDescription description = describe_run(o, setup, comm, request.command, config_toml);
    description.inputs = inputs_text;
    writer =
        open_results(comm, std::move(*outputs.results), description, restart ? &*restart : nullptr);
  }
  print_start(comm, o, setup, request, restart ? &*restart : nullptr, batch.restart, writer.get());

  BatchControl control(comm, plan, progress_base(request, config_toml, inputs_text, o.output),
                       writer.get(), o.quiet, setup.plan.window.end(),
                       std::move(outputs.checkpoint), setup.plan.traffic_nodes);
  Simulation sim = make_simulation(o.config, setup, comm, setup.bounds);
  sim.set_hooks(&control);
  if (loop) {
    sim.set_script(loop.get());
    control.set_workload_progress([&] { return summed_times(comm, *loop).flat(); });
  }

  const SessionPoints points = session_points(o, setup, request, restart ? &*restart : nullptr);
  PrintedReport report(comm, o, setup, control, plan.dir, request.points.size());
  return run_points(comm, sim, control, points, std::move(resume), writer.get(),
                    scripted ? &*scripted : nullptr, report);
}

}  // namespace wormnet::cli
