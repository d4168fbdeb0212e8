// Integer division that rounds toward minus infinity (coordinates reduced modulo a period).
#pragma once

#include <cstdint>

namespace wormnet {

/// floor(a / b) for b != 0.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// a - b * floor(a / b): in [0, b) for b > 0.
constexpr std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
  return a - floor_div(a, b) * b;
}

}  // namespace wormnet
