#include "wormnet/stats/latency_histogram.hpp"

#include <cmath>

namespace wormnet {

std::uint64_t LatencyHistogram::quantile(double q) const {
  if (count_ == 0) return 0;
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  if (rank < 1) rank = 1;
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < counts_.size(); ++b) {
    seen += counts_[b];
    if (seen >= rank) return lower_bound(static_cast<int>(b));
  }
  return max_;
}

}  // namespace wormnet
