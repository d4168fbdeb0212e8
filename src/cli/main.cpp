// wormnet: parse -> validate -> build -> run -> report. Each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "build_version.hpp"
#include "commands.hpp"
#include "config_file.hpp"
#include "option_rules.hpp"
#include "stop_signals.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/driver/run_session.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

// Exit codes shared by every subcommand (README, "Exit codes"); run, sweep and verify add
// their own (1 cycle found, 4 deadlock, 5 interrupted, 7 a workload left unfinished).
constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 3;
constexpr int kExitOutputFailed = 6;

/// Code points that print as nothing, or as blank, or move the text: shown as <U+XXXX>
/// so that a user sees them (a UTF-8 byte-order mark at the start of a key, say).
bool invisible(char32_t c) {
  return (c >= 0x80 && c <= 0xA0) || c == 0xAD || (c >= 0x600 && c <= 0x605) || c == 0x61C ||
         c == 0x6DD || c == 0x70F || c == 0x1680 || c == 0x180E || (c >= 0x2000 && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x206F) || c == 0x3000 ||
         (c >= 0xD800 && c <= 0xF8FF) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) ||
         c == 0xFFFE || c == 0xFFFF || c > 0x10FFFF;
}

/// `text` as one printable line: control characters become blanks (CLI11 messages may carry
/// newlines, or an enum streamed as a raw byte), invisible code points become <U+XXXX> and
/// bytes that are not UTF-8 become \xNN. Printable UTF-8 (a file name with accents) stays.
std::string printable(const std::string& text) {
  std::string out;
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      out += (b < 0x20 || b == 0x7F) ? ' ' : static_cast<char>(b);
      ++i;
      continue;
    }
    const int len = b >= 0xF0 && b < 0xF8 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
    char32_t c = len == 4 ? b & 0x07U : len == 3 ? b & 0x0FU : b & 0x1FU;
    bool valid = len > 0 && i + static_cast<std::size_t>(len) <= text.size();
    for (int k = 1; valid && k < len; ++k) {
      const auto cont = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      valid = (cont & 0xC0U) == 0x80U;
      c = (c << 6) | (cont & 0x3FU);
    }
    // Overlong forms are not UTF-8 either.
    if (valid && ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000))) valid = false;
    if (!valid) {
      std::snprintf(buf, sizeof buf, "\\x%02X", b);
      out += buf;
      ++i;
    } else if (invisible(c)) {
      std::snprintf(buf, sizeof buf, "<U+%04X>", static_cast<unsigned>(c));
      out += buf;
      i += static_cast<std::size_t>(len);
    } else {
      out.append(text, i, static_cast<std::size_t>(len));
      i += static_cast<std::size_t>(len);
    }
  }
  return out;
}

/// Prints exactly one error line (see printable()).
void print_error(const std::string& text, const std::string& hint = "", bool speak = true) {
  if (!speak) return;
  std::fprintf(stderr, "wormnet: error: %s%s\n", printable(text).c_str(), hint.c_str());
}

/// CLI11's "--measure: At Most 1 required but received 2" as "--measure given 2 times; give
/// it once"; "" for other messages.
std::string given_twice(const std::string& what) {
  const std::string key = ": At Most 1 required but received ";
  const auto at = what.find(key);
  if (at == std::string::npos || what.empty() || what[0] != '-') return "";
  return what.substr(0, at) + " given " + what.substr(at + key.size()) +
         " times: give it once (or the last value would silently win)";
}

