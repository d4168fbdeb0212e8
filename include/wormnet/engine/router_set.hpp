// Sets of a rank's routers (the active set, the boundary set) as bitmaps of 64-bit words:
// local router r is bit r % 64 of word r / 64, so that a walk over a set scans whole words
// with countr_zero and meets the routers in index order (forwards through their state).
#pragma once

#include <cstddef>
#include <cstdint>

namespace wormnet::router_set {

/// Routers a word of a set holds.
inline constexpr std::uint32_t kPerWord = 64;
/// log2(kPerWord): a block of 2^s routers (s >= kWordShift) is 2^(s - kWordShift) words.
inline constexpr int kWordShift = 6;

/// Words a set of `routers` routers takes.
constexpr std::size_t words(std::uint32_t routers) {
  return (routers + kPerWord - 1) / kPerWord;
}
/// The word that holds router r, and r's bit in it.
constexpr std::size_t word(std::uint32_t r) {
  return r / kPerWord;
}
constexpr std::uint64_t bit(std::uint32_t r) {
  return std::uint64_t{1} << (r % kPerWord);
}
/// The router of bit `b` (0..63) of word w.
constexpr std::uint32_t router(std::size_t w, int b) {
  return static_cast<std::uint32_t>(w * kPerWord + static_cast<std::size_t>(b));
}

}  // namespace wormnet::router_set
