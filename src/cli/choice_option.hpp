// Enum options given by name on the command line.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <type_traits>

namespace wormnet::cli {

/// Transform for an enum option given by name, in any case: the name becomes the enum's
/// underlying integer for CLI11 to store, and a bad value reads "X not in {a,b,...}".
/// Replaces CLI::CheckedTransformer, whose help and error texts stream a one-byte enum as a
/// raw byte (a NUL for the first value, which also cuts the error message short). Pair it
/// with default_str(name) rather than capture_default_str(), for the same reason.
template <class E>
CLI::Validator choice_of(const std::map<std::string, E>& names) {
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

/// CLI11 reads "-1" into an unsigned option as 2^64 - 1: every option of `app` whose value is
/// unsigned (type name UINT) refuses a minus sign instead, naming the value.
inline void refuse_negative_unsigned(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_name() != "UINT") continue;
    opt->check(CLI::Validator(
        [](std::string& input) -> std::string {
          const auto first = input.find_first_not_of(" \t");
          if (first != std::string::npos && input[first] == '-') {
            return "'" + input + "': must be an integer >= 0";
          }
          // CLI11 wraps decimal values above 2^64 - 1 silently.
          const auto digits = input.find_first_not_of("0123456789", first);
          const std::string number =
              input.substr(first == std::string::npos ? 0 : first,
                           digits == std::string::npos ? std::string::npos : digits - first);
          const auto lead = number.find_first_not_of('0');
          const std::string significant =
              lead == std::string::npos ? std::string() : number.substr(lead);
          if (significant.size() > 20 ||
              (significant.size() == 20 && significant > "18446744073709551615")) {
            return "'" + input + "': larger than 2^64 - 1";
          }
          return {};
        },
        ""));
  }
}

}  // namespace wormnet::cli
