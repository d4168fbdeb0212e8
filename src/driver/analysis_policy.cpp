#include "wormnet/driver/analysis_policy.hpp"

namespace wormnet {

bool report_analysis_pays(std::uint64_t states, std::uint64_t nodes, std::uint64_t cycles) {
  if (states > kReportLoadStates) return false;
  if (states <= kCheapLoadStates || cycles == 0) return true;
  // In doubles: nodes x cycles may be far beyond 2^64 (cycles up to 2^62); the comparison
  // needs no more than a few digits.
  const double cost = static_cast<double>(states) * static_cast<double>(kRouterCyclesPerState);
  const double run = static_cast<double>(nodes) * static_cast<double>(cycles);
  return cost * 100.0 <= run * static_cast<double>(kReportAnalysisPercent);
}

}  // namespace wormnet
