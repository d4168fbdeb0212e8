#include "wormnet/traffic/traffic_matrix.hpp"

namespace wormnet {

TrafficMatrix::TrafficMatrix(const Topology& topo, const DestinationPattern& pattern)
    : topo_(topo), pattern_(pattern) {
  const std::uint32_t n = topo.num_nodes();
  const TrafficPattern p = pattern.pattern();
  // Pairs the pattern drops (--drop-unroutable) carry nothing: a source whose one destination
  // is dropped is silent, and the random patterns lose the dropped pairs' shares (the
  // messages are drawn, then dropped, not drawn again), so their matrix is no longer uniform.
  uniform_ = (p == TrafficPattern::kUniform || p == TrafficPattern::kAllToAll) && !pattern.drops();
  const auto sends = [&pattern](std::uint32_t s, std::uint32_t d) {
    return d != s && !pattern.silent(NodeId(s)) && pattern.carries(NodeId(s), NodeId(d));
  };
  if (pattern.is_permutation()) {
    // The preimages of every node, by counting sort (sources in node order). A silent source
    // (a fixed point; with faults a failed node, or one mapped onto a failed node) sends
    // nothing.
    first_.assign(n + 1, 0);
    for (std::uint32_t s = 0; s < n; ++s) {
      const std::uint32_t d = pattern.fixed_destination(NodeId(s)).value();
      if (!sends(s, d)) {
        ++silent_;
      } else {
        ++first_[d + 1];
        ++pairs_;
      }
    }
    for (std::uint32_t d = 0; d < n; ++d) first_[d + 1] += first_[d];
    by_dest_.resize(pairs_);
    std::vector<std::uint32_t> at(first_.begin(), first_.end() - 1);
    for (std::uint32_t s = 0; s < n; ++s) {
      const std::uint32_t d = pattern.fixed_destination(NodeId(s)).value();
      if (sends(s, d)) by_dest_[at[d]++] = s;
    }
    return;
  }
  // The random patterns draw among the working nodes (all of them without faults; a failed
  // node is silent, and no destination).
  for (std::uint32_t v = 0; v < n; ++v) working_ += pattern.silent(NodeId(v)) ? 0 : 1;
  silent_ = n - working_;
  const std::uint64_t w = working_;
  pairs_ = w * (w > 0 ? w - 1 : 0);
  if (p == TrafficPattern::kHotspot) count_hotspots();
  if (pattern.drops()) {
    // Counted one by one: the dropped pairs (a table's unrouted ones) follow no formula.
    pairs_ = 0;
    std::vector<SourceShare> sources;
    for (std::uint32_t d = 0; d < n; ++d) {
      sources.clear();
      sources_of(NodeId(d), sources);
      pairs_ += sources.size();
    }
  }
}

void TrafficMatrix::count_hotspots() {
  const std::uint32_t n = topo_.num_nodes();
  const DestinationPattern& pattern = pattern_;
  const std::uint64_t w = working_;
  const std::uint64_t all = pairs_;
  std::uint64_t hot = 0;  // distinct hotspots (working ones: a failed hotspot is refused)
  hot_draws_.assign(n, 0);
  for (const std::uint32_t h : pattern.hotspots()) {
    if (h < n && hot_draws_[h]++ == 0) ++hot;
  }
  // Below a fraction of 1 the uniform part reaches every pair. At 1 only the pairs into a
  // hotspot, and those out of one (its draws of itself go uniformly), have a share: the pairs
  // between two nodes that are neither are left out.
  if (pattern.hotspot_fraction() >= 1.0 && !pattern.drops()) {
    pairs_ = all - (w - hot) * (w - hot - (w > hot ? 1 : 0));
  }
}

void TrafficMatrix::sources_of(NodeId dest, std::vector<SourceShare>& out) const {
  const std::uint32_t n = topo_.num_nodes();
  const std::uint32_t d = dest.value();
  if (pattern_.is_permutation()) {
    for (std::uint32_t k = first_[d]; k < first_[d + 1]; ++k) {
      out.push_back(SourceShare{NodeId(by_dest_[k]), 1.0});
    }
    return;
  }
  const std::uint32_t w = working_;
  if (w < 2 || pattern_.silent(dest)) return;
  const double uniform = 1.0 / (pattern_.self_traffic() ? w : w - 1);
  if (pattern_.pattern() != TrafficPattern::kHotspot) {
    for (std::uint32_t s = 0; s < n; ++s) {
      if (s != d && !pattern_.silent(NodeId(s)) && pattern_.carries(NodeId(s), dest)) {
        out.push_back(SourceShare{NodeId(s), uniform});
      }
    }
    return;
  }
  const double f = pattern_.hotspot_fraction();
  const auto entries = static_cast<double>(pattern_.hotspots().size());
  for (std::uint32_t s = 0; s < n; ++s) {
    if (s == d || pattern_.silent(NodeId(s)) || !pattern_.carries(NodeId(s), dest)) continue;
    const double share =
        f * hot_draws_[d] / entries + (1.0 - f + f * hot_draws_[s] / entries) * uniform;
    if (share > 0.0) out.push_back(SourceShare{NodeId(s), share});
  }
}

}  // namespace wormnet
