// `wormnet sweep`: a list or range of offered loads in one invocation, one file, stopping
// shortly after saturation.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "batch_options.hpp"
#include "build_version.hpp"
#include "commands.hpp"
#include "option_rules.hpp"
#include "simulation_driver.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/driver/run_session.hpp"
#include "wormnet/engine/simulation.hpp"

namespace wormnet::cli {

namespace {

struct SweepOptions {
  SimOptions sim;
  BatchOptionText batch;
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
  // The count in floating point first: (stop - start) / step may be far beyond any integer
  // (1e-300:1:1e-300), and converting that to int is undefined (it gave 0 points once).
  constexpr double kMaxPoints = 10000;
  const double steps = std::floor((v[1] - v[0]) / v[2] + 1e-9);
  if (!(steps + 1 <= kMaxPoints)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", steps + 1);
    throw InputError("--load-range", text,
                     std::string(buf) + " points: at most 10000 (a larger step?)");
  }
  std::vector<double> out;
  const auto n = static_cast<int>(steps) + 1;
  for (int i = 0; i < n; ++i) out.push_back(v[0] + i * v[2]);
  return out;
}

int run_sweep(SweepOptions& o) {
  // A checkpoint of another command is named as such before the loads are looked at (a run
  // checkpoint has none: "--loads '(none)'" misled).
  if (const std::string& dir = o.sim.config.batch.restart; !dir.empty()) {
    static_cast<void>(read_restart(Communicator::world(), dir, "sweep", build_version()));
  }
  SimulationRequest request;
  request.command = "sweep";
  request.range = !o.range.empty();
  request.points = o.range.empty() ? o.loads : expand_range(o.range);
  if (request.points.empty()) {
    throw InputError("--loads", "(none)",
                     "a sweep needs its loads: --loads a,b,c or --load-range start:stop:step");
  }
  for (double p : request.points) {
    if (!(p > 0.0 && p <= 1.0)) {
      throw InputError(o.range.empty() ? "--loads" : "--load-range", std::to_string(p),
                       "every load must be in (0, 1]");
    }
  }
  if (o.after_saturation < 0) {
    throw InputError("--after-saturation", std::to_string(o.after_saturation), "must be >= 0");
  }
  request.relative = o.relative;
  request.after_saturation = o.after_saturation;
  // The sweep's own keys, so that a restart checks them too (and --config reads them back).
  std::string toml;
  char buf[64];
  if (!o.range.empty()) {
    toml += "load-range = \"" + o.range + "\"\n";
  } else {
    std::string list;
    for (double p : o.loads) {
      std::snprintf(buf, sizeof buf, "%.17g", p);
      list += (list.empty() ? "" : ", ") + std::string(buf);
    }
    toml += "loads = [" + list + "]\n";
  }
  toml += std::string("relative = ") + (o.relative ? "true" : "false") + "\n";
  toml += "after-saturation = " + std::to_string(o.after_saturation) + "\n";
  request.extra_toml = toml;
  return run_simulation(o.sim, o.batch, request);
}

}  // namespace

Command add_sweep_command(CLI::App& root) {
  auto opts = std::make_shared<SweepOptions>();
  CLI::App* app = root.add_subcommand("sweep", "Simulate a list or range of offered loads");
  add_sim_options(*app, opts->sim, false);
  add_batch_options(*app, opts->sim.config.batch, opts->batch);
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
  return {app, [opts, app] {
            opts->sim.given = given_options(*app);
            return run_sweep(*opts);
          }};
}

}  // namespace wormnet::cli
