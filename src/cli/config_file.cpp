#include "config_file.hpp"

#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "build_version.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/io/checkpoint_file.hpp"

namespace wormnet::cli {

namespace {

constexpr std::size_t kMaxConfigBytes = 1 << 20;  // a configuration is small text
/// read_bounded()'s error when a stop signal ended the reading (no reason can look so).
constexpr const char* kInterrupted = "\x01interrupted";

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

/// Removes a # comment that is not inside a string.
std::string strip_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == '\\' && quote == '"') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

/// Parses one scalar TOML value (string, number, boolean) into its text.
bool scalar(const std::string& v, std::string& out) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    out.clear();
    for (std::size_t i = 1; i + 1 < v.size(); ++i) {
      char c = v[i];
      if (c == '"') return false;
      if (c == '\\') {
        if (i + 2 >= v.size()) return false;
        const char e = v[++i];
        c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        if (e != 'n' && e != 't' && e != '"' && e != '\\') return false;
      }
      out += c;
    }
    return true;
  }
  if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') {
    out = v.substr(1, v.size() - 2);
    return out.find('\'') == std::string::npos;
  }
  if (v.empty()) return false;
  for (char c : v) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' ||
          c == '_')) {
      return false;
    }
  }
  out = v;
  return true;
}

bool is_flag(const CLI::Option* opt) {
  return opt->get_expected_max() == 0;
}

}  // namespace

std::vector<std::string> config_to_args(const std::string& text, const std::string& path,
                                        const CLI::App& sub,
                                        const std::vector<std::string>& explicit_args) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::istringstream in(text);
  std::string raw;
  int number = 0;
  const auto fail = [&](const std::string& why) {
    throw InputError("--config", path, "line " + std::to_string(number) + ": " + why);
  };
  while (std::getline(in, raw)) {
    ++number;
    for (char c : raw) {
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') {
        fail("not text (control characters)");
      }
    }
    const std::string line = trim(strip_comment(raw));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line != "[" + sub.get_name() + "]") {
        fail("section " + line + " is not [" + sub.get_name() + "]");
      }
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) fail("expected key = value");
    std::string key = trim(line.substr(0, eq));
    const std::string value = trim(line.substr(eq + 1));
    for (char& c : key) c = c == '_' ? '-' : c;
    if (key.empty() ||
        key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
      fail("'" + key + "' is not an option name");
    }
    if (key == "config") fail("a configuration file cannot include another");
    const CLI::Option* opt = sub.get_option_no_throw("--" + key);
    if (opt == nullptr)
      fail("unknown key '" + key + "' (keys are the long options of 'wormnet " + sub.get_name() +
           "')");
    if (!seen.insert(key).second) fail("key '" + key + "' given twice");
    // The command line wins over the file: over the same option, and over one it excludes
    // (--cycles on the command line drops the file's measure).
    const auto given = [&](const CLI::Option* o) {
      bool found = false;
      for (const std::string& a : explicit_args) {
        for (const std::string& l : o->get_lnames())
          found = found || a == "--" + l || a.rfind("--" + l + "=", 0) == 0;
        for (const std::string& sn : o->get_snames()) found = found || a == "-" + sn;
      }
      return found;
    };
    bool on_command_line = given(opt);
    for (const CLI::Option* other : opt->get_excludes()) {
      on_command_line = on_command_line || given(other);
    }
    // The value is read even when the command line overrides it: a broken line is an error
    // whatever wins.
    std::vector<std::string> tokens;
    if (value.size() >= 2 && value.front() == '[' && value.back() == ']') {
      std::string list;
      std::string item;
      const std::string inner = value.substr(1, value.size() - 2);
      std::istringstream items(inner);
      std::string part;
      std::vector<std::string> parts;
      while (std::getline(items, part, ',')) parts.push_back(trim(part));
      // TOML allows one trailing comma; any other empty item is a mistake ("[0.1, , 0.2]").
      if (!parts.empty() && parts.back().empty() && trim(inner) != "") parts.pop_back();
      for (const std::string& p : parts) {
        if (p.empty()) fail("an empty item in the list for '" + key + "'");
        if (!scalar(p, item)) fail("bad list item '" + p + "' for '" + key + "'");
        list += (list.empty() ? "" : ",") + item;
      }
      tokens = {"--" + key, list};
    } else {
      std::string v;
      if (!scalar(value, v)) fail("bad value '" + value + "' for '" + key + "'");
      if (is_flag(opt)) {
        if (v == "true")
          tokens = {"--" + key};
        else if (v != "false")
          fail("'" + key + "' takes true or false, not '" + v + "'");
      } else {
        tokens = {"--" + key, v};
      }
    }
    if (on_command_line) continue;
    for (std::string& t : tokens) out.push_back(std::move(t));
  }
  return out;
}

