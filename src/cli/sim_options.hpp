// Command-line (and --config TOML) options of the simulation commands, bound straight into
// SimConfig fields; strings become enums here, at the boundary.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "wormnet/config/sim_config.hpp"

namespace wormnet::cli {

struct SimOptions {
  SimConfig config;
  std::string output;  ///< HDF5 file (-o); empty = no file
  int length = 0;      ///< --length N sets min and max
  std::string partition = "geometric";
  bool quiet = false;
  bool length_given = false;         ///< --length was given (0 is then refused)
  bool load_fraction_given = false;  ///< --load-fraction was given (0 is then refused)
  /// --preset: a named set of defaults applied to the options not given (command line or
  /// --config); "booksim" = BookSim2's timing and traffic conventions (docs/fidelity.md).
  std::string preset;
  /// Options a preset sets, marked when given so that the preset leaves them alone.
  struct Given {
    bool credit_latency = false;
    bool injection_latency = false;
    bool ejection_latency = false;
    bool self_traffic = false;
    bool process = false;
    bool ring_tie = false;
    bool preset = false;  ///< --preset itself (an empty name is refused, not ignored)
  } given;
};

/// Declares the network, traffic and measurement options on `app`.
void add_sim_options(CLI::App& app, SimOptions& o);

/// Applies o.preset to the options it sets that were not given; InputError for an unknown
/// preset. Called by finish_sim_options().
void apply_preset(SimOptions& o);

/// Applies derived settings after parsing (--length) and checks value rules.
void finish_sim_options(SimOptions& o);

/// The effective configuration as TOML, one key per option (read back by --config).
std::string to_toml(const SimOptions& o);

/// Names used in summaries and output attributes.
const char* to_string(TrafficPattern p);
const char* to_string(InjectionProcess p);
const char* to_string(SelectionPolicy p);
const char* to_string(FlowControl f);
const char* to_string(VcBandwidth b);
const char* to_string(RingTie t);

}  // namespace wormnet::cli
