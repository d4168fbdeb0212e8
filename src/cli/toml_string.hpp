// Writing the effective configuration: one quoting for every text value.
#pragma once

#include <string>

namespace wormnet::cli {

/// A TOML basic string that --config reads back to `v` (a path may hold anything).
inline std::string toml_string(const std::string& v) {
  std::string quoted = "\"";
  for (const char c : v) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (c == '\n') {
      quoted += "\\n";
    } else if (c == '\t') {
      quoted += "\\t";
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

}  // namespace wormnet::cli
