#include "rank_analysis.hpp"

#include "wormnet/core/error.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace wormnet::cli {

namespace {

/// The shares' reductions as collectives over the ranks.
class RankReduction final : public ShareReduction {
 public:
  explicit RankReduction(const Communicator& comm) : comm_(comm) {}
  void sum(std::span<std::uint64_t> v) const override { comm_.sum(v); }
  void max(std::span<std::uint64_t> v) const override { comm_.max(v); }
  void bit_or(std::span<std::uint64_t> v) const override { comm_.bit_or(v); }
  [[nodiscard]] std::vector<std::string> gather(const std::string& text) const override {
    // Each rank's text with its terminating zero, concatenated in rank order.
    const std::vector<std::uint8_t> all = comm_.all_gather(std::span<const std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(text.c_str()), text.size() + 1));
    std::vector<std::string> out;
    for (std::size_t at = 0; at < all.size();) {
      const char* t = reinterpret_cast<const char*>(all.data() + at);
      out.emplace_back(t);
      at += std::strlen(t) + 1;
    }
    return out;
  }

 private:
  const Communicator& comm_;
};

}  // namespace

void require_affordable(const AnalysisScope& plan, const Communicator& comm,
                        const std::string& option, const std::string& value) {
  require_affordable(plan.estimated_states, comm, option, value);
}

void require_affordable(std::uint64_t states, const Communicator& comm, const std::string& option,
                        const std::string& value) {
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  if (states <= kExactLoadStatesPerRank * ranks) return;
  const std::uint64_t need = (states + kExactLoadStatesPerRank - 1) / kExactLoadStatesPerRank;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "needs the exact load analysis, about %.3g routing states: too many for %d "
                "rank%s (%.3g each in reasonable time); run on at least %llu ranks",
                static_cast<double>(states), comm.size(), ranks > 1 ? "s" : "",
                static_cast<double>(kExactLoadStatesPerRank),
                static_cast<unsigned long long>(need));
  throw InputError(option, value, buf);
}

RoutingAnalysis analyze_on_ranks(const Topology& topo, const RoutingFunction& routing,
                                 const AnalysisOptions& options, const Communicator& comm) {
  return analyze_routing(topo, routing, options, AnalysisShare{comm.rank(), comm.size()},
                         RankReduction(comm));
}

TimedAnalysis timed_analysis(const Topology& topo, const RoutingFunction& routing,
                             const AnalysisOptions& options, const Communicator& comm) {
  const auto t0 = std::chrono::steady_clock::now();
  TimedAnalysis t{analyze_on_ranks(topo, routing, options, comm), 0.0};
  t.seconds =
      comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return t;
}

TimedPatternAnalysis timed_pattern_analysis(const Topology& topo, const RoutingFunction& routing,
                                            const TrafficMatrix& matrix, int vcs,
                                            const Communicator& comm, const FaultSet* faults) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<SourceShare> column;
  const PatternColumn of = [&](NodeId dest, std::vector<PairShare>& out) {
    column.clear();
    matrix.sources_of(dest, column);
    for (const SourceShare& s : column) out.push_back(PairShare{s.source, s.share});
  };
  TimedPatternAnalysis t{
      analyze_pattern_loads(topo, routing, of, vcs, AnalysisShare{comm.rank(), comm.size()},
                            RankReduction(comm), faults),
      0.0};
  t.seconds =
      comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return t;
}

std::uint64_t pattern_states(const Topology& topo, const RoutingFunction& routing,
                             const TrafficMatrix& matrix) {
  std::uint64_t route_states = 0;
  if (matrix.fixed()) {
    // One route per pair: its minimal length (+1 for the arrival), a closed form per pair.
    std::vector<SourceShare> column;
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      column.clear();
      matrix.sources_of(NodeId(d), column);
      for (const SourceShare& s : column) {
        route_states += static_cast<std::uint64_t>(topo.distance(s.source, NodeId(d))) + 1;
      }
    }
  }
  return estimate_pattern_states(topo, routing, matrix.pairs(), route_states);
}

}  // namespace wormnet::cli
