// --config FILE for the simulation commands: a TOML file of options (flat `key = value`
// lines, keys = long option names, an optional [run] / [sweep] section header). Rank 0 reads
// the file and broadcasts it; every rank turns it into command-line tokens that come before
// the real command line, so an option given on the command line wins over the file.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "wormnet/core/text_input.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

/// Tokens for `sub` from the TOML `text` (read from `path`): unknown keys, keys given twice,
/// values of the wrong shape and non-TOML lines are InputErrors naming --config, the path and
/// the line. Keys that `explicit_args` also sets are left out (the command line wins).
std::vector<std::string> config_to_args(const std::string& text, const std::string& path,
                                        const CLI::App& sub,
                                        const std::vector<std::string>& explicit_args);

/// The command line with `--config FILE` expanded for subcommand `sub` (argv[1]); rank 0
/// reads the file (a regular file of at most 1 MiB: text_input.hpp) and broadcasts its text.
/// Unchanged when there is no --config. Interrupted on every rank when `stop` told rank 0 to
/// stop reading.
std::vector<std::string> expand_config(const std::vector<std::string>& args, const CLI::App& sub,
                                       const Communicator& comm, const StopCheck& stop = {});

}  // namespace wormnet::cli
