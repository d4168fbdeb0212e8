// The routing analyses (verify/) split over the ranks: each rank explores its share of the
// destinations and the shares are combined on every rank, with the same numbers whatever the
// rank count. Also the work limits that decide when the loads are exact.
#pragma once

#include <cstdint>
#include <string>

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::cli {

/// Routing states (nodes x destination passes, AnalysisPlan::estimated_states) an exact load
/// analysis may take: about 2.5 min on one core, a few seconds on 64 ranks. Above it, the
/// loads are estimated from an even sample of destinations that fits.
inline constexpr std::uint64_t kExactLoadStates = 4'000'000'000;
/// For the saturation-relative figures of a run that does not need them (no --load-fraction):
/// the analysis runs only below this (a few seconds on one core).
inline constexpr std::uint64_t kReportLoadStates = 200'000'000;

/// analyze_routing() over the ranks of `comm`; every rank gets the whole analysis.
RoutingAnalysis analyze_on_ranks(const Topology& topo, const RoutingFunction& routing,
                                 const AnalysisOptions& options, const Communicator& comm);

/// The analysis and its wall time (max over ranks), for the setup line of run and sweep.
struct TimedAnalysis {
  RoutingAnalysis analysis;
  double seconds = 0.0;
};
TimedAnalysis timed_analysis(const Topology& topo, const RoutingFunction& routing,
                             const AnalysisOptions& options, const Communicator& comm);

}  // namespace wormnet::cli
