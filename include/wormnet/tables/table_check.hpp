// Measures and proves a routing table, rank-parallel over the sources: the paper's channel
// loads (pi = max gamma_c, sigma(4, R) against the perfect load of a minimal table, the
// minimum load, the longest route) and the verdict that the table is complete (every pair
// has a route that stays in the network and arrives), minimal (every route as long as the
// distance), obeys the Angara rules (every route is a path of the routing graph with the
// augmentation's turns) and is deadlock-free with one VC and bubble flow control: its channel
// dependency graph, built by the verifier's ChannelDependencyGraph from the table's own
// routes, has no cycle once the dependencies inside rings are set aside, and no cycle that
// leaves a ring even with them kept.
//
// The walk over the routes computes what analyze_routing() computes for TableRouting (the
// unit tests check that they agree), in one pass over the route words instead of a
// routing-state graph per pair, which matters for 4096-node tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/turn_set.hpp"
#include "wormnet/topology/fault_set.hpp"

namespace wormnet::tables {

struct TableMetrics {
  double pi = 0.0;            ///< edge-forwarding index, max gamma_c (routes)
  double sigma4 = 0.0;        ///< sigma(4, R) against perfect_load
  double min_load = 0.0;      ///< min gamma_c
  double mean_load = 0.0;     ///< sum gamma_c / |C|
  double perfect_load = 0.0;  ///< sum of pair distances / |C|
  /// Ideal uniform saturation rate (N - 1) / pi, flits/node/cycle.
  double saturation_rate = 0.0;
  int max_route_length = 0;  ///< hops
  double mean_route_length = 0.0;
  std::uint64_t pairs = 0;
};

struct TableVerdict {
  bool complete = true;
  bool minimal = true;
  bool angara_rules = true;
  bool deadlock_free = true;
  std::string defect;                   ///< first problem found (pair and reason), empty when none
  std::uint64_t cdg_edges = 0;          ///< channel dependencies of the table
  std::uint64_t ring_dependencies = 0;  ///< of which inside rings (set aside)
  std::string cycle;                    ///< a dependency cycle, described, when not deadlock-free
  [[nodiscard]] bool ok() const { return complete && minimal && angara_rules && deadlock_free; }
};

struct TableReport {
  TableMetrics metrics;
  TableVerdict verdict;
  std::vector<std::uint64_t> loads;  ///< gamma_c per channel id
  double seconds = 0.0;
};

/// Collective: checks every pair of `table` (sources split over the ranks); every rank
/// gets the same report. On a network with `faults` (docs/faults.md) the pairs are the
/// working ones (a pair with a failed end may hold any word: it carries no traffic), a route
/// over a failed channel leaves its pair incomplete (the defect names the pair and the
/// channel), and the metrics are over the working pairs and channels: (W-1)/pi, the perfect
/// load from the distances over the working links. `minimal` still compares a route with the
/// fault-free distance.
TableReport check_table(const RouteTable& table, const TurnSet& turns, const Communicator& comm,
                        const FaultSet* faults = nullptr);

/// The reason route (s, d) breaks the Angara rules with `turns`, or nullptr. Checks only the
/// FS and LS steps: an ok plan's direction-order part keeps the order and the direction-bit
/// rule by construction.
const char* angara_rule_defect(const Torus& topo, const TurnSet& turns, NodeId s, NodeId d,
                               const RoutePlan& plan);

}  // namespace wormnet::tables
