// Static analyses of a routing function over all ordered pairs (s, d), s != d, one pass per
// destination over the routing states toward it: the delivery check, the channel dependency
// graph (deadlock verifier) and the channel loads (edge-forwarding index, deviation, ideal
// saturation rate). States the routing declares indistinguishable are merged, a torus routing
// declared translation-invariant is explored toward one destination per class, and the
// destinations can be split over processes (docs/analysis.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"

namespace wormnet {

/// Every pair and every allowed choice must reach the destination: no dead end, no
/// livelock (a cycle of routing states), every step legal.
struct DeliveryReport {
  bool ok = true;
  std::string defect;       ///< first problem found, empty when ok
  std::uint64_t pairs = 0;  ///< ordered pairs checked
  /// Working pairs the routing does not claim (RoutingFunction::claims(); a table made around
  /// faults), not checked and not in `pairs`.
  std::uint64_t unclaimed = 0;
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
  /// lambda spread over the N-1 others, channel c carries lambda gamma_c / (N-1). With faults
  /// N counts the working nodes (the traffic's nodes).
  double saturation_rate = 0.0;
};

struct AnalysisOptions {
  bool cdg = true;    ///< build the channel dependency graph
  bool loads = true;  ///< compute channel loads
  /// VCs per channel; 0 means routing.vcs_required().
  int vcs = 0;
  /// Use the routing's declared network symmetries (RoutingFunction::symmetries()); off for
  /// the second pass that names the first defect in destination order.
  bool symmetries = true;
  /// The network's failed links and nodes (docs/faults.md), or null for none. With faults
  /// the pairs are the working ones (both ends working), a step over a failed channel is a
  /// delivery defect naming a pair and the channel, minimal means shortest over the working
  /// links, the loads' minimum, mean, perfect load and sigma are over the working channels,
  /// and no symmetry or translation is used (faults break them).
  const FaultSet* faults = nullptr;
};

/// How an analysis covers the N (N - 1) ordered pairs. Decided from the network, the
/// routing's declarations (RoutingFunction::arrival_class(), translation_invariance()) and
/// the options only, never from the number of processes, so every split gives the same
/// numbers.
struct AnalysisScope {
  enum class Coverage : std::uint8_t {
    kEveryDestination,  ///< one pass per destination, all sources at once
    kTranslations,      ///< one pass per destination class under the torus translations
    kEveryPair,         ///< one pass per (destination, source): source-dependent routings
    kSymmetries,        ///< one pass per orbit of the routing's declared network symmetries
  };
  Coverage coverage = Coverage::kEveryDestination;
  /// Arrivals merged by the routing's classes in this scope (kOptions when a CDG is built).
  ArrivalScope scope = ArrivalScope::kOptions;
  std::string merge;  ///< what a state is, in words ("one state per node and packet state")
  std::vector<NodeId> destinations;  ///< explored, in this order
  /// Destinations each explored one stands for: the translations (kTranslations), on average
  /// (kSymmetries: nodes / orbits), else 1.
  double scale = 1.0;
  /// kSymmetries: the routing's symmetries in this scope (a group, the identity among them).
  std::vector<NetworkSymmetry> symmetries;
  /// The network has faults: the destinations are its working nodes, no symmetry is used.
  bool faulty = false;
  /// Routing states expected over all passes (nodes x passes; x route length per pair): the
  /// work, for deciding up front whether an analysis fits the time there is.
  std::uint64_t estimated_states = 0;
  /// One line: what is explored and why, e.g. "1 of 4096 destinations (translation-invariant
  /// routing on a torus), states merged by input port".
  [[nodiscard]] std::string summary(const Topology& topo) const;
};

struct RoutingAnalysis {
  DeliveryReport delivery;
  ChannelDependencyGraph cdg;  ///< empty unless options.cdg
  LoadReport loads;            ///< empty unless options.loads
  AnalysisScope plan;
  std::uint64_t states_explored = 0;  ///< routing states routed, over all passes and shares
};

AnalysisScope analysis_scope(const Topology& topo, const RoutingFunction& routing,
                             const AnalysisOptions& options = {});

/// One share of an analysis split over processes: the explored destinations i with
/// i % parts == part (interleaved, so that near and far destinations spread evenly).
struct AnalysisShare {
  int part = 0;
  int parts = 1;
};

/// How the shares' partial results are combined; implemented over MPI by the caller (the
/// verifier sees no ranks). Every call is collective: all shares make the same calls in the
/// same order. The default is one share: every reduction is the identity.
class ShareReduction {
 public:
  virtual ~ShareReduction() = default;
  virtual void sum(std::span<std::uint64_t> /*values*/) const {}
  virtual void max(std::span<std::uint64_t> /*values*/) const {}
  virtual void bit_or(std::span<std::uint64_t> /*values*/) const {}
  /// Every share's text, in share order.
  [[nodiscard]] virtual std::vector<std::string> gather(const std::string& text) const {
    return {text};
  }
};

/// Runs the requested analyses in one sweep over the plan's destinations: per destination
/// O(states), where a state is (node, arrival class, packet state). With a share and a
/// reduction, this process explores its share of the destinations and the results are
/// combined into the same (bit-identical) analysis on every share.
RoutingAnalysis analyze_routing(const Topology& topo, const RoutingFunction& routing,
                                const AnalysisOptions& options = {});
RoutingAnalysis analyze_routing(const Topology& topo, const RoutingFunction& routing,
                                const AnalysisOptions& options, AnalysisShare share,
                                const ShareReduction& reduction);

/// sigma(k, R) for given loads and perfect load (exposed for tests).
double load_deviation(const std::vector<double>& gamma, double perfect, int k);

}  // namespace wormnet
