// wormnet: parse -> validate -> build -> run -> report. Each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

constexpr int kExitBadInput = 2;

}  // namespace

int main(int argc, char** argv) {
  wormnet::MpiSession mpi(&argc, &argv);
  CLI::App app{"wormnet: flit-level simulator of wormhole-switched interconnection networks"};
  app.set_version_flag("--version", std::string(WORMNET_VERSION) + " (" + WORMNET_GIT_SHA + ")");
  app.require_subcommand(1);
  std::vector<wormnet::cli::Command> commands;
  commands.push_back(wormnet::cli::add_info_command(app));
  commands.push_back(wormnet::cli::add_verify_command(app));
  commands.push_back(wormnet::cli::add_run_command(app));
  commands.push_back(wormnet::cli::add_sweep_command(app));
  commands.push_back(wormnet::cli::add_tables_command(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "wormnet: error: %s (see 'wormnet --help')\n", e.what());
    return kExitBadInput;
  }

  try {
    for (auto& c : commands) {
      if (c.app->parsed()) return c.run();
    }
  } catch (const wormnet::InputError& e) {
    std::fprintf(stderr, "wormnet: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wormnet: internal error: %s\n", e.what());
    return 3;
  }
  return kExitBadInput;
}
