// The `wormnet` subcommands. Each add_*_command() declares its options on the root app and
// returns the action to run once parsing succeeded. Actions return the process exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace wormnet::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_info_command(CLI::App& root);
Command add_verify_command(CLI::App& root);
Command add_run_command(CLI::App& root);
Command add_sweep_command(CLI::App& root);
Command add_tables_command(CLI::App& root);

}  // namespace wormnet::cli
