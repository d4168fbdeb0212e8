// The fault options of every command that builds a network (info, verify, tables, run, sweep):
// --faults FILE, --fail-links K, --fail-nodes K, --fault-seed S, --allow-disconnected
// (docs/faults.md). Declared once, checked once, written back into the effective configuration.
#pragma once

#include <CLI/CLI.hpp>
#include <set>
#include <string>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet::cli {

/// Declares the fault options on `app` (group "Faults"), stored into `faults`.
void add_fault_options(CLI::App& app, FaultConfig& faults);

/// Refuses (InputError) an option that only faults read given without any: --fault-seed
/// without --fail-links or --fail-nodes, --allow-disconnected without any fault option.
void check_fault_options(const FaultConfig& faults, const std::set<std::string>& given);

/// The fault option a refusal names: the file, or the first random count given.
struct FaultOption {
  std::string option;
  std::string value;
};
FaultOption fault_option(const FaultConfig& faults);

/// The fault options as TOML lines (keys = option names), "" when none is asked for.
std::string fault_toml(const FaultConfig& faults);

/// The "faults" line commands print: what failed and what works, or "" without faults.
std::string fault_line(const Topology& topo, const FaultSet& set, const FaultConfig& faults);

}  // namespace wormnet::cli
