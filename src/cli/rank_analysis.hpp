// The routing analyses (verify/) split over the ranks: each rank explores its share of the
// destinations and the shares are combined on every rank, with the same numbers whatever the
// rank count. Also the work limits that decide when a load analysis is run.
#pragma once

#include <cstdint>
#include <string>

#include "wormnet/driver/analysis_policy.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/traffic/traffic_matrix.hpp"
#include "wormnet/verify/pattern_loads.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::cli {

/// Routing states (nodes x destination passes, AnalysisScope::estimated_states) one rank may
/// explore for an exact load analysis: about 2 minutes on one core. Above it, an option that
/// needs (N-1)/pi is refused with the number of ranks that would do (the loads are always
/// exact: an estimate from a sample of destinations overstates pi by 24% to 10x on the
/// networks measured in docs/analysis.md, so none is offered).
inline constexpr std::uint64_t kExactLoadStatesPerRank = 4'000'000'000;
/// Throws an InputError naming `option` when the plan's work does not fit
/// kExactLoadStatesPerRank on the ranks of `comm`.
void require_affordable(const AnalysisScope& plan, const Communicator& comm,
                        const std::string& option, const std::string& value);
/// The same for an analysis of about `states` routing states.
void require_affordable(std::uint64_t states, const Communicator& comm, const std::string& option,
                        const std::string& value);

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

/// The loads of a traffic pattern that is not uniform (verify/pattern_loads.hpp), split over
/// the ranks like the uniform analysis, and its wall time (max over ranks).
struct TimedPatternAnalysis {
  PatternLoadReport loads;
  double seconds = 0.0;
};
TimedPatternAnalysis timed_pattern_analysis(const Topology& topo, const RoutingFunction& routing,
                                            const TrafficMatrix& matrix, int vcs,
                                            const Communicator& comm,
                                            const FaultSet* faults = nullptr);
/// Routing states the pattern analysis of `matrix` explores, about (for the limits above).
std::uint64_t pattern_states(const Topology& topo, const RoutingFunction& routing,
                             const TrafficMatrix& matrix);

}  // namespace wormnet::cli
