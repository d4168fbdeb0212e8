#include "wormnet/tables/turn_set.hpp"

#include <bit>

namespace wormnet::tables {

TurnSet::TurnSet(std::uint32_t nodes, int dims)
    : dims_(dims),
      masks_(static_cast<std::size_t>(nodes) * 2 * static_cast<std::size_t>(dims), 0) {}

void TurnSet::add(NodeId v, Direction in, Direction out) {
  std::uint16_t& m =
      masks_[static_cast<std::size_t>(v.value()) * 2 * dims_ + static_cast<std::size_t>(in)];
  m = static_cast<std::uint16_t>(m | (1U << out));
}

std::uint64_t TurnSet::count() const {
  std::uint64_t n = 0;
  for (std::uint16_t m : masks_) n += static_cast<std::uint64_t>(std::popcount(m));
  return n;
}

}  // namespace wormnet::tables
