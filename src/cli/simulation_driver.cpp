#include "simulation_driver.hpp"

#include <cstdio>
#include <memory>
#include <sstream>

#include "build_version.hpp"
#include "output_paths.hpp"
#include "run_support.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"

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
  const MeasureConfig& m = o.config.measure;
  const TrafficConfig& t = o.config.traffic;
  const double window = static_cast<double>(m.cycles > 0 ? m.cycles - m.warmup : m.measure);
  const double nodes = static_cast<double>(setup.topology->num_nodes());
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
  if (p.version != build_version()) {
    throw InputError(
        "--restart", batch.restart,
        "the checkpoint was written by wormnet " + p.version + ", this is " + build_version());
  }
  return p;
}

int run_simulation(SimOptions& o, const BatchOptions& batch, const SimulationRequest& request) {
  const Communicator comm = Communicator::world();
  // From here a signal stops the run cleanly, setup included (it used to kill the process).
  install_stop_signals();
  finish_sim_options(o);
  const std::string config_toml = to_toml(o) + request.extra_toml;

  // A restart continues a checkpoint of this very configuration and version.
  std::optional<io::RunProgress> restart = read_restart(comm, batch, request.command);
  if (restart && restart->config_toml != config_toml) {
    throw InputError(
        "--restart", batch.restart,
        "another configuration: " + first_difference(restart->config_toml, config_toml));
  }
  if (restart && o.output.empty()) o.output = restart->output;
  const BatchPlan plan = plan_batch(batch, o.output);
  refuse_overlaps(comm, simulation_outputs(o, plan), simulation_inputs(o, batch));

  // The outputs are claimed before the (possibly long) setup: a second run on the same files
  // is refused at once, and a path that cannot be written is found before any work.
  std::optional<io::OutputFile> results;
  if (!o.output.empty()) results = io::OutputFile::claim(comm, o.output, "--output");
  std::optional<io::OutputFile> checkpoint;
  if (plan.every_cycles > 0 || plan.every_seconds > 0 || plan.walltime_seconds > 0 ||
      plan.stop_at_cycle > 0 || restart || !batch.checkpoint_dir.empty()) {
    checkpoint = claim_checkpoint(comm, plan.dir);
  }

  SimSetup setup = build_setup(o, comm);
  const int vcs = effective_vcs(o.config, *setup.routing);
  if (request.relative && setup.bounds.saturation_rate <= 0) {
    throw InputError("--relative", "set", "needs the load analysis (network too large)");
  }
  refuse_silent_loads(o, setup, request);
  if (stop_requested(comm)) return interrupted_during_setup(comm, restart, batch.restart);

  // The checkpoint's model is read (and checked) before the results file is touched.
  std::unique_ptr<Resume> resume;
  if (restart) {
    resume = std::make_unique<Resume>();
    resume->loop = LoopState{restart->cycle, restart->window_start, restart->next_window,
                             restart->next_check, restart->flit_hops};
    resume->model = io::read_checkpoint_model(
        comm, batch.restart, "--restart", setup.partition.nodes_of(comm.rank()),
        static_cast<std::uint32_t>(setup.topology->num_ports()), static_cast<std::uint32_t>(vcs),
        static_cast<std::uint32_t>(o.config.network.buffer_depth));
    if (stop_requested(comm)) return interrupted_during_setup(comm, restart, batch.restart);
  }
  std::unique_ptr<io::ResultWriter> writer;
  if (results) {
    const io::RunDescription description =
        describe_run(o, setup, comm, request.command, config_toml);
    if (restart) {
      writer =
          io::ResultWriter::reopen(comm, std::move(*results), description, restart->summary_rows);
      writer->resume_point(restart->series_rows);
    } else {
      writer = std::make_unique<io::ResultWriter>(comm, std::move(*results), description);
    }
  }
  if (comm.is_root() && !o.quiet) {
    std::printf("wormnet %s: %s", request.command.c_str(), describe_config(o, setup, vcs).c_str());
    std::printf("%s", describe_partition(o, setup).c_str());
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
  base.version = build_version();
  base.output = o.output;
  const MeasureConfig& m = o.config.measure;
  BatchControl control(comm, plan, base, writer.get(), o.quiet,
                       m.cycles > 0 ? m.cycles : m.warmup + m.measure, std::move(checkpoint),
                       setup.topology->num_nodes());
  Simulation sim(o.config, *setup.topology, *setup.routing, setup.partition, comm, setup.bounds);
  sim.set_hooks(&control);

  std::size_t first = 0;
  std::int64_t left = -1;  // points still to run after saturation; -1 = not saturated yet
  if (restart) {
    first = static_cast<std::size_t>(restart->point);
    left = restart->left_after_saturation;
  }
  int code = kExitOk;
  try {
    for (std::size_t i = first; i < request.points.size(); ++i) {
      const double rate = offered_rate(o, setup, request.points[i], request.relative);
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
        std::printf("%s", format_summary(s, setup).c_str());
      }
      if (s.deadlock) {
        code = kExitDeadlock;
        break;
      }
      if (request.after_saturation >= 0) {
        if (left < 0 && s.saturated) {
          left = request.after_saturation;
        } else if (left > 0) {
          --left;
        }
        if (left == 0) break;
      }
    }
    if (writer)
      writer->finish(code == kExitDeadlock ? io::RunStatus::kDeadlock : io::RunStatus::kComplete);
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
