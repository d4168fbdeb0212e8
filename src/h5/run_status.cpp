#include "wormnet/h5/run_status.hpp"

#include <array>
#include <string>
#include <utility>

#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"

namespace wormnet::io {

namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 6> kNames{{
    {RunStatus::kRunning, "running"},
    {RunStatus::kComplete, "complete"},
    {RunStatus::kDeadlock, "deadlock"},
    {RunStatus::kInterrupted, "interrupted"},
    {RunStatus::kFailed, "failed"},
    {RunStatus::kIncomplete, "incomplete"},
}};

}  // namespace

std::string_view to_string(RunStatus status) {
  for (const auto& [s, name] : kNames) {
    if (s == status) return name;
  }
  return "unknown";
}

std::optional<RunStatus> parse_run_status(std::string_view text) {
  for (const auto& [s, name] : kNames) {
    if (name == text) return s;
  }
  return std::nullopt;
}

void set_run_status(const H5File& file, RunStatus status, StringStorage storage) {
  // Fixed-length: one size for every word, so that a new status is written in place.
  constexpr std::size_t kFixedSize = 16;
  if (storage == StringStorage::kFixed) {
    file.root().set_fixed_string_attribute(schema::kStatusAttr, to_string(status), kFixedSize);
  } else {
    file.root().set_attribute(schema::kStatusAttr, to_string(status));
  }
  file.flush();
}

RunStatus run_status(const H5File& file, StringStorage storage) {
  const std::string text = storage == StringStorage::kFixed
                               ? file.root().fixed_string_attribute(schema::kStatusAttr)
                               : file.root().attribute<std::string>(schema::kStatusAttr);
  const std::optional<RunStatus> status = parse_run_status(text);
  if (!status) {
    throw H5Error(file.path() + ": attribute '" + std::string(schema::kStatusAttr) + "' is '" +
                  text +
                  "', not one of running, complete, deadlock, interrupted, failed, incomplete");
  }
  return *status;
}

}  // namespace wormnet::io
