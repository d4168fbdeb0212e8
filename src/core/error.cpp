#include "wormnet/core/error.hpp"

#include <utility>

namespace wormnet {

InputError::InputError(std::string option, std::string value, std::string allowed)
    : std::runtime_error(option + " '" + value + "': " + allowed),
      option_(std::move(option)),
      value_(std::move(value)),
      allowed_(std::move(allowed)) {}

OutputError::OutputError(std::string path, std::string reason)
    : std::runtime_error("cannot write '" + path + "': " + reason),
      path_(std::move(path)),
      reason_(std::move(reason)) {}

}  // namespace wormnet
