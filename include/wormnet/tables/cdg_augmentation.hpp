// CDG augmentation by used-direction sets (Mukosey et al., Section III-B, Theorem 2 and its
// two-stage algorithm). The channel dependency graph of the plain routing graph (every
// dependency an Angara route may create: any turn that keeps the direction order, and going
// on in the same direction) is augmented by turns against the order that cannot close a
// cycle: the edge [(u, i), (v, j)] may be added when direction i is not in B(v, j), the set
// of directions of every channel reachable from (v, j). A cycle through the new edge would
// need a path from (v, j) back to (u, i), whose direction i would then be in B(v, j).
//
// Stage 1 computes B for every channel. The paper runs a BFS from every vertex; we compute
// the same sets as the least fixpoint of B(c) = {dir(c)} + union of B(successors), which is
// what the |C| searches produce, in O(passes x edges) instead of O(|C| x edges).
// Stage 2 visits the channels (u, i) in channel id order (source node, then port) and, for
// each, the channels (v, j) leaving its head in the Angara direction order, and adds every
// candidate edge whose direction i is not in B(v, j); after each addition B(v, j) is added to
// every channel that reaches (u, i) (a reverse search, stopped where the set already holds
// it: sets only grow along reversed edges, so nothing beyond would change). The paper
// repeats stage 2 until no edge is added; since sets only grow, a rejected candidate stays
// rejected and the second pass never adds anything (we run it to show that).
//
// Which candidates: the routing graph can use an added turn only as a non-standard first
// step (i and j both +, j before i: U_FS_i -> U_dirbit{j}) or last step (i and j both -,
// j before i: U_dirbit(last i) -> U_LS_j). The paper's text says "all neighbour vertices";
// a turn from a - to a + direction would be added to the CDG but no route could ever take
// it, and its used directions would only block usable turns. We add the usable ones by
// default (Candidates::kUsable) and keep the literal reading (kAll) for comparison.
//
// On a network with faults the CDG is the working network's: a failed channel has no
// dependency in or out (no route can take it), so the used-direction sets are those reachable
// over working channels only. They can only be smaller than the fault-free ones, so a turn
// may be added that the fault-free network had to refuse (a ring broken by a failed link no
// longer carries a direction all the way round), and Theorem 2 holds on the working
// network as it does on the whole one: the augmented CDG's only cycles run round an intact
// ring in one direction.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/tables/turn_set.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"

namespace wormnet::tables {

class CdgAugmentation {
 public:
  enum class Candidates : std::uint8_t {
    kUsable,  ///< FS-type (+ to an earlier +) and LS-type (- to an earlier -) turns
    kAll,     ///< every turn against the direction order (the paper's literal text)
  };
  struct Stats {
    std::uint64_t base_edges = 0;  ///< dependencies of the plain routing graph
    std::uint64_t candidates = 0;  ///< candidate edges examined in the first pass
    std::uint64_t added_first_step = 0;
    std::uint64_t added_last_step = 0;
    std::uint64_t added_unusable = 0;  ///< - to + turns (Candidates::kAll only)
    int passes = 0;                    ///< stage-2 passes, the last one adding nothing
  };

  /// Runs both stages on `topo`, over the working network of `faults` (null or empty: no
  /// faults; it must outlive the augmentation).
  explicit CdgAugmentation(const Torus& topo, Candidates candidates = Candidates::kUsable,
                           const FaultSet* faults = nullptr);

  /// The added turns the routing graph can use (input of RoutingGraph).
  [[nodiscard]] const TurnSet& turns() const { return turns_; }
  [[nodiscard]] const Stats& stats() const { return stats_; }

  /// Bit p set: dependency from channel c to the channel leaving c's head on port p.
  [[nodiscard]] std::uint16_t successors(ChannelId c) const { return adj_[c.value()]; }
  [[nodiscard]] std::uint16_t base_successors(ChannelId c) const { return base_adj_[c.value()]; }
  /// B(c) after augmentation: bit o set when a channel of direction o is reachable from c.
  [[nodiscard]] std::uint16_t used_directions(ChannelId c) const { return used_[c.value()]; }

  /// The augmented CDG as the verifier's graph (one VC, ring-internal dependencies set aside
  /// for shortest_cycle(), kept for cycle_through_turn()).
  [[nodiscard]] ChannelDependencyGraph to_verifier_graph() const;

 private:
  void build_base();
  void compute_used_directions();
  /// One pass of stage 2; returns the number of edges added.
  std::uint64_t add_pass(Candidates candidates);
  void propagate(ChannelId from, std::uint16_t directions);

  [[nodiscard]] bool working(ChannelId c) const {
    return faults_ == nullptr || !faults_->channel_failed(c);
  }

  const Torus& topo_;
  const FaultSet* faults_;  // null without faults
  int n_;
  TurnSet turns_;
  Stats stats_;
  std::vector<std::uint16_t> adj_;       // [channel]: successor ports (augmented)
  std::vector<std::uint16_t> base_adj_;  // [channel]: successor ports (plain graph)
  std::vector<std::uint16_t> used_;      // [channel]: B(c), direction bits
  std::vector<std::uint32_t> stack_;
};

}  // namespace wormnet::tables
