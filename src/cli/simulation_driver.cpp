#include "simulation_driver.hpp"

#include <cstdio>
#include <memory>
#include <sstream>

#include "build_version.hpp"
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

}  // namespace

int run_simulation(SimOptions& o, const BatchOptions& batch, const SimulationRequest& request) {
  finish_sim_options(o);
  const Communicator comm = Communicator::world();
  const std::string config_toml = to_toml(o) + request.extra_toml;

  // A restart continues a checkpoint of this very configuration and version.
  std::optional<io::RunProgress> restart;
  if (!batch.restart.empty()) {
    restart = io::read_checkpoint_progress(comm, batch.restart, "--restart");
    if (restart->command != request.command) {
      throw InputError(
          "--restart", batch.restart,
          "the checkpoint is of 'wormnet " + restart->command + "', not '" + request.command + "'");
    }
    if (restart->version != build_version()) {
      throw InputError("--restart", batch.restart,
                       "the checkpoint was written by wormnet " + restart->version + ", this is " +
                           build_version());
    }
    if (restart->config_toml != config_toml) {
      throw InputError(
          "--restart", batch.restart,
          "another configuration: " + first_difference(restart->config_toml, config_toml));
    }
    if (o.output.empty()) o.output = restart->output;
  }
  const BatchPlan plan = plan_batch(batch, o.output);

  SimSetup setup = build_setup(o, comm);
  const int vcs = effective_vcs(o.config, *setup.routing);
  if (request.relative && setup.bounds.saturation_rate <= 0) {
    throw InputError("--relative", "set", "needs the load analysis (network too large)");
  }
  // A checkpoint directory that cannot be written is refused before the results file is
  // created (an existing file of that name stays as it is).
  if (plan.every_cycles > 0 || plan.every_seconds > 0 || plan.walltime_seconds > 0 ||
      plan.stop_at_cycle > 0) {
    prepare_checkpoint_dir(comm, plan.dir);
  }
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
  }
  std::unique_ptr<io::ResultWriter> writer;
  if (restart && !o.output.empty()) {
    writer = io::ResultWriter::reopen(comm, o.output, "--output",
                                      describe_run(o, setup, comm, request.command, config_toml),
                                      restart->summary_rows);
    writer->resume_point(restart->series_rows);
  } else {
    writer = open_results(o, setup, comm, request.command, config_toml);
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
  }

  io::RunProgress base;
  base.command = request.command;
  base.config_toml = config_toml;
  base.version = build_version();
  base.output = o.output;
  const MeasureConfig& m = o.config.measure;
  BatchControl control(comm, plan, base, writer.get(), o.quiet,
                       m.cycles > 0 ? m.cycles : m.warmup + m.measure);
  install_stop_signals();
  Simulation sim(o.config, *setup.topology, *setup.routing, setup.partition, comm, setup.bounds);
  sim.set_hooks(&control);

  std::size_t first = 0;
  std::int64_t left = -1;  // points still to run after saturation; -1 = not saturated yet
  if (restart) {
    first = static_cast<std::size_t>(restart->point);
    left = restart->left_after_saturation;
  }
  int code = kExitOk;
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
  if (comm.is_root() && !o.quiet && !o.output.empty())
    std::printf("results    %s\n", o.output.c_str());
  return code;
}

}  // namespace wormnet::cli