/// CLI11's "--a excludes --b" worded with the reason the two conflict.
std::string excludes_error(const std::string& what) {
  const std::string key = " excludes ";
  const auto at = what.find(key);
  if (at == std::string::npos) return what;
  const std::string a = what.substr(0, at);
  const std::string b = what.substr(at + key.size());
  const std::string why = wormnet::cli::conflict_reason(a, b);
  return a + " and " + b + " exclude each other" + (why.empty() ? "" : ": " + why) +
         "; give one of them";
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

/// A stop signal ended the reading of an input before the run was set up: one line, exit 5
/// (README: "a signal during setup"); nothing was written.
int interrupted_before_setup(bool speak) {
  if (speak) {
    std::fprintf(stderr,
                 "wormnet: interrupted by a signal during setup, while reading the inputs: "
                 "nothing was written (run the command again)\n");
  }
  return wormnet::kExitInterrupted;
}

/// `code`, or kExitOutputFailed when what the command printed could not all be written (a
/// full disk behind `> file`, a closed stdout): a report that silently lost its lines would
/// pass for a whole one. The streams are flushed here, where a failure can still be told.
int with_stdout_written(int code, bool speak) {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && std::cout.good() && std::ferror(stdout) == 0) return code;
  if (speak) {
    std::fprintf(stderr, "wormnet: error: cannot write the standard output%s%s\n",
                 error != 0 ? ": " : "", error != 0 ? std::strerror(error) : "");
  }
  return code == 0 ? kExitOutputFailed : code;
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
  commands.push_back(wormnet::cli::add_status_command(app));
  for (auto& c : commands) wormnet::cli::apply_option_rules(*c.app);

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

  // From here a stop signal ends a simulation command cleanly, its setup and the reading of
  // its inputs included (exit code 5): the handlers only set a flag, which the readers of
  // --config and --trace look at between reads and the setup at its end.
  if (given == "run" || given == "sweep") wormnet::cli::install_stop_signals();

  std::vector<std::string> args(argv, argv + argc);
  try {
    for (const auto& c : commands) {
      if (c.app->get_name() != given) continue;
      if (given == "run" || given == "sweep") {
        args = wormnet::cli::expand_config(args, *c.app, world, wormnet::cli::stop_signalled);
      }
      wormnet::cli::refuse_empty_list_items(*c.app, {args.begin() + 2, args.end()});
    }
  } catch (const wormnet::InputError& e) {
    print_error(e.what(), "", speak);
    return kExitBadInput;
  } catch (const wormnet::Interrupted&) {
    return interrupted_before_setup(speak);
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
    } else if (const std::string twice = given_twice(e.what()); !twice.empty()) {
      print_error(twice, hint, speak);
    } else if (dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr) {
      print_error(excludes_error(e.what()), "", speak);
    } else if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr) {
      // CLI11's "--load: 'inf': why" in the form of every other message: --load 'inf': why
      std::string text = e.what();
      if (text.rfind(": ", 0) == 0) text.erase(0, 2);  // a hidden option: its rule named it
      if (const auto colon = text.find(": '"); colon != std::string::npos && text[0] == '-') {
        text.erase(colon, 1);
      }
      print_error(text, hint, speak);
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
      if (c.app->parsed()) return with_stdout_written(c.run(), speak);
    }
  } catch (const wormnet::InputError& e) {
    print_error(e.what(), "", speak);
    return kExitBadInput;
  } catch (const wormnet::Interrupted&) {
    // Every rank stopped reading alike (the readers' callers agree first), before any output.
    return interrupted_before_setup(speak);
  } catch (const wormnet::OutputError& e) {
    // The file system refused an output (every rank agreed: see io::guarded_write); the
    // outputs' locks were released on the way here. HDF5 1.10 cannot shut down after a
    // write that failed inside its metadata cache (the cache is left mid-flush and its
    // shutdown crashes on it): end the process here, before MPI_Finalize runs HDF5's.
    print_error(e.what(), "", speak);
    std::fflush(stdout);
    std::fflush(stderr);
    if (world.size() > 1) world.abort(kExitOutputFailed);
    std::_Exit(kExitOutputFailed);
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
    std::fprintf(stderr, "wormnet: internal error on rank %d: %s\n", world.rank(),
                 printable(e.what()).c_str());
    if (world.size() > 1) world.abort(kExitInternal);
    return kExitInternal;
  }
  return kExitBadInput;
}
