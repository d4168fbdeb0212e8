// The channel loads of a traffic pattern (docs/analysis.md, "Traffic patterns"): the routes of
// the pattern's pairs, each weighted by its share of the source's messages, and the ideal
// saturation rate they give. The uniform analysis (routing_analysis.hpp) counts every ordered
// pair once and gives (N-1)/pi; a permutation (transpose, tornado, ...) sends all of a
// source's traffic along one pair, so its busiest channel, and its ideal, are its own.
// Exact for any pattern: every destination is explored, from its own sources only (the
// symmetry and translation shortcuts of the uniform analysis assume every pair is there).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {

/// A source and its weight toward one destination: T(s, d), the share of s's messages
/// bound for d (a probability; 1 for a permutation's pair).
struct PairShare {
  NodeId source;
  double share = 0.0;
};

/// The traffic matrix by columns: appends the sources of `dest` (s != dest, share > 0).
using PatternColumn = std::function<void(NodeId dest, std::vector<PairShare>& out)>;

struct PatternLoadReport {
  /// Per directed channel (all VCs together): flits per cycle through it when every node
  /// offers one flit per cycle under the pattern, i.e. the sum over the pattern's pairs of
  /// T(s, d) x the pair's route share through the channel. For a permutation: the routes of
  /// the pattern's pairs through it (integers for a deterministic routing).
  std::vector<double> gamma;
  double pi = 0.0;         ///< max gamma: the busiest channel's load
  double mean_load = 0.0;  ///< sum gamma / |C|
  double min_load = 0.0;   ///< min gamma
  /// 1/pi flits/node/cycle: the offered load (--load, of each node that sends) at which the
  /// busiest channel carries one flit per cycle.
  double offered_at_ideal = 0.0;
  /// The ideal saturation rate under the pattern, in the results' units (flits/node/cycle
  /// over all N nodes, as accepted traffic is counted): senders / (N pi). A permutation's
  /// fixed points send nothing, so this is below offered_at_ideal when there are some. For
  /// uniform traffic it would be (N-1)/pi, the uniform analysis' figure. With faults N is the
  /// working nodes (as accepted traffic is counted there).
  double saturation_rate = 0.0;
  std::uint64_t pairs = 0;  ///< ordered pairs with a positive share that the routing claims
  /// Pairs with a positive share that the routing does not claim (RoutingFunction::claims():
  /// a table made around faults): left out of the loads, as `run --drop-unroutable` drops
  /// their messages at the source (and plain `run` refuses the pattern).
  std::uint64_t unclaimed_pairs = 0;
  std::uint64_t senders = 0;  ///< nodes with a positive share toward another node
  std::uint64_t states = 0;   ///< routing states explored, over all shares
  /// A routing defect met on the pattern's routes (a dead end, an illegal step, a livelock:
  /// `verify` names it), empty when there is none; then the loads are not to be trusted.
  std::string defect;
};

/// Routing states a pattern analysis explores, about: a pass per destination from its
/// sources, each reaching the nodes of its routes, at most every node. `route_states`: the
/// sum over the pairs of their minimal distance + 1 when the caller knows it (a pattern of
/// one destination per source), else 0: half the diameter per pair is assumed.
std::uint64_t estimate_pattern_states(const Topology& topo, const RoutingFunction& routing,
                                      std::uint64_t pairs, std::uint64_t route_states = 0);

/// The loads of the pattern given by `column` (called once per destination), over `share`
/// of the destinations and combined by `reduction`: the same bits on every share and for
/// every split (loads summed in fixed point, ExactSum).
/// With `faults` (docs/faults.md) failed nodes send nothing (their columns' entries are
/// skipped) and the routes are those the routing takes around the faults.
PatternLoadReport analyze_pattern_loads(const Topology& topo, const RoutingFunction& routing,
                                        const PatternColumn& column, int vcs = 0,
                                        AnalysisShare share = {},
                                        const ShareReduction& reduction = ShareReduction{},
                                        const FaultSet* faults = nullptr);

}  // namespace wormnet
