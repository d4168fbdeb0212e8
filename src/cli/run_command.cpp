// `wormnet run`: simulates one load point, cycle by cycle and flit by flit.
#include <memory>

#include "batch_options.hpp"
#include "commands.hpp"
#include "option_rules.hpp"
#include "simulation_driver.hpp"

namespace wormnet::cli {

namespace {

struct RunOptions {
  SimOptions sim;
  BatchOptionText batch;
};

}  // namespace

Command add_run_command(CLI::App& root) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* app = root.add_subcommand("run", "Simulate one load point");
  add_sim_options(*app, opts->sim, true);
  add_workload_options(*app, opts->sim.workload, opts->sim.config.workload);
  add_batch_options(*app, opts->sim.config.batch, opts->batch);
  return {app, [opts, app] {
            opts->sim.given = given_options(*app);
            SimulationRequest request;
            request.command = "run";
            const TrafficConfig& t = opts->sim.config.traffic;
            request.relative = t.load_fraction > 0.0;
            request.points = {request.relative ? t.load_fraction : t.load};
            return run_simulation(opts->sim, opts->batch, request);
          }};
}

}  // namespace wormnet::cli