namespace {

/// The value of `--name VALUE` or `--name=VALUE` at args[i] (advancing i past it), or nullopt.
std::optional<std::string> option_value(const std::vector<std::string>& args, std::size_t& i,
                                        const std::string& name) {
  if (args[i] == name) {
    if (i + 1 >= args.size()) throw InputError(name, "(missing)", "needs a value");
    return args[++i];
  }
  if (args[i].rfind(name + "=", 0) == 0) return args[i].substr(name.size() + 1);
  return std::nullopt;
}

/// Rank 0 reads at most kMaxConfigBytes + 1 bytes of `path` (a configuration is small
/// text; /dev/zero once made wormnet read until memory ran out), from a regular file only (a
/// FIFO without a writer hung in open()). The text, or "" and `error` set (the reason, or
/// kInterrupted when `stop` ended the reading).
std::string read_bounded(const std::string& path, std::string& error, const StopCheck& stop) {
  std::string text;
  try {
    text = read_text_file(path, "--config", kMaxConfigBytes, stop);
  } catch (const InputError& e) {
    error = e.allowed();
    return "";
  } catch (const Interrupted&) {
    error = kInterrupted;
    return "";
  }
  if (text.size() > kMaxConfigBytes) error = "larger than 1 MiB: not a configuration";
  // A UTF-8 byte-order mark (written by some editors) is not part of the first key.
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  return text;
}

}  // namespace

std::vector<std::string> expand_config(const std::vector<std::string>& args, const CLI::App& sub,
                                       const Communicator& comm, const StopCheck& stop) {
  std::string path;
  std::string restart;
  std::vector<std::string> rest;
  bool found = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i < 2) {
      rest.push_back(args[i]);
      continue;
    }
    if (const auto value = option_value(args, i, "--config")) {
      if (found) {
        throw InputError("--config", *value,
                         "given twice (also '" + path + "'): give one configuration file");
      }
      path = *value;
      found = true;
      continue;
    }
    const std::size_t at = i;
    if (const auto value = option_value(args, i, "--restart")) restart = *value;
    for (std::size_t k = at; k <= i; ++k) rest.push_back(args[k]);
  }
  std::string text;
  std::string error;
  if (!found) {
    if (restart.empty()) return args;
    // `--restart DIR` alone continues with the configuration saved in the checkpoint, which
    // must be one of this command (a run checkpoint's keys are not all a sweep's).
    const io::RunProgress p =
        io::read_checkpoint_progress(comm, restart, "--restart", build_version());
    if (p.command != sub.get_name()) {
      throw InputError(
          "--restart", restart,
          "the checkpoint is of 'wormnet " + p.command + "', not 'wormnet " + sub.get_name() + "'");
    }
    text = p.config_toml;
    path = io::checkpoint_path(restart);
    const std::vector<std::string> explicit_args(rest.begin() + 2, rest.end());
    std::vector<std::string> expanded(rest.begin(), rest.begin() + 2);
    for (std::string& t : config_to_args(text, path, sub, explicit_args)) {
      expanded.push_back(std::move(t));
    }
    expanded.insert(expanded.end(), rest.begin() + 2, rest.end());
    return expanded;
  }
  // Rank 0 reads; every rank gets the same text or the same error.
  if (comm.is_root()) text = read_bounded(path, error, stop);
  comm.broadcast(error, 0);
  if (error == kInterrupted) throw Interrupted("reading --config '" + path + "' was interrupted");
  if (!error.empty()) throw InputError("--config", path, error);
  comm.broadcast(text, 0);
  const std::vector<std::string> explicit_args(rest.begin() + 2, rest.end());
  // The file's keys first, so that the command line wins; --config itself stays, for the
  // command to know its input (no output may replace it).
  std::vector<std::string> expanded(rest.begin(), rest.begin() + 2);
  for (std::string& t : config_to_args(text, path, sub, explicit_args))
    expanded.push_back(std::move(t));
  expanded.insert(expanded.end(), rest.begin() + 2, rest.end());
  expanded.push_back("--config");
  expanded.push_back(path);
  return expanded;
}

}  // namespace wormnet::cli
