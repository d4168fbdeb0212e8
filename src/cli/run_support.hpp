// Pieces shared by `wormnet run` and `wormnet sweep`: building the network from the options,
// the throughput references, and the human-readable summary.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim_options.hpp"
#include "workload_options.hpp"
#include "wormnet/driver/sim_network.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/io/result_writer.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

/// The network a simulation command runs on (built by the driver layer) and its throughput
/// references.
struct SimSetup : SimNetwork {
  ThroughputBounds bounds;
  bool bounds_from_loads = false;  ///< saturation_rate came from the load analysis
  /// gamma_c per channel id from the load analysis or the table (empty when not computed):
  /// routes over all ordered pairs, an adaptive routing's pair split evenly over its choices.
  std::vector<double> channel_load;
  /// What the load analysis did (plan, time on the ranks) or why it was skipped: one line.
  std::string analysis;
  double setup_seconds = 0.0;  ///< building all of this, the load analysis included
  /// The closed-loop workload (--workload), built with the network: its messages give the
  /// plan's packet lengths.
  std::optional<Workload> workload;
  /// The traffic pattern's own ideal (verify/pattern_loads.hpp), for a pattern that is not
  /// uniform (transpose, tornado, hotspot, ...) whose analysis ran; its gamma per channel in
  /// pattern_channel_load (describe_run() points the record there: the setup may be moved).
  /// `pattern_analysis`: one line, what was done or why it was skipped (empty for uniform traffic
  /// and workloads).
  std::optional<io::PatternIdealRecord> pattern_ideal;
  std::vector<double> pattern_channel_load;
  std::string pattern_analysis;
  /// What `wormnet verify` would say of the routing on this network, one line: deadlock-free,
  /// a warning with the cycle's length when its channel dependencies are cyclic (the run may
  /// deadlock), or why the check was skipped (kReportLoadStates).
  std::string deadlock_check;
};

/// Builds the network (build_network: the configuration is checked against it on the way),
/// the workload when there is one (its messages' lengths go into the run plan), and computes
/// the throughput references (the load analysis is split over the ranks: each
/// explores its share of the destinations, rank_analysis.hpp).
/// `need_saturation`: an option besides --load-fraction needs (N-1)/pi (sweep --relative).
/// Interrupted on every rank when a stop signal reached any while the workload was built
/// (its trace read: the reader looks at the signal's flag between reads).
SimSetup build_setup(const SimOptions& o, const Communicator& comm, bool need_saturation = false);

/// Offered load in flits/node/cycle: --load, or --load-fraction x (N-1)/pi.
double offered_rate(const SimOptions& o, const SimSetup& s, double fraction_or_load,
                    bool is_fraction);

/// What the results file records about the run (its network, routing, configuration).
io::RunDescription describe_run(const SimOptions& o, const SimSetup& setup,
                                const Communicator& comm, const std::string& command,
                                const std::string& config_toml);

/// One block of text describing a finished load point; of a closed-loop `workload` (its
/// traffic is what it delivered, its packets are its messages) when set.
std::string format_summary(const RunSummary& s, const SimSetup& setup, bool workload = false);

/// The partition line: method, edge cut, part sizes, lookahead.
std::string describe_partition(const SimSetup& setup);

/// The setup line: how long building took, and what the load analysis did.
std::string describe_setup(const SimSetup& setup, const Communicator& comm);

/// The configuration line printed before a run.
std::string describe_config(const SimOptions& o, const SimSetup& setup);

}  // namespace wormnet::cli
