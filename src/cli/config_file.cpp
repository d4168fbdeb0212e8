#include "config_file.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "wormnet/core/error.hpp"
#include "wormnet/io/checkpoint_file.hpp"

namespace wormnet::cli {

namespace {

constexpr std::size_t kMaxConfigBytes = 1 << 20;  // a configuration is small text

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
    // The command line wins over the file.
    bool on_command_line = false;
    for (const std::string& a : explicit_args) {
      if (a == "--" + key || a.rfind("--" + key + "=", 0) == 0) on_command_line = true;
      for (const std::string& s : opt->get_snames())
        on_command_line = on_command_line || a == "-" + s;
    }
    // The value is read even when the command line overrides it: a broken line is an error
    // whatever wins.
    std::vector<std::string> tokens;
    if (value.size() >= 2 && value.front() == '[' && value.back() == ']') {
      std::string list;
      std::string item;
      std::istringstream items(value.substr(1, value.size() - 2));
      std::string part;
      while (std::getline(items, part, ',')) {
        const std::string p = trim(part);
        if (p.empty()) continue;
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

std::vector<std::string> expand_config(const std::vector<std::string>& args, const CLI::App& sub,
                                       const Communicator& comm) {
  std::string path;
  std::vector<std::string> rest;
  bool found = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i >= 2 && args[i] == "--config") {
      if (i + 1 >= args.size()) throw InputError("--config", "(missing)", "needs a file name");
      path = args[++i];
      found = true;
    } else if (i >= 2 && args[i].rfind("--config=", 0) == 0) {
      path = args[i].substr(9);
      found = true;
    } else {
      rest.push_back(args[i]);
    }
  }
  std::string text;
  std::string error;
  if (!found) {
    // `--restart DIR` alone continues with the configuration saved in the checkpoint.
    for (std::size_t i = 2; i + 1 < args.size(); ++i) {
      if (args[i] == "--restart") {
        text = io::read_checkpoint_progress(comm, args[i + 1], "--restart").config_toml;
        path = io::checkpoint_path(args[i + 1]);
        const std::vector<std::string> explicit_args(rest.begin() + 2, rest.end());
        std::vector<std::string> expanded(rest.begin(), rest.begin() + 2);
        for (std::string& t : config_to_args(text, path, sub, explicit_args)) {
          expanded.push_back(std::move(t));
        }
        expanded.insert(expanded.end(), rest.begin() + 2, rest.end());
        return expanded;
      }
    }
    return args;
  }
  // Rank 0 reads; every rank gets the same text or the same error.
  if (comm.is_root()) {
    std::error_code ec;
    std::ifstream f(path, std::ios::binary);
    if (std::filesystem::is_directory(path, ec)) {
      error = "a directory, not a file";
    } else if (!f) {
      error = "cannot read the file";
    } else {
      std::ostringstream ss;
      ss << f.rdbuf();
      text = ss.str();
      if (text.size() > kMaxConfigBytes) error = "larger than 1 MiB: not a configuration";
    }
  }
  comm.broadcast(error, 0);
  if (!error.empty()) throw InputError("--config", path, error);
  comm.broadcast(text, 0);
  const std::vector<std::string> explicit_args(rest.begin() + 2, rest.end());
  std::vector<std::string> expanded(rest.begin(), rest.begin() + 2);
  for (std::string& t : config_to_args(text, path, sub, explicit_args))
    expanded.push_back(std::move(t));
  expanded.insert(expanded.end(), rest.begin() + 2, rest.end());
  return expanded;
}

}  // namespace wormnet::cli
