#include "wormnet/config/batch_config.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// A whole decimal number (digits only, leading zeros allowed), or nullopt when it is
/// empty, holds anything else, or exceeds 2^64 - 1 (std::stoull threw there once: an
/// internal error, exit 3, for a number that was only too large).
std::optional<std::uint64_t> decimal(std::string_view digits) {
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return v;
}

/// "HH:MM:SS" as seconds (hours up to kMaxWalltimeHours), or nullopt.
std::optional<std::uint64_t> clock_seconds(std::string_view text) {
  std::uint64_t part[3] = {0, 0, 0};
  std::string_view rest = text;
  for (int i = 0; i < 3; ++i) {
    // The seconds take the rest: "1:00:00:00" has the seconds "00:00", refused.
    const std::size_t colon = i < 2 ? rest.find(':') : rest.size();
    if (colon == std::string_view::npos) return std::nullopt;
    const std::optional<std::uint64_t> v = decimal(rest.substr(0, colon));
    if (!v) return std::nullopt;
    part[i] = *v;
    rest.remove_prefix(std::min(rest.size(), colon + 1));
  }
  if (part[0] > kMaxWalltimeHours || part[1] > 59 || part[2] > 59) return std::nullopt;
  return 3600 * part[0] + 60 * part[1] + part[2];
}

}  // namespace

CheckpointPeriod parse_checkpoint_period(std::string_view text) {
  const std::string shown(text);
  const char unit = text.empty() ? '\0' : text.back();
  const bool clock = unit == 'm' || unit == 'h';
  const std::string_view digits = text.substr(0, text.size() - (clock ? 1 : 0));
  const bool well_formed =
      !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
  const std::optional<std::uint64_t> n = decimal(digits);
  if (!well_formed || n == std::uint64_t{0}) {
    throw InputError("--checkpoint-every", shown,
                     "expected a positive number of cycles, or minutes / hours as Nm / Nh");
  }
  // A number beyond 2^64 - 1 (n empty) is beyond each limit: refused naming the limit.
  CheckpointPeriod period;
  if (clock) {
    const std::uint64_t limit = unit == 'm' ? kMaxPeriodMinutes : kMaxPeriodHours;
    if (!n || *n > limit) {
      throw InputError("--checkpoint-every", shown,
                       "at most " + std::to_string(limit) + unit + " (ten years)");
    }
    period.wall_seconds = (unit == 'm' ? 60 : 3600) * *n;
  } else {
    if (!n || *n > kMaxCycles) {
      throw InputError("--checkpoint-every", shown,
                       "at most " + std::to_string(kMaxCycles) + " cycles");
    }
    period.cycles = *n;
  }
  return period;
}

std::uint64_t parse_walltime(std::string_view text) {
  const std::optional<std::uint64_t> seconds = clock_seconds(text);
  if (!seconds || *seconds == 0) {
    throw InputError("--walltime", std::string(text),
                     "expected HH:MM:SS above zero (e.g. 23:30:00): hours up to 99999, "
                     "minutes and seconds up to 59");
  }
  return *seconds;
}

ProgressMode parse_progress_mode(std::string_view text) {
  if (const std::optional<ProgressMode> mode = enum_value<ProgressMode>(text)) return *mode;
  std::string allowed;
  for (const EnumName<ProgressMode>& row : kProgressModeNames) {
    allowed += (allowed.empty() ? "allowed: " : ", ") + std::string(row.name);
  }
  throw InputError("--progress", std::string(text), allowed);
}

std::string checkpoint_directory(const BatchConfig& batch, const std::string& output) {
  std::string dir = !batch.checkpoint_dir.empty() ? batch.checkpoint_dir
                    : !batch.restart.empty()      ? batch.restart
                    : !output.empty()             ? output + ".checkpoint"
                                                  : std::string("wormnet.checkpoint");
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

}  // namespace wormnet
