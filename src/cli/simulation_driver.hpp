// What `wormnet run` and `wormnet sweep` have in common: build the network, open (or reopen)
// the results file, simulate the load points in order with batch-job control (checkpoints,
// signals, wall time, restart), report, and choose the exit code. A run is a one-point sweep.
#pragma once

#include <string>
#include <vector>

#include "batch_control.hpp"
#include "sim_options.hpp"

namespace wormnet::cli {

struct SimulationRequest {
  std::string command;         ///< "run" or "sweep"
  std::vector<double> points;  ///< offered loads (fractions of (N-1)/pi when relative)
  bool relative = false;
  int after_saturation = -1;  ///< points to run after the first saturated one (-1: all)
  std::string extra_toml;     ///< command-specific configuration keys (sweep's)
};

/// Runs the request; returns the exit code (0, 4 deadlock, 5 interrupted).
int run_simulation(SimOptions& o, const BatchOptions& batch, const SimulationRequest& request);

}  // namespace wormnet::cli
