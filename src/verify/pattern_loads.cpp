#include "wormnet/verify/pattern_loads.hpp"

#include <algorithm>
#include <bit>

#include "destination_pass.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/verify/coordinate_distances.hpp"
#include "wormnet/verify/exact_sum.hpp"

namespace wormnet {

std::uint64_t estimate_pattern_states(const Topology& topo, const RoutingFunction& routing,
                                      std::uint64_t pairs, std::uint64_t route_states) {
  const std::uint64_t n = topo.num_nodes();
  const auto route = static_cast<std::uint64_t>(std::max(1, topo.diameter() / 2)) + 1;
  if (route_states > 0) return route_states;  // one route per pair, its length known
  // One pass per destination; a pass from k sources reaches at most k routes' nodes, at
  // most every node. Source-dependent routings pass once per pair.
  if (routing.source_dependent()) return pairs * route;
  const std::uint64_t per_destination = n > 0 ? (pairs + n - 1) / n : 0;
  return n * std::min(n, per_destination * route);
}

PatternLoadReport analyze_pattern_loads(const Topology& topo, const RoutingFunction& routing,
                                        const PatternColumn& column, int vcs, AnalysisShare share,
                                        const ShareReduction& reduction, const FaultSet* faults) {
  const int v = vcs > 0 ? vcs : routing.vcs_required();
  const std::uint32_t n = topo.num_nodes();
  const std::uint32_t channels = topo.num_channels();
  // Loads need the ports only, but merging arrivals by the routing's port classes is what the
  // uniform analysis proves safe only together with its other checks: the whole result
  // (kOptions) is always exact.
  const CoordinateDistances distances(topo);  // no minimality check: not read
  const FaultSet none;
  detail::DestinationPass pass(topo, routing, v, ArrivalScope::kOptions, distances,
                               faults != nullptr ? *faults : none);
  detail::PartialAnalysis part;
  part.loads.resize(channels);
  part.all_minimal = false;  // no minimality check: no distances per destination
  std::vector<PairShare> sources;
  std::vector<detail::DestinationPass::WeightedSource> weighted;
  std::uint64_t pairs = 0;
  std::uint64_t unclaimed = 0;
  std::vector<std::uint64_t> sends((n + 63) / 64, 0);  // bit s: s sends to another node
  for (auto d = static_cast<std::uint32_t>(share.part); d < n;
       d += static_cast<std::uint32_t>(share.parts)) {
    sources.clear();
    column(NodeId(d), sources);
    weighted.clear();
    for (const PairShare& s : sources) {
      require(s.source.valid() && s.source.value() < n && s.source.value() != d && s.share >= 0.0,
              "pattern loads: a source out of range, the destination itself, or a negative "
              "share");
      if (s.share > 0.0 && !routing.claims(s.source, NodeId(d))) {
        ++unclaimed;  // no route: its messages are dropped or the pattern refused
      } else if (s.share > 0.0) {
        weighted.push_back({s.source, s.share});
        sends[s.source.value() / 64] |= std::uint64_t{1} << (s.source.value() % 64);
      }
    }
    pairs += weighted.size();
    if (weighted.empty()) continue;
    if (routing.source_dependent()) {
      for (const auto& w : weighted) pass.run_weighted(NodeId(d), {&w, 1}, d, part);
    } else {
      pass.run_weighted(NodeId(d), weighted, d, part);
    }
  }

  // Combine the shares: the loads in fixed point (in chunks, to bound the limbs' memory).
  constexpr auto kLimbs = static_cast<std::size_t>(ExactSum::kLimbs);
  if (share.parts > 1) {
    constexpr std::size_t kChunk = std::size_t{1} << 18;
    std::vector<std::uint64_t> limbs;
    for (std::size_t begin = 0; begin < channels; begin += kChunk) {
      const std::size_t end = std::min<std::size_t>(channels, begin + kChunk);
      limbs.assign((end - begin) * kLimbs, 0);
      for (std::size_t c = begin; c < end; ++c) {
        part.loads[c].to_limbs(
            std::span<std::uint64_t, kLimbs>(&limbs[(c - begin) * kLimbs], kLimbs));
      }
      reduction.sum(limbs);
      for (std::size_t c = begin; c < end; ++c) {
        part.loads[c] = ExactSum::from_limbs(
            std::span<const std::uint64_t, kLimbs>(&limbs[(c - begin) * kLimbs], kLimbs));
      }
    }
  }
  std::vector<std::uint64_t> counts{part.states, pairs, unclaimed};
  reduction.sum(counts);
  reduction.bit_or(sends);

  PatternLoadReport r;
  for (const std::string& t : reduction.gather(part.defect)) {
    if (r.defect.empty()) r.defect = t;
  }
  r.states = counts[0];
  r.pairs = counts[1];
  r.unclaimed_pairs = counts[2];
  r.gamma.resize(channels);
  long double total = 0;
  for (std::uint32_t c = 0; c < channels; ++c) {
    r.gamma[c] = part.loads[c].value();
    total += r.gamma[c];
  }
  if (channels > 0) {
    r.pi = *std::max_element(r.gamma.begin(), r.gamma.end());
    r.min_load = *std::min_element(r.gamma.begin(), r.gamma.end());
    r.mean_load = static_cast<double>(total / channels);
  }
  for (const std::uint64_t w : sends) r.senders += static_cast<std::uint64_t>(std::popcount(w));
  r.offered_at_ideal = r.pi > 0 ? 1.0 / r.pi : 0.0;
  // Accepted traffic is counted per node, per working node with faults (docs/faults.md).
  const double nodes = faults != nullptr && !faults->empty()
                           ? static_cast<double>(faults->working_nodes())
                           : static_cast<double>(n);
  r.saturation_rate = r.pi > 0 ? static_cast<double>(r.senders) / (nodes * r.pi) : 0.0;
  return r;
}

}  // namespace wormnet
