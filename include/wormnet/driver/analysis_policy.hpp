// When a run computes the routing's load analysis ((N-1)/pi, the channel loads) for its
// report although no option needs it: a pure function of the network's analysis work and the
// run's planned cycles, never of the rank count, so that whether a results file holds
// (N-1)/pi does not depend on how many ranks wrote it.
#pragma once

#include <cstdint>

namespace wormnet {

/// For the saturation-relative figures of a run that does not need them (no --load-fraction):
/// the analysis runs only below this (a few seconds on one core). A limit on the network, not
/// per rank, so that whether a results file holds (N-1)/pi does not depend on the rank count.
inline constexpr std::uint64_t kReportLoadStates = 200'000'000;
/// Below this many routing states the load analysis takes about a second or less on one
/// core: always worth running for the report.
inline constexpr std::uint64_t kCheapLoadStates = 2'000'000;
/// What a routing state of the analysis costs, in router-cycles of the loop: a round figure
/// between the ratios measured on large tori (docs/scaling.md, "Setup at ten million
/// routers").
inline constexpr std::uint64_t kRouterCyclesPerState = 100;
/// The share of a run the report's analysis may cost, in percent.
inline constexpr std::uint64_t kReportAnalysisPercent = 10;

/// Whether a run that does not need (N-1)/pi computes it for its report: below
/// kReportLoadStates, and for more than kCheapLoadStates only when the analysis costs at most
/// kReportAnalysisPercent of the `cycles` the run plans over its `nodes` routers (cycles 0:
/// unknown, as for a workload; then the state limit alone decides). Depends on the network
/// and the options only, never on the rank count.
[[nodiscard]] bool report_analysis_pays(std::uint64_t states, std::uint64_t nodes,
                                        std::uint64_t cycles);

}  // namespace wormnet
