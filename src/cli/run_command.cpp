// `wormnet run`: simulates one load point, cycle by cycle and flit by flit.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "run_support.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/engine/simulation.hpp"

namespace wormnet::cli {

namespace {

int run_one(SimOptions& o) {
  finish_sim_options(o);
  const Communicator comm = Communicator::world();
  SimSetup setup = build_setup(o, comm);
  const bool fraction = o.config.traffic.load_fraction > 0.0;
  const double rate = offered_rate(
      o, setup, fraction ? o.config.traffic.load_fraction : o.config.traffic.load, fraction);
  const int vcs = effective_vcs(o.config, *setup.routing);
  if (comm.is_root() && !o.quiet) {
    std::printf("wormnet run: %s", describe_config(o, setup, vcs).c_str());
    std::printf("%s", describe_partition(o, setup).c_str());
  }
  std::unique_ptr<io::ResultWriter> writer = open_results(o, setup, comm, "run", to_toml(o));
  Simulation sim(o.config, *setup.topology, *setup.routing, setup.partition, comm, setup.bounds);
  ResultSink no_file;
  const RunSummary s = sim.run(rate, writer ? static_cast<ResultSink&>(*writer) : no_file);
  if (writer) writer->finish(s.deadlock ? io::RunStatus::kDeadlock : io::RunStatus::kComplete);
  if (comm.is_root() && !o.quiet) {
    std::printf("%s", format_summary(s, setup).c_str());
    if (!o.output.empty()) std::printf("results    %s\n", o.output.c_str());
  }
  return s.deadlock ? kExitDeadlock : kExitOk;
}

}  // namespace

Command add_run_command(CLI::App& root) {
  auto opts = std::make_shared<SimOptions>();
  CLI::App* app = root.add_subcommand("run", "Simulate one load point");
  add_sim_options(*app, *opts);
  return {app, [opts] { return run_one(*opts); }};
}

}  // namespace wormnet::cli
