// `wormnet sweep`: a list or range of offered loads in one invocation, one file, stopping
// shortly after saturation.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "run_support.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/engine/simulation.hpp"

namespace wormnet::cli {

namespace {

struct SweepOptions {
  SimOptions sim;
  std::vector<double> loads;
  std::string range;         ///< start:stop:step
  bool relative = false;     ///< loads are fractions of (N-1)/pi
  int after_saturation = 1;  ///< points run after the first saturated one
};

std::vector<double> expand_range(const std::string& text) {
  const auto c1 = text.find(':');
  const auto c2 = c1 == std::string::npos ? std::string::npos : text.find(':', c1 + 1);
  const char* rule = "expected start:stop:step with 0 < start <= stop and step > 0";
  if (c2 == std::string::npos) throw InputError("--load-range", text, rule);
  double v[3];
  const std::string parts[3] = {text.substr(0, c1), text.substr(c1 + 1, c2 - c1 - 1),
                                text.substr(c2 + 1)};
  for (int i = 0; i < 3; ++i) {
    std::size_t used = 0;
    try {
      v[i] = std::stod(parts[i], &used);
    } catch (const std::exception&) {
      throw InputError("--load-range", text, rule);
    }
    if (used != parts[i].size() || !std::isfinite(v[i]))
      throw InputError("--load-range", text, rule);
  }
  if (!(v[0] > 0 && v[1] >= v[0] && v[2] > 0)) throw InputError("--load-range", text, rule);
  std::vector<double> out;
  const auto n = static_cast<int>(std::floor((v[1] - v[0]) / v[2] + 1e-9)) + 1;
  if (n > 10000) throw InputError("--load-range", text, "at most 10000 points");
  for (int i = 0; i < n; ++i) out.push_back(v[0] + i * v[2]);
  return out;
}

int run_sweep(SweepOptions& o) {
  finish_sim_options(o.sim);
  if (!o.range.empty() && !o.loads.empty()) {
    throw InputError("--load-range", o.range, "give either --loads or --load-range, not both");
  }
  std::vector<double> points = o.range.empty() ? o.loads : expand_range(o.range);
  if (points.empty()) throw InputError("--loads", "(none)", "give --loads or --load-range");
  for (double p : points) {
    if (!(p > 0.0 && p <= 1.0)) {
      throw InputError(o.range.empty() ? "--loads" : "--load-range", std::to_string(p),
                       "every load must be in (0, 1]");
    }
  }
  if (o.after_saturation < 0) {
    throw InputError("--after-saturation", std::to_string(o.after_saturation), "must be >= 0");
  }
  const Communicator comm = Communicator::world();
  SimSetup setup = build_setup(o.sim, comm);
  if (o.relative && setup.bounds.saturation_rate <= 0) {
    throw InputError("--relative", "set", "needs the load analysis (network too large)");
  }
  const int vcs = effective_vcs(o.sim.config, *setup.routing);
  if (comm.is_root() && !o.sim.quiet) {
    std::printf("wormnet sweep: %s", describe_config(o.sim, setup, vcs).c_str());
    std::printf("%s", describe_partition(o.sim, setup).c_str());
  }
  std::unique_ptr<io::ResultWriter> writer =
      open_results(o.sim, setup, comm, "sweep", to_toml(o.sim));
  Simulation sim(o.sim.config, *setup.topology, *setup.routing, setup.partition, comm,
                 setup.bounds);
  ResultSink no_file;
  ResultSink& sink = writer ? static_cast<ResultSink&>(*writer) : no_file;
  int left_after_saturation = -1;
  bool deadlock = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double rate = offered_rate(o.sim, setup, points[i], o.relative);
    const RunSummary s = sim.run(rate, sink, static_cast<int>(i));
    if (comm.is_root() && !o.sim.quiet) {
      std::printf("point %zu: offered %.5f accepted %.5f latency %.2f cycles (%.3f us)%s\n", i,
                  s.offered_load, s.accepted, s.latency.mean, s.latency.mean / s.flit_rate,
                  s.deadlock ? "  DEADLOCK" : (s.saturated ? "  saturated" : ""));
    }
    if (s.deadlock) {
      deadlock = true;
      break;
    }
    if (left_after_saturation < 0 && s.saturated)
      left_after_saturation = o.after_saturation;
    else if (left_after_saturation > 0)
      --left_after_saturation;
    if (left_after_saturation == 0) break;
  }
  if (writer) writer->finish(deadlock ? io::RunStatus::kDeadlock : io::RunStatus::kComplete);
  if (comm.is_root() && !o.sim.quiet && !o.sim.output.empty()) {
    std::printf("results    %s\n", o.sim.output.c_str());
  }
  return deadlock ? kExitDeadlock : kExitOk;
}

}  // namespace

Command add_sweep_command(CLI::App& root) {
  auto opts = std::make_shared<SweepOptions>();
  CLI::App* app = root.add_subcommand("sweep", "Simulate a list or range of offered loads");
  add_sim_options(*app, opts->sim);
  app->add_option("--loads", opts->loads, "offered loads, comma separated")
      ->delimiter(',')
      ->group("Sweep");
  app->add_option("--load-range", opts->range, "start:stop:step of offered loads")->group("Sweep");
  app->add_flag("--relative", opts->relative,
                "loads are fractions of the routing's saturation rate (N-1)/pi")
      ->group("Sweep");
  app->add_option("--after-saturation", opts->after_saturation,
                  "points to run after the first saturated one")
      ->capture_default_str()
      ->group("Sweep");
  return {app, [opts] { return run_sweep(*opts); }};
}

}  // namespace wormnet::cli
