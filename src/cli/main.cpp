// wormnet: parse -> validate -> build -> run -> report. Each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "build_version.hpp"
#include "commands.hpp"
#include "config_file.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

constexpr int kExitBadInput = 2;

/// Prints exactly one error line. CLI11 messages may carry newlines or control bytes (an
/// enum streamed as a char, say): they are flattened so that stderr stays one line.
void print_error(const std::string& text, const std::string& hint = "", bool speak = true) {
  if (!speak) return;
  std::string line;
  for (const char ch : text) line += static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
  std::fprintf(stderr, "wormnet: error: %s%s\n", line.c_str(), hint.c_str());
}

/// CLI11's "Could not convert: --vcs = abc" as "--vcs 'abc': expected an integer" (the
/// option, the value and what is allowed); empty when `what` is another error.
std::string conversion_error(const CLI::App& app, const std::string& sub, const std::string& what) {
  const std::string prefix = "Could not convert: ";
  const auto eq = what.find(" = ");
  if (what.rfind(prefix, 0) != 0 || eq == std::string::npos || sub.empty()) return "";
  const std::string name = what.substr(prefix.size(), eq - prefix.size());
  const std::string value = what.substr(eq + 3);
  const CLI::Option* opt = nullptr;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_name() == sub) opt = command->get_option_no_throw(name);
  }
  const std::string type = opt != nullptr ? opt->get_type_name() : "";
  const std::string allowed = type == "UINT"  ? "expected an integer >= 0 that the option can hold"
                              : type == "INT" ? "expected an integer that the option can hold"
                              : type == "FLOAT" ? "expected a number"
                                                : "expected a value of type " + type;
  return name + " '" + value + "': " + allowed;
}

}  // namespace

int main(int argc, char** argv) {
  wormnet::MpiSession mpi(&argc, &argv);
  const wormnet::Communicator world = wormnet::Communicator::world();
  // Every rank parses the same command line and reaches the same verdict; only rank 0 speaks.
  const bool speak = world.is_root();
  CLI::App app{"wormnet: flit-level simulator of wormhole-switched interconnection networks"};
  app.set_version_flag("--version", wormnet::build_version());
  app.require_subcommand(1);
  std::vector<wormnet::cli::Command> commands;
  commands.push_back(wormnet::cli::add_info_command(app));
  commands.push_back(wormnet::cli::add_verify_command(app));
  commands.push_back(wormnet::cli::add_run_command(app));
  commands.push_back(wormnet::cli::add_sweep_command(app));
  commands.push_back(wormnet::cli::add_tables_command(app));
  commands.push_back(wormnet::cli::add_tables_study_command(app));

  // The root takes no positional argument, so a first word that is not an option must name
  // a subcommand; CLI11 alone would only say that a subcommand is required.
  std::string names;
  std::string given;
  for (const auto& c : commands) {
    names += (names.empty() ? "" : ", ") + c.app->get_name();
    if (argc > 1 && c.app->get_name() == argv[1]) given = argv[1];
  }
  if (argc > 1 && argv[1][0] != '-' && given.empty()) {
    print_error(std::string("unknown subcommand '") + argv[1] + "' (allowed: " + names + ")", "",
                speak);
    return kExitBadInput;
  }
  const std::string hint =
      " (see 'wormnet " + (given.empty() ? std::string() : given + " ") + "--help')";

  std::vector<std::string> args(argv, argv + argc);
  try {
    for (const auto& c : commands) {
      if (c.app->get_name() == given && (given == "run" || given == "sweep")) {
        args = wormnet::cli::expand_config(args, *c.app, world);
      }
    }
  } catch (const wormnet::InputError& e) {
    print_error(e.what(), "", speak);
    return kExitBadInput;
  }

  try {
    // CLI11 takes the arguments in reverse order, program name excluded.
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Without a subcommand CLI11 reports the missing subcommand before an unknown option:
    // name the option instead, it is the actual mistake.
    const auto extras = app.remaining();
    const auto sub_extras = app.remaining(true);
    if (given.empty() && !extras.empty()) {
      print_error("unknown option '" + extras.front() + "'", hint, speak);
    } else if (const std::string conversion = conversion_error(app, given, e.what());
               !conversion.empty()) {
      print_error(conversion, "", speak);
    } else if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && !sub_extras.empty()) {
      // CLI11 lists every leftover word, in reverse order: name the first one instead.
      const std::string& first = sub_extras.front();
      print_error(first.rfind('-', 0) == 0
                      ? "unknown option '" + first + "' of 'wormnet " + given + "'"
                      : "unexpected argument '" + first + "'",
                  hint, speak);
    } else {
      print_error(e.what(), hint, speak);
    }
    return kExitBadInput;
  }

  try {
    for (auto& c : commands) {
      if (c.app->parsed()) return c.run();
    }
  } catch (const wormnet::InputError& e) {
    print_error(e.what(), "", speak);
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    // Too large for this machine's memory (the sizes checked up front are only the network's
    // tables). Possibly on this rank alone: end the whole job rather than leave the others
    // waiting in a collective.
    std::fprintf(stderr,
                 "wormnet: error: out of memory on rank %d: the network or the run is too large "
                 "for this machine (fewer nodes, or more ranks over more machines)\n",
                 world.rank());
    if (world.size() > 1) world.abort(kExitBadInput);
    return kExitBadInput;
  } catch (const std::exception& e) {
    // A broken invariant may be local to one rank: say which, and end the whole job rather
    // than leave the other ranks waiting in a collective.
    std::fprintf(stderr, "wormnet: internal error on rank %d: %s\n", world.rank(), e.what());
    if (world.size() > 1) world.abort(3);
    return 3;
  }
  return kExitBadInput;
}
