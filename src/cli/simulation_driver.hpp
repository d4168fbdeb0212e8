// What `wormnet run` and `wormnet sweep` have in common: from their options, the session of
// driver/run_session.hpp (restart, outputs, network, workload, results file, the load points
// in order with batch-job control, the exit code) and its printing. A run is a one-point
// sweep.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "batch_options.hpp"
#include "sim_options.hpp"

namespace wormnet::cli {

struct SimulationRequest {
  std::string command;         ///< "run" or "sweep"
  std::vector<double> points;  ///< offered loads (fractions of (N-1)/pi when relative)
  bool relative = false;
  bool range = false;         ///< sweep: the points came from --load-range (for messages)
  int after_saturation = -1;  ///< points to run after the first saturated one (-1: all)
  std::string extra_toml;     ///< command-specific configuration keys (sweep's)
};

/// Runs the request; returns the exit code (0, 4 deadlock, 5 interrupted, 7 a workload left
/// unfinished by the drain limit). Bad input is an
/// InputError (exit code 2) and a failed write an OutputError (exit code 6), thrown before
/// anything existing is replaced; a results file already being written then keeps its
/// partial name with status "failed".
/// `batch_text`: the batch options' text, parsed into o.config.batch (finish_batch_options()).
int run_simulation(SimOptions& o, const BatchOptionText& batch_text,
                   const SimulationRequest& request);

}  // namespace wormnet::cli
