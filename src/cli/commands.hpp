// The `wormnet` subcommands. Each add_*_command() declares its options on the root app and
// returns the action to run once parsing succeeded. Actions return the process exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>

#include "choice_option.hpp"
#include "wormnet/routing/routing_factory.hpp"

namespace wormnet::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Declares --flow-control credit|bubble (any case) on `app`, stored into `flow`.
inline CLI::Option* add_flow_control_option(CLI::App* app, FlowControl& flow,
                                            const std::string& help) {
  return app->add_option("--flow-control", flow, help)
      ->transform(choice_of<FlowControl>())
      ->default_str(enum_name(FlowControl::kCredit));
}

/// Declares --ring-tie plus|random|alternating on `app`, stored into `tie`.
inline CLI::Option* add_ring_tie_option(CLI::App* app, RingTie& tie) {
  return app
      ->add_option("--ring-tie", tie,
                   "direction of a half-ring tie in the torus dimension-order routings: plus, "
                   "or drawn per packet: random (hash of seed, source, sequence) or "
                   "alternating (by sequence number)")
      ->transform(choice_of<RingTie>())
      ->default_str(enum_name(RingTie::kPlus));
}

Command add_info_command(CLI::App& root);
Command add_verify_command(CLI::App& root);
Command add_run_command(CLI::App& root);
Command add_sweep_command(CLI::App& root);
Command add_tables_command(CLI::App& root);
Command add_tables_study_command(CLI::App& root);
Command add_status_command(CLI::App& root);

}  // namespace wormnet::cli
