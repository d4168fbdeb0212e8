// Checksums of checkpoint and sealed-file data that do not depend on how rows are spread
// over ranks. A dataset's digest is the sum (mod 2^64) over its rows of a hash of (global row
// index, row bytes): every rank hashes the rows it holds and the sums are added up, so a
// checkpoint written by 4 ranks checks the same on 1. The row hash is a chain of bijective
// mixing steps, so changing any one word of a row always changes its hash; a flipped byte
// is always detected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "wormnet/core/rng.hpp"
#include "wormnet/h5/row_distribution.hpp"

namespace wormnet::io::detail {

using wormnet::mix64;  // SplitMix64's finalizer (core/rng.hpp)

/// Hash of `bytes` keyed by `key` (the row index).
inline std::uint64_t digest_bytes(std::uint64_t key, std::span<const std::byte> bytes) {
  std::uint64_t h = mix64(key + 0x9e3779b97f4a7c15ULL);
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes.data() + i, 8);
    h = mix64(h ^ w);
  }
  if (i < bytes.size()) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes.data() + i, bytes.size() - i);
    h = mix64(h ^ w);
  }
  return mix64(h ^ bytes.size());
}

inline std::uint64_t digest_text(std::string_view text) {
  return digest_bytes(0, std::as_bytes(std::span<const char>(text.data(), text.size())));
}

/// This rank's share of a dataset's digest: `local` holds rows.local_rows() rows of
/// `row_elements` elements, in the order of rows.runs().
template <class T>
std::uint64_t rows_digest(const RowDistribution& rows, std::span<const T> local,
                          std::uint64_t row_elements) {
  std::uint64_t sum = 0;
  std::size_t at = 0;
  const auto bytes = std::as_bytes(local);
  const std::size_t row_bytes = row_elements * sizeof(T);
  for (const IndexRun& run : rows.runs()) {
    for (std::uint64_t k = 0; k < run.count; ++k) {
      if (at + row_bytes > bytes.size()) return sum;  // sizes differ: the caller's check fails
      sum += digest_bytes(run.offset + k, bytes.subspan(at, row_bytes));
      at += row_bytes;
    }
  }
  return sum;
}

/// The digest of a whole 1-D array of `n` rows held by one rank.
template <class T>
std::uint64_t array_digest(std::span<const T> all) {
  return rows_digest(RowDistribution::contiguous(all.size(), 0, all.size()), all, 1);
}

}  // namespace wormnet::io::detail
