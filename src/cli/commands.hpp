// The `wormnet` subcommands. Each add_*_command() declares its options on the root app and
// returns the action to run once parsing succeeded. Actions return the process exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "wormnet/routing/routing_factory.hpp"

namespace wormnet::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Declares --flow-control credit|bubble (any case) on `app`, stored into `flow`. A string
/// option matched against the names (and replaced by the name matched) rather than a
/// CheckedTransformer into the enum, whose error message streams the enum's uint8_t as a raw
/// byte; a bad value reads "--flow-control: X not in {credit,bubble}".
inline CLI::Option* add_flow_control_option(CLI::App* app, FlowControl& flow,
                                            const std::string& help) {
  return app
      ->add_option_function<std::string>(
          "--flow-control",
          [&flow](const std::string& name) {
            flow = name == "bubble" ? FlowControl::kBubble : FlowControl::kCredit;
          },
          help)
      ->transform(CLI::IsMember({"credit", "bubble"}, CLI::ignore_case));
}

Command add_info_command(CLI::App& root);
Command add_verify_command(CLI::App& root);
Command add_run_command(CLI::App& root);

}  // namespace wormnet::cli
