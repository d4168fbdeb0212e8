#include "simulation_driver.hpp"

#include <cstdio>
#include <memory>
#include <sstream>

#include "build_version.hpp"
#include "input_files.hpp"
#include "output_paths.hpp"
#include "run_support.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/workload/closed_loop.hpp"
#include "wormnet/workload/completion_report.hpp"
#include "wormnet/workload/trace_file.hpp"

namespace wormnet::cli {

namespace {

/// The first line where two configurations differ, for the refusal message.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a);
  std::istringstream y(b);
  std::string la;
  std::string lb;
  while (true) {
    const bool ga = static_cast<bool>(std::getline(x, la));
    const bool gb = static_cast<bool>(std::getline(y, lb));
    if (!ga && !gb) return "";
    if (!ga) la = "(nothing)";
    if (!gb) lb = "(nothing)";
    if (la != lb) return "checkpoint has '" + la + "', this run '" + lb + "'";
  }
}

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

/// The workload's per-message times, summed over the ranks (collective).
WorkloadTimes summed_times(const Communicator& comm, const ClosedLoop& loop) {
  std::vector<std::uint64_t> v = loop.times().flat();
  comm.sum(std::span<std::uint64_t>(v));
  return WorkloadTimes::from_flat(v);
}

/// --write-trace, written by rank 0 as the claimed output's partial file and published by
/// commit(); a failure is every rank's OutputError and removes the partial file (a trace is
/// written in one go: a partial one holds nothing of use).
void write_trace_file(const Communicator& comm, const Workload& w, io::OutputFile& out) {
  std::string reason;
  if (comm.is_root()) {
    try {
      write_trace(w.graph, out.partial());
    } catch (const OutputError& e) {
      reason = e.reason().empty() ? "not written" : e.reason();
    }
  }
  comm.broadcast(reason, 0);
  try {
    if (!reason.empty()) throw OutputError(out.partial(), reason);
    out.commit(comm);
  } catch (const OutputError& e) {
    if (out.failed_after_rename()) throw;  // in place; its directory failed to sync
    out.discard_partial(comm);
    throw OutputError(e.path(), e.reason() + "; the partial file was removed, an earlier '" +
                                    out.target() + "', if any, is unchanged");
  }
  out.release();
}

/// Completion time and breakdown of a finished workload: to the results file and stdout.
/// Whether every message was delivered.
bool finish_workload(const Communicator& comm, const SimOptions& o, const Workload& w,
                     const ClosedLoop& loop, io::ResultWriter* writer) {
  const WorkloadTimes times = summed_times(comm, loop);
  const CompletionReport report = report_completion(w.graph, times);
  if (writer != nullptr) {
    const WorkloadOptions& wo = o.workload;
    io::WorkloadRecord r;
    r.source = wo.name;
    r.trace = wo.is_trace() ? wo.trace : "";
    r.mapping = wo.is_trace() ? "" : wo.mapping;
    r.grid.assign(w.grid.begin(), w.grid.end());
    r.process_node.assign(w.node_of.begin(), w.node_of.end());
    r.message_flits =
        wo.is_trace() || wo.is_npb() ? 0 : static_cast<std::uint64_t>(wo.message_size);
    r.processes_per_node = wo.is_trace() ? 0 : wo.processes_per_node;
    r.local_latency = wo.local_latency;
    r.compute_per_step = wo.is_trace() || wo.is_npb() ? 0 : wo.compute_cycles;
    r.compute_rate = wo.is_npb() ? wo.compute_rate : 0;
    r.npb_class = wo.is_npb() ? wo.npb_class : "";
    r.npb_scale = wo.is_npb() ? wo.npb_scale : 0;
    r.graph = &w.graph;
    r.times = &times;
    r.report = &report;
    writer->write_workload(r);
  }
  if (comm.is_root() && !o.quiet) {
    std::printf("%s", describe_completion(report, w.graph, o.config.measure.flit_rate).c_str());
  }
  return report.complete;
}

}  // namespace

std::optional<io::RunProgress> read_restart(const Communicator& comm, const BatchOptions& batch,
                                            const std::string& command) {
  if (batch.restart.empty()) return std::nullopt;
  io::RunProgress p =
      io::read_checkpoint_progress(comm, batch.restart, "--restart", build_version());
  if (p.command != command) {
    throw InputError("--restart", batch.restart,
                     "the checkpoint is of 'wormnet " + p.command + "', not '" + command + "'");
  }
  return p;  // read_checkpoint_progress refused another build's checkpoint
}

