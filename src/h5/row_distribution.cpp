#include "wormnet/h5/row_distribution.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>

#include "wormnet/core/error.hpp"

namespace wormnet::io {

namespace {

std::string describe(const IndexRun& r) {
  return "[" + std::to_string(r.offset) + ", " + std::to_string(r.offset + r.count) + ")";
}

}  // namespace

RowDistribution::RowDistribution(std::uint64_t global_rows, std::vector<IndexRun> runs)
    : global_rows_(global_rows) {
  for (const IndexRun& r : runs) {
    if (r.count == 0) continue;
    // offset + count may wrap for absurd inputs: compare without adding.
    if (r.offset >= global_rows || r.count > global_rows - r.offset) {
      throw InvariantError("row run " + describe(r) + " leaves the array of " +
                           std::to_string(global_rows) + " rows");
    }
    local_start_.push_back(local_rows_);
    local_rows_ += r.count;
    runs_.push_back(r);
  }
  order_.resize(runs_.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::sort(order_.begin(), order_.end(),
            [&](std::size_t a, std::size_t b) { return runs_[a].offset < runs_[b].offset; });
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const IndexRun& r = runs_[order_[k]];
    if (order_[k] != k) in_file_order_ = false;
    if (!file_runs_.empty()) {
      IndexRun& last = file_runs_.back();
      if (r.offset < last.offset + last.count) {
        throw InvariantError("row runs overlap: " + describe(last) + " and " + describe(r));
      }
      if (r.offset == last.offset + last.count) {
        last.count += r.count;
        continue;
      }
    }
    file_runs_.push_back(r);
  }
}

RowDistribution RowDistribution::contiguous(std::uint64_t global_rows, std::uint64_t offset,
                                            std::uint64_t count) {
  return RowDistribution(global_rows, {IndexRun{offset, count}});
}

RowDistribution RowDistribution::of_rows(std::uint64_t global_rows,
                                         std::span<const std::uint64_t> rows) {
  std::vector<IndexRun> runs;
  runs.reserve(rows.size());
  for (const std::uint64_t r : rows) runs.push_back({r, 1});
  return RowDistribution(global_rows, std::move(runs));
}

RowDistribution RowDistribution::block(std::uint64_t global_rows, int rank, int ranks) {
  require(ranks > 0 && rank >= 0 && rank < ranks, "RowDistribution::block: rank out of range");
  // floor(r*G/P) without forming r*G (which could overflow): G = q*P + m gives
  // r*G/P = r*q + r*m/P with r*m < P*P.
  const auto p = static_cast<std::uint64_t>(ranks);
  const auto bound = [&](int r) {
    const auto ur = static_cast<std::uint64_t>(r);
    return ur * (global_rows / p) + ur * (global_rows % p) / p;
  };
  const std::uint64_t begin = bound(rank);
  return contiguous(global_rows, begin, bound(rank + 1) - begin);
}

void RowDistribution::to_file_order(std::span<const std::byte> local,
                                    std::span<std::byte> file_ordered,
                                    std::size_t row_bytes) const {
  require(local.size() == local_rows_ * row_bytes && file_ordered.size() == local.size(),
          "RowDistribution::to_file_order: buffer sizes do not match the distribution");
  std::size_t out = 0;
  for (const std::size_t i : order_) {
    const std::size_t bytes = runs_[i].count * row_bytes;
    if (bytes == 0) continue;
    std::memcpy(file_ordered.data() + out, local.data() + local_start_[i] * row_bytes, bytes);
    out += bytes;
  }
}

void RowDistribution::from_file_order(std::span<const std::byte> file_ordered,
                                      std::span<std::byte> local, std::size_t row_bytes) const {
  require(local.size() == local_rows_ * row_bytes && file_ordered.size() == local.size(),
          "RowDistribution::from_file_order: buffer sizes do not match the distribution");
  std::size_t in = 0;
  for (const std::size_t i : order_) {
    const std::size_t bytes = runs_[i].count * row_bytes;
    if (bytes == 0) continue;
    std::memcpy(local.data() + local_start_[i] * row_bytes, file_ordered.data() + in, bytes);
    in += bytes;
  }
}

}  // namespace wormnet::io
