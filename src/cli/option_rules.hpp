// Rules every subcommand's options follow, declared once and applied to whatever options a
// command has, so that a new option is covered without a line of its own:
//  - values: an integer option refuses an empty value (CLI11 reads "" as 0), an unsigned one
//    a minus sign and values above 2^64 - 1 (CLI11 reads "-1" as 2^64 - 1 and wraps larger
//    values), a floating-point option refuses inf and nan,
//    a text option refuses an empty value, a list option an empty item ("0.1,,0.2");
//  - conflicts: pairs of options that exclude each other, refused naming both (by CLI11's
//    excludes(), whose error main() words with the reason below); a --config file key is
//    dropped when the command line gives an option it excludes (the command line wins);
//  - which options were given (a value that equals the default is still given: --cycles 0
//    is refused, not taken for "not given").
#pragma once

#include <CLI/CLI.hpp>
#include <set>
#include <string>
#include <vector>

namespace wormnet::cli {

/// Pairs of options that exclude each other, with the reason given to the user.
struct OptionConflict {
  const char* first;
  const char* second;
  const char* why;
};

/// Declares on `app` every conflict of the table whose two options it has, and the number
/// checks above on every numeric option.
void apply_option_rules(CLI::App& app);

/// InputError naming the option and the value when a list option (one with a delimiter, e.g.
/// --loads a,b,c) is given an empty item ("0.1,,0.2", "0.1,"): CLI11 drops empty items
/// silently. `args` are the command line's words after the subcommand.
void refuse_empty_list_items(const CLI::App& app, const std::vector<std::string>& args);

/// The reason two options exclude each other ("" when the table has no such pair).
std::string conflict_reason(const std::string& a, const std::string& b);

/// Long names ("--cycles") of the options of `app` given on the command line or in its
/// --config file.
std::set<std::string> given_options(const CLI::App& app);

}  // namespace wormnet::cli