int run_simulation(SimOptions& o, const BatchOptions& batch, const SimulationRequest& request) {
  const Communicator comm = Communicator::world();
  // A signal stops the run cleanly, setup included (it used to kill the process): main
  // installed the handlers before reading any input (install_stop_signals()).
  finish_sim_options(o);
  const std::string config_toml = to_toml(o) + request.extra_toml;

  // A restart continues a checkpoint of this very configuration and version.
  std::optional<io::RunProgress> restart = read_restart(comm, batch, request.command);
  if (restart && restart->config_toml != config_toml) {
    throw InputError(
        "--restart", batch.restart,
        "another configuration: " + first_difference(restart->config_toml, config_toml));
  }
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
    return interrupted_during_setup(comm, restart, batch.restart);  // on every rank alike
  }
  if (restart && o.output.empty()) o.output = restart->output;
  const BatchPlan plan = plan_batch(batch, o.output);
  refuse_overlaps(comm, simulation_outputs(o, plan), simulation_inputs(o, batch));

  // The outputs are claimed before the (possibly long) setup: a second run on the same files
  // is refused at once, and a path that cannot be written is found before any work.
  std::optional<io::OutputFile> results;
  if (!o.output.empty()) {
    results = io::OutputFile::claim(
        comm, o.output, "--output", false,
        restart ? io::EarlierPartial::kContinue : io::EarlierPartial::kRefuseOrRestart);
  }
  std::optional<io::OutputFile> trace_file;
  if (!o.workload.write_trace.empty()) {
    trace_file =
        io::OutputFile::claim(comm, o.workload.write_trace, "--write-trace", false,
                              restart ? io::EarlierPartial::kReplace : io::EarlierPartial::kRefuse);
  }
  std::optional<io::OutputFile> checkpoint;
  if (plan.checkpoints.plans_checkpoints() || restart || !batch.checkpoint_dir.empty()) {
    checkpoint = claim_checkpoint(comm, plan.dir);
  }

  std::optional<SimSetup> built;
  try {
    built.emplace(build_setup(o, comm, request.relative));
  } catch (const Interrupted&) {
    return interrupted_during_setup(comm, restart, batch.restart);  // on every rank alike
  }
  SimSetup& setup = *built;
  if (request.relative && setup.bounds.saturation_rate <= 0) {
    throw InputError("--relative", "set", "needs the load analysis (network too large)");
  }
  // A closed-loop workload replaces the load point's traffic (offered rate 0).
  std::optional<Workload> workload;
  std::unique_ptr<ClosedLoop> loop;
  if (o.workload.active()) {
    workload = std::move(setup.workload);  // built with the network (its lengths: the plan's)
    loop = std::make_unique<ClosedLoop>(workload->graph, setup.partition.nodes_of(comm.rank()),
                                        setup.topology->num_nodes(), o.workload.local_latency);
  } else {
    refuse_silent_loads(o, setup, request);
  }
  // What was loaded is what was digested: neither file was written or replaced since.
  try {
    if (!restart) digest_inputs(comm, inputs, stop_signalled);
  } catch (const Interrupted&) {
    return interrupted_during_setup(comm, restart, batch.restart);
  }
  refuse_inputs_changed_since_digest(comm, inputs);
  const std::string inputs_text = inputs_toml(inputs);
  if (stop_requested(comm)) return interrupted_during_setup(comm, restart, batch.restart);

  // The checkpoint's model is read (and checked) before the results file is touched.
  std::unique_ptr<Resume> resume;
  if (restart) {
    resume = std::make_unique<Resume>();
    resume->loop = LoopState{restart->cycle, restart->window_start, restart->next_window,
                             restart->next_check, restart->flit_hops};
    resume->model = io::read_checkpoint_model(
        comm, batch.restart, "--restart", setup.partition.nodes_of(comm.rank()),
        setup.topology->num_nodes(), static_cast<std::uint32_t>(setup.topology->num_ports()),
        static_cast<std::uint32_t>(setup.plan.vcs),
        static_cast<std::uint32_t>(o.config.network.buffer_depth), restart->checked);
    if (loop) {
      if (restart->workload.size() != 3ULL * workload->graph.size()) {
        throw InputError("--restart", batch.restart,
                         "the checkpoint holds no progress of this workload's " +
                             std::to_string(workload->graph.size()) + " messages");
      }
      loop->restore(WorkloadTimes::from_flat(restart->workload));
    }
    if (stop_requested(comm)) return interrupted_during_setup(comm, restart, batch.restart);
  }
  if (workload && trace_file) write_trace_file(comm, *workload, *trace_file);
  std::unique_ptr<io::ResultWriter> writer;
  if (results) {
    io::RunDescription description = describe_run(o, setup, comm, request.command, config_toml);
    description.inputs = inputs_text;
    if (restart) {
      writer =
          io::ResultWriter::reopen(comm, std::move(*results), description, restart->summary_rows);
      writer->resume_point(restart->series_rows);
    } else {
      writer = std::make_unique<io::ResultWriter>(comm, std::move(*results), description);
    }
  }
  if (comm.is_root() && !o.quiet) {
    std::printf("wormnet %s: %s", request.command.c_str(), describe_config(o, setup).c_str());
    std::printf("%s", describe_partition(setup).c_str());
    std::printf("%s", describe_setup(setup, comm).c_str());
    if (restart) {
      std::printf("restart    from %s at point %lld, cycle %llu\n",
                  io::checkpoint_path(batch.restart).c_str(),
                  static_cast<long long>(restart->point),
                  static_cast<unsigned long long>(restart->cycle));
    }
    if (writer)
      std::printf("writing    %s (renamed to %s when the run ends)\n", writer->writing().c_str(),
                  writer->target().c_str());
    std::fflush(stdout);
  }

  io::RunProgress base;
  base.command = request.command;
  base.config_toml = config_toml;
  base.inputs = inputs_text;
  base.version = build_version();
  base.output = o.output;
  BatchControl control(comm, plan, base, writer.get(), o.quiet, setup.plan.window.end(),
                       std::move(checkpoint), setup.plan.traffic_nodes);
  Simulation sim = make_simulation(o.config, setup, comm, setup.bounds);
  sim.set_hooks(&control);
  if (loop) {
    sim.set_script(loop.get());
    control.set_workload_progress([&] { return summed_times(comm, *loop).flat(); });
  }

  std::size_t first = 0;
  std::int64_t left = -1;  // points still to run after saturation; -1 = not saturated yet
  if (restart) {
    first = static_cast<std::size_t>(restart->point);
    left = restart->left_after_saturation;
  }
  int code = kExitOk;
  try {
    for (std::size_t i = first; i < request.points.size(); ++i) {
      const double rate = loop ? 0.0 : offered_rate(o, setup, request.points[i], request.relative);
      control.set_point(static_cast<int>(i), rate, left);
      const RunSummary s = sim.run(rate, control, static_cast<int>(i), resume.get());
      resume.reset();
      if (s.interrupted) {
        if (writer) writer->finish(io::RunStatus::kInterrupted);
        if (comm.is_root() && !o.quiet) {
          control.finish_progress();
          std::printf("stopped    at cycle %llu of point %zu; continue with --restart %s\n",
                      static_cast<unsigned long long>(s.cycles), i, plan.dir.c_str());
        }
        return kExitInterrupted;
      }
      if (comm.is_root() && !o.quiet) {
        if (request.points.size() > 1) std::printf("point %zu\n", i);
        std::printf("%s", format_summary(s, setup, loop != nullptr).c_str());
      }
      const bool unfinished = loop && !finish_workload(comm, o, *workload, *loop, writer.get());
      if (s.deadlock) {
        code = kExitDeadlock;
        break;
      }
      if (unfinished) code = kExitIncomplete;  // the drain limit ended it (one point only)
      if (request.after_saturation >= 0) {
        if (left < 0 && s.saturated) {
          left = request.after_saturation;
        } else if (left > 0) {
          --left;
        }
        if (left == 0) break;
      }
    }
    if (writer) {
      writer->finish(code == kExitDeadlock     ? io::RunStatus::kDeadlock
                     : code == kExitIncomplete ? io::RunStatus::kIncomplete
                                               : io::RunStatus::kComplete);
    }
  } catch (const InputError&) {
    // Errors every rank saw alike: the file says "failed" and keeps its partial name.
    if (writer) writer->abandon();
    throw;
  } catch (const OutputError&) {
    if (writer) writer->abandon();
    throw;
  }
  if (comm.is_root() && !o.quiet && !o.output.empty())
    std::printf("results    %s\n", o.output.c_str());
  return code;
}

}  // namespace wormnet::cli
