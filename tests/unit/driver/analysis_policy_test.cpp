// When a run computes the load analysis for its report, against hand-worked costs: a routing
// state costs 100 router-cycles, and the analysis may take 10 % of the run, so it runs when
// states x 1000 <= nodes x cycles (above 2 million states; always below; never above 200
// million).
#include "wormnet/driver/analysis_policy.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace wormnet {
namespace {

TEST(AnalysisPolicy, SmallAnalysesAlwaysRun) {
  // A 16x16 mesh's 256 x 256 states for a 10-cycle run cost 650 times the run: still cheap.
  EXPECT_TRUE(report_analysis_pays(65'536, 256, 10));
  EXPECT_TRUE(report_analysis_pays(2'000'000, 1'000'000, 1));  // the bound itself
}

TEST(AnalysisPolicy, LargeAnalysesRunWhenTheRunIsLongEnough) {
  // torus:216x216x216, one destination class: 10,077,696 states for as many routers; it pays
  // from 1,000 planned cycles on (states x 100 = 10 % of nodes x 1,000).
  const std::uint64_t n = 216ULL * 216 * 216;
  EXPECT_FALSE(report_analysis_pays(n, n, 400));
  EXPECT_FALSE(report_analysis_pays(n, n, 999));
  EXPECT_TRUE(report_analysis_pays(n, n, 1000));
  EXPECT_TRUE(report_analysis_pays(n, n, 20'000));
  // 2,000,001 states over 1,000 nodes: pays from 2,000,001 cycles on.
  EXPECT_FALSE(report_analysis_pays(2'000'001, 1000, 2'000'000));
  EXPECT_TRUE(report_analysis_pays(2'000'001, 1000, 2'000'001));
}

TEST(AnalysisPolicy, UnknownLengthAndTheStateLimit) {
  // A workload's length is unknown (0): the state limit alone decides.
  EXPECT_TRUE(report_analysis_pays(200'000'000, 1'000'000, 0));
  EXPECT_FALSE(report_analysis_pays(200'000'001, 1'000'000, 0));
  // Above the limit no run is long enough, and cycles near 2^62 do not overflow.
  EXPECT_FALSE(report_analysis_pays(200'000'001, 1'000'000, std::uint64_t{1} << 62));
  EXPECT_TRUE(report_analysis_pays(100'000'000, 10'000'000, std::uint64_t{1} << 62));
}

}  // namespace
}  // namespace wormnet
