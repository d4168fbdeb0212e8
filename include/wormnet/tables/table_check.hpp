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
#include <utility>
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
  std::uint64_t pairs = 0;  ///< pairs routed: N(N-1), or the working pairs with a route
  /// Route length over the fault-free distance, mean and largest over the pairs routed (1 and
  /// 1 for a minimal table).
  double mean_stretch = 1.0;
  double max_stretch = 1.0;
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
  /// Checked on a network with faults: minimal is then no condition of ok().
  bool faulty = false;
  /// Working pairs the table does not route (kNoRoute) and that have no legal route (proven;
  /// faults only), and the first few of them in (source, destination) order.
  std::uint64_t unroutable = 0;
  std::vector<std::pair<NodeId, NodeId>> unroutable_examples;
  [[nodiscard]] bool ok() const {
    return complete && (minimal || faulty) && angara_rules && deadlock_free;
  }
};

struct TableReport {
  TableMetrics metrics;
  TableVerdict verdict;
  std::vector<std::uint64_t> loads;  ///< gamma_c per channel id
  double seconds = 0.0;
};

/// Collective: checks every pair of `table` (sources split over the ranks); every rank
/// gets the same report. On a network with `faults` (docs/faults.md, docs/tables.md section
/// 8):
///  - the pairs are the working ones (a pair with a failed end may hold any word: it carries
///    no traffic); a route over a failed channel leaves its pair incomplete (the defect names
///    the pair and the channel);
///  - a working pair whose word is kNoRoute is one the table does not claim: it counts as
///    unroutable, and the check proves that no Angara route over the working channels with
///    `turns` joins it (a search of the routing graph from its source); if one does, the pair
///    is incomplete;
///  - routes may be longer than the torus distance: `minimal` then says whether every route
///    is as short as the working network allows (the distance over the working links), and
///    is no condition of ok(); the stretch (route length over the fault-free distance) is
///    measured;
///  - deadlock freedom is judged as without faults: the dependencies inside rings are set
///    aside, and no cycle may leave a ring with them kept. A ring with a failed channel is a
///    line, whose same-direction dependencies cannot close a cycle by themselves: whatever
///    cycle goes through them also turns somewhere, so the second search finds it;
///  - the metrics are over the working pairs the table routes and the working channels:
///    (W-1)/pi, the perfect load from the distances over the working links.
TableReport check_table(const RouteTable& table, const TurnSet& turns, const Communicator& comm,
                        const FaultSet* faults = nullptr);

/// Hops of every route of `table`, [s * N + d], 0 on the diagonal, kNoLength for a pair
/// without a route (kNoRoute) or with a failed end (with `faults`). What a table file of a
/// network with faults records as its lengths.
inline constexpr std::uint16_t kNoLength = 0xFFFF;
[[nodiscard]] std::vector<std::uint16_t> route_lengths(const RouteTable& table,
                                                       const FaultSet* faults = nullptr);

/// The reason route (s, d) breaks the Angara rules with `turns`, or nullptr. Checks only the
/// FS and LS steps: an ok plan's direction-order part keeps the order and the direction-bit
/// rule by construction.
const char* angara_rule_defect(const Torus& topo, const TurnSet& turns, NodeId s, NodeId d,
                               const ExpandedRoute& plan);

}  // namespace wormnet::tables
