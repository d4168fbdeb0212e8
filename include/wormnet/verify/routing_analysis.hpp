// Static analyses of a routing function over all ordered pairs (s, d), s != d, built on the
// routing state graph: the delivery check, the channel dependency graph (deadlock verifier)
// and the channel loads (edge-forwarding index, deviation, ideal saturation rate).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"

namespace wormnet {

/// Every pair and every allowed choice must reach the destination: no dead end, no
/// livelock (a cycle of routing states), every step legal.
struct DeliveryReport {
  bool ok = true;
  std::string defect;            ///< first problem found, empty when ok
  std::uint64_t pairs = 0;       ///< ordered pairs checked
  int max_path = 0;              ///< longest route over all pairs and choices (hops)
  double average_path = 0.0;     ///< mean hops, choices weighted by the even split
  double average_minimal = 0.0;  ///< mean minimal distance over the same pairs
  /// average_path / average_minimal (1 for a minimal routing).
  [[nodiscard]] double stretch() const {
    return average_minimal > 0 ? average_path / average_minimal : 1.0;
  }
  bool all_minimal = true;  ///< every route of every pair is a shortest path
};

/// Channel loads gamma_c (Angara paper): routes crossing each directed channel, one unit per
/// ordered pair, an adaptive routing's unit split evenly over its choices at each step.
struct LoadReport {
  std::vector<double> gamma;  ///< per directed channel (all VCs together)
  double pi = 0.0;            ///< edge-forwarding index, max gamma_c
  double min_load = 0.0;      ///< min gamma_c over all directed channels
  /// Paper's perfect load: sum over pairs of the MINIMAL distance / |C|, i.e. the mean load
  /// a minimal routing table would give. Equals mean_load for minimal routings.
  double perfect_load = 0.0;
  double mean_load = 0.0;  ///< sum gamma_c / |C| (larger than perfect_load if non-minimal)
  double sigma4 = 0.0;     ///< sigma(4, R) = (1/|C| sum |perfect - gamma_c|^4)^(1/4)
  /// Ideal uniform saturation rate (N-1)/pi, flits/node/cycle: with every node sending
  /// lambda spread over the N-1 others, channel c carries lambda gamma_c / (N-1).
  double saturation_rate = 0.0;
};

struct AnalysisOptions {
  bool cdg = true;    ///< build the channel dependency graph
  bool loads = true;  ///< compute channel loads
  /// VCs per channel; 0 means routing.vcs_required().
  int vcs = 0;
};

struct RoutingAnalysis {
  DeliveryReport delivery;
  ChannelDependencyGraph cdg;  ///< empty unless options.cdg
  LoadReport loads;            ///< empty unless options.loads
};

/// Runs the requested analyses in one sweep over destinations: O(N * states).
RoutingAnalysis analyze_routing(const Topology& topo, const RoutingFunction& routing,
                                const AnalysisOptions& options = {});

/// sigma(k, R) for given loads and perfect load (exposed for tests).
double load_deviation(const std::vector<double>& gamma, double perfect, int k);

}  // namespace wormnet
