#include "wormnet/core/error.hpp"

#include <utility>

namespace wormnet {

InputError::InputError(std::string option, std::string value, std::string allowed)
    : std::runtime_error(option + " '" + value + "': " + allowed),
      option_(std::move(option)),
      value_(std::move(value)),
      allowed_(std::move(allowed)) {}

}  // namespace wormnet
