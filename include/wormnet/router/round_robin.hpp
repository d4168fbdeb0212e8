// Round-robin choice over a bit mask: the arbiters of the separable allocators.
#pragma once

#include <bit>
#include <cstdint>

namespace wormnet {

/// The first set bit of `mask` strictly after position `last`, wrapping around; -1 if none.
/// Positions are < 64 (0 <= last <= 63). Giving priority to the bit after the last winner is
/// what makes the arbiter round-robin (every requester is served within one rotation).
inline int round_robin_pick(std::uint64_t mask, int last) {
  if (mask == 0) return -1;
  // The bits above `last`, shifted in two steps so that last = 63 leaves none (a shift by
  // 64 is undefined): the switch stage asks this for every input and output port it serves.
  const std::uint64_t above = mask & ((~std::uint64_t{0} << last) << 1);
  return std::countr_zero(above != 0 ? above : mask);
}

}  // namespace wormnet
