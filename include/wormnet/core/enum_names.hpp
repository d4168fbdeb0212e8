// One table per enum: each value with its one spelling (the command line's choice, the stored
// configuration's TOML value, the results file's attribute, the error messages) and a line of
// help. An enum E opts in by declaring `enum_names(E)`, found by argument-dependent lookup,
// returning its table; enum_name() and enum_value() then read it.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace wormnet {

/// One row of an enum's table.
template <class E>
struct EnumName {
  E value;
  const char* name;  ///< the one spelling: lower case, words joined by '-'
  const char* help;  ///< what the value means, in a few words
};

/// The spelling of `v` in its enum's table ("?" for a value the table lacks, which the
/// tables' test rules out).
template <class E>
constexpr const char* enum_name(E v) {
  for (const EnumName<E>& row : enum_names(E{})) {
    if (row.value == v) return row.name;
  }
  return "?";
}

/// The help of `v` in its enum's table ("?" for a value the table lacks).
template <class E>
constexpr const char* enum_help(E v) {
  for (const EnumName<E>& row : enum_names(E{})) {
    if (row.value == v) return row.help;
  }
  return "?";
}

/// The value spelled `name` exactly in its enum's table; nothing when none is.
template <class E>
constexpr std::optional<E> enum_value(std::string_view name) {
  for (const EnumName<E>& row : enum_names(E{})) {
    if (name == row.name) return row.value;
  }
  return std::nullopt;
}

}  // namespace wormnet
