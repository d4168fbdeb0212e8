// Command-line (and --config TOML) options of the simulation commands, bound straight into
// SimConfig fields; strings become enums here, at the boundary.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "workload_options.hpp"
#include "wormnet/config/sim_config.hpp"

namespace wormnet::cli {

struct SimOptions {
  SimConfig config;
  std::string output;       ///< HDF5 file (-o); empty = no file
  std::string config_file;  ///< --config (an input: no output may replace it)
  int length = 0;           ///< --length N sets min and max
  bool quiet = false;
  /// --preset: a named set of defaults applied to the options not given (command line or
  /// --config); "booksim" = BookSim2's timing and traffic conventions (docs/fidelity.md).
  std::string preset;
  /// --load and --load-fraction exist (run); a sweep has its own list of loads instead.
  bool single_load = true;
  /// Options given on the command line or in --config (given_options()), filled before
  /// finish_sim_options(): a given value is checked even when it equals the default, and a
  /// preset leaves it alone.
  std::set<std::string> given;
  /// Closed-loop workload (run only; inactive unless --workload is given).
  WorkloadOptions workload;
  /// Test-only, hidden from --help (docs/differential-testing.md): --walk-block-routers N
  /// makes every rank of more than N routers walk them in blocks of N in lagging layers (the
  /// skewed walk of rank_model.hpp, otherwise reserved for ranks of 262,144 routers or more),
  /// --walk-skew S sets the cycles between its catch-ups. Kept as text and checked by
  /// check_walk_options() (CLI11 names no hidden option in its own errors); empty: not given,
  /// the default walk. They never change a result, so the effective configuration leaves
  /// them out.
  std::string walk_block_routers;
  std::string walk_skew;
};

/// Declares the network, traffic and measurement options on `app`; --load and
/// --load-fraction only when `single_load` (run).
void add_sim_options(CLI::App& app, SimOptions& o, bool single_load);

/// Applies o.preset to the options it sets that were not given; InputError for an unknown
/// preset. Called by finish_sim_options().
void apply_preset(SimOptions& o);

/// Applies derived settings after parsing (--length) and checks value rules.
void finish_sim_options(SimOptions& o);

/// The test-only walk options as numbers, 0 where not given: (routers per block, skew).
/// InputError naming the option for a value out of range. Called by finish_sim_options().
std::pair<std::uint32_t, std::uint32_t> walk_options(const SimOptions& o);

/// The effective configuration as TOML, one key per option (read back by --config).
std::string to_toml(const SimOptions& o);

/// The value of a traffic or run-length option as it stands in `c` (what an error about it
/// names), "" for an option it does not know.
std::string traffic_option_text(const SimConfig& c, std::string_view option);

}  // namespace wormnet::cli
