// `wormnet sweep`: a list or range of offered loads in one invocation, one file, stopping
// shortly after saturation.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "batch_control.hpp"
#include "commands.hpp"
#include "simulation_driver.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/engine/simulation.hpp"

namespace wormnet::cli {

namespace {

struct SweepOptions {
  SimOptions sim;
  BatchOptions batch;
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
  if (!o.range.empty() && !o.loads.empty()) {
    throw InputError("--load-range", o.range, "give either --loads or --load-range, not both");
  }
  SimulationRequest request;
  request.command = "sweep";
  request.points = o.range.empty() ? o.loads : expand_range(o.range);
  if (request.points.empty()) throw InputError("--loads", "(none)", "give --loads or --load-range");
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
  add_sim_options(*app, opts->sim);
  add_batch_options(*app, opts->batch);
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
  refuse_negative_unsigned(*app);
  return {app, [opts] { return run_sweep(*opts); }};
}

}  // namespace wormnet::cli
