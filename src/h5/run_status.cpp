#include "wormnet/h5/run_status.hpp"

#include <string>

#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"

namespace wormnet::io {

void set_run_status(const H5File& file, RunStatus status, StringStorage storage) {
  // Fixed-length: one size for every word, so that a new status is written in place.
  constexpr std::size_t kFixedSize = 16;
  if (storage == StringStorage::kFixed) {
    file.root().set_fixed_string_attribute(schema::kStatusAttr, enum_name(status), kFixedSize);
  } else {
    file.root().set_attribute(schema::kStatusAttr, std::string_view(enum_name(status)));
  }
  file.flush();
}

RunStatus run_status(const H5File& file, StringStorage storage) {
  const std::string text = storage == StringStorage::kFixed
                               ? file.root().fixed_string_attribute(schema::kStatusAttr)
                               : file.root().attribute<std::string>(schema::kStatusAttr);
  const std::optional<RunStatus> status = enum_value<RunStatus>(text);
  if (!status) {
    std::string words;
    for (const EnumName<RunStatus>& row : enum_names(RunStatus{})) {
      words += (words.empty() ? "" : ", ") + std::string(row.name);
    }
    throw H5Error(file.path() + ": attribute '" + std::string(schema::kStatusAttr) + "' is '" +
                  text + "', not one of " + words);
  }
  return *status;
}

}  // namespace wormnet::io
