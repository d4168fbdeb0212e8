#include "option_rules.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string_view>

#include "wormnet/core/error.hpp"

namespace wormnet::cli {

namespace {

/// Every pair of options that exclude each other, in any subcommand that has both. A new
/// option that conflicts with another needs one row here.
constexpr OptionConflict kConflicts[] = {
    {"--load", "--load-fraction",
     "the offered load is given either in flits/node/cycle or as a fraction of (N-1)/pi"},
    {"--measure", "--cycles",
     "the measurement window is either given or what --cycles leaves after --warmup"},
    {"--length", "--length-min", "--length sets both --length-min and --length-max"},
    {"--length", "--length-max", "--length sets both --length-min and --length-max"},
    {"--loads", "--load-range", "the loads of a sweep are either listed or a range"},
};

/// The leading characters of `input` after blanks.
std::size_t first_non_blank(const std::string& input) {
  const auto first = input.find_first_not_of(" \t");
  return first == std::string::npos ? input.size() : first;
}

/// Nothing but blanks: CLI11 reads it as 0 for a number, and no text option takes it.
bool blank(const std::string& input) {
  return first_non_blank(input) == input.size();
}

/// An unsigned option: no minus sign (CLI11 would read "-1" as 2^64 - 1) and nothing above
/// 2^64 - 1 (CLI11 wraps decimal values beyond it silently).
std::string check_unsigned(std::string& input) {
  const std::size_t first = first_non_blank(input);
  // --seed "" from an unset shell variable would run with seed 0.
  if (blank(input)) return "'" + input + "': an empty value: expected an integer >= 0";
  if (first < input.size() && input[first] == '-') {
    return "'" + input + "': must be an integer >= 0";
  }
  const auto digits = input.find_first_not_of("0123456789", first);
  const std::string number =
      input.substr(first, digits == std::string::npos ? std::string::npos : digits - first);
  const auto lead = number.find_first_not_of('0');
  const std::string significant = lead == std::string::npos ? std::string() : number.substr(lead);
  if (significant.size() > 20 ||
      (significant.size() == 20 && significant > "18446744073709551615")) {
    return "'" + input + "': larger than 2^64 - 1";
  }
  return {};
}

/// A signed integer option: not empty (CLI11 reads "" as 0).
std::string check_signed(std::string& input) {
  if (blank(input)) return "'" + input + "': an empty value: expected an integer";
  return {};
}

/// A floating-point option: a finite number (inf and nan mean nothing as a load, a rate or
/// an interval), and no empty item in a list ("0.1,,0.2").
std::string check_finite(std::string& input) {
  if (blank(input)) {
    return "an empty value (two commas in a row, or a trailing one?): expected a number";
  }
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(input.c_str(), &end);
  if (end == input.c_str()) return {};  // not a number at all: CLI11's conversion names it
  if (errno == ERANGE && std::fabs(v) == HUGE_VAL) {
    return "'" + input + "': beyond the range of a number (about 1.8e308)";
  }
  if (!std::isfinite(v)) return "'" + input + "': expected a finite number";
  return {};
}

/// A text option (a name, a path, a spec) given an empty value: --output "" from an unset
/// shell variable, say. No text option takes "" for "none".
std::string check_text(std::string& input) {
  if (blank(input)) return "'" + input + "': an empty value";
  return {};
}

}  // namespace

void apply_option_rules(CLI::App& app) {
  for (const OptionConflict& c : kConflicts) {
    CLI::Option* a = app.get_option_no_throw(c.first);
    CLI::Option* b = app.get_option_no_throw(c.second);
    if (a != nullptr && b != nullptr) a->excludes(b);
  }
  for (CLI::Option* opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    std::function<std::string(std::string&)> rule;
    if (type == "UINT") rule = check_unsigned;
    if (type == "INT") rule = check_signed;
    if (type == "FLOAT") rule = check_finite;
    if (type == "TEXT") rule = check_text;
    if (!rule) continue;
    // CLI11 puts the option's name before a validator's message, but not for a hidden option
    // (an empty group: the test-only ones), whose name the message then carries itself.
    if (opt->get_group().empty() && !opt->get_lnames().empty()) {
      rule = [rule, name = "--" + opt->get_lnames().front()](std::string& input) {
        std::string why = rule(input);
        return why.empty() ? why : name + " " + why;
      };
    }
    opt->check(CLI::Validator(rule, ""));
  }
}

void refuse_empty_list_items(const CLI::App& app, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) continue;
    const auto eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const CLI::Option* opt = app.get_option_no_throw(name);
    if (opt == nullptr || opt->get_delimiter() == '\0') continue;
    std::string value;
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      continue;  // CLI11 names the missing value
    }
    const char d = opt->get_delimiter();
    const std::string twice{d, d};
    if (!value.empty() &&
        (value.front() == d || value.back() == d || value.find(twice) != std::string::npos)) {
      throw InputError(
          name, value,
          std::string("an empty item in the list: items are separated by one '") + d + "'");
    }
  }
}

std::string conflict_reason(const std::string& a, const std::string& b) {
  for (const OptionConflict& c : kConflicts) {
    if ((a == c.first && b == c.second) || (a == c.second && b == c.first)) return c.why;
  }
  return "";
}

std::set<std::string> given_options(const CLI::App& app) {
  std::set<std::string> given;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() > 0) given.insert(opt->get_name());
  }
  return given;
}

}  // namespace wormnet::cli
