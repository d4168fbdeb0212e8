// Enum options given by name on the command line.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <type_traits>

#include "wormnet/core/enum_names.hpp"

namespace wormnet::cli {

/// Transform for an enum option given by its name in the enum's table (core/enum_names.hpp), in
/// any case: the name becomes the enum's
/// underlying integer for CLI11 to store, and a bad value reads "X not in {a,b,...}".
/// Replaces CLI::CheckedTransformer, whose help and error texts stream a one-byte enum as a
/// raw byte (a NUL for the first value, which also cuts the error message short). Pair it
/// with default_str(name) rather than capture_default_str(), for the same reason.
template <class E>
CLI::Validator choice_of() {
  std::map<std::string, E> names;  // sorted: the list reads in alphabetical order
  for (const EnumName<E>& row : enum_names(E{})) names.emplace(row.name, row.value);
  std::string list;
  for (const auto& entry : names) list += (list.empty() ? "" : ",") + entry.first;
  list = "{" + list + "}";
  return CLI::Validator(
      [names, list](std::string& input) -> std::string {
        std::string key = input;
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        const auto it = names.find(key);
        if (it == names.end()) return input + " not in " + list;
        input = std::to_string(
            static_cast<long long>(static_cast<std::underlying_type_t<E>>(it->second)));
        return {};
      },
      list);
}

}  // namespace wormnet::cli
