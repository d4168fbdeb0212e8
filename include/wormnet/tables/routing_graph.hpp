// The Angara routing graph RG (Mukosey et al., "Optimized Graph Based Routing Algorithm for
// the Angara Interconnect", Section III-A). Every network node u has 3^n + 2n + 1 vertices:
// U_begin (injection), U_FS_j for the n + directions (reached by a first step j), U_dirbit_k
// for the 3^n - 1 non-empty direction sets that obey the direction-bit rule (one sign or none
// per dimension, used in the order +X +Y ... -X -Y ...), U_LS_j for the n - directions
// (reached by a last step j) and U_end (ejection). A path from U_begin of s to U_end of d is
// an Angara route from s to d, and every Angara route is such a path. The edges follow the
// paper's four rules:
//  1. begin -> FS_k (a + step k), begin -> dirbit{k} (any step k), begin -> end;
//  2. FS_l -> dirbit{k} for every step k after l in the order, FS_l -> end;
//  3. dirbit S -> dirbit S+{k} for a step k >= last(S) that keeps the direction-bit rule,
//     dirbit S -> LS_k for a - step k after last(S), dirbit S -> end;
//  4. LS_k -> end;
// plus the edges of the CDG augmentation (a TurnSet): FS_l -> dirbit{j} for an added turn
// l -> j (j before l) at the FS vertex's node, and dirbit S -> LS_j for an added turn
// last(S) -> j. A step needs a link, so a node at the end of a size-2 dimension (a mesh
// link) has fewer edges.
//
// On a network with faults (docs/faults.md) the graph is built over the working network: a
// step needs a working link (both ends working, the link not failed), so a failed node's
// vertices have no edges and no edge crosses a failed link. Everything else is unchanged: the
// rules are the fault-free network's, and a ring with a failed link is simply a line that
// the direction-order part can only run along, not around.
//
// Two edge sets: kLiteral is the graph above. kCanonical leaves out the order-preserving FS
// and LS edges (rule 2's edges and rule 3's LS edges). On a minimal route such a step is an
// ordinary direction-order step (an FS step l followed by k > l goes l once and never again,
// and so does the dirbit route that starts with l), so the literal graph holds each minimal
// route once as a plain dirbit path and once more per order-preserving FS/LS split. In the
// canonical graph minimal routes and paths correspond one to one, which is what route
// counting (the SSSP generator's unique routes) and the genetic algorithm's route variants
// need; the table generators search it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/tables/direction.hpp"
#include "wormnet/tables/turn_set.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet::tables {

enum class EdgeSet : std::uint8_t { kLiteral, kCanonical };

enum class StateKind : std::uint8_t { kBegin, kFirstStep, kDirbit, kLastStep, kEnd };

class RoutingGraph {
 public:
  /// A vertex of a node: 0 = begin, 1..n = FS, n+1 .. n+3^n-1 = dirbit (n + code, the code
  /// has one base-3 digit per dimension: 0 unused, 1 +, 2 -), then n LS, then end.
  using State = std::uint16_t;
  /// The "direction" of an edge to U_end: no link, the path ends at this node.
  static constexpr Direction kEndStep = -1;

  /// The graph of `topo` (1 to 6 dimensions) with the added turns `turns` (empty: none),
  /// over the working network of `faults` (null or empty: no faults; it must outlive the
  /// graph).
  explicit RoutingGraph(const Torus& topo, TurnSet turns = {}, const FaultSet* faults = nullptr);

  [[nodiscard]] const Torus& topology() const { return *topo_; }
  /// The faults the graph was built around, null without any.
  [[nodiscard]] const FaultSet* faults() const { return faults_; }
  [[nodiscard]] bool faulty() const { return faults_ != nullptr; }
  /// Whether a step in direction o leaves u over a working link.
  [[nodiscard]] bool has(NodeId u, Direction o) const {
    return ((ports_[u.value()] >> port_of(o, n_)) & 1U) != 0;
  }
  /// Node one step `o` away from v backwards (the u with u + o = v) over a working link, or
  /// invalid.
  [[nodiscard]] NodeId behind(NodeId v, Direction o) const {
    return NodeId(next_[static_cast<std::size_t>(v.value()) * static_cast<std::size_t>(2 * n_) +
                        Topology::reverse_port(port_of(o, n_))]);
  }
  [[nodiscard]] int dims() const { return n_; }
  [[nodiscard]] const TurnSet& turns() const { return turns_; }
  /// C_V(n) = 3^n + 2n + 1 vertices per node.
  [[nodiscard]] int num_states() const { return num_states_; }
  [[nodiscard]] static std::uint64_t vertices_per_node(int n);

  [[nodiscard]] State begin_state() const { return 0; }
  [[nodiscard]] State first_step_state(int dim) const { return static_cast<State>(1 + dim); }
  [[nodiscard]] State dirbit_state(int code) const { return static_cast<State>(n_ + code); }
  [[nodiscard]] State last_step_state(int dim) const {
    return static_cast<State>(n_ + pow3_ + dim);
  }
  [[nodiscard]] State end_state() const { return static_cast<State>(2 * n_ + pow3_); }
  [[nodiscard]] StateKind kind(State q) const;
  /// Direction set code of a dirbit state (1 .. 3^n - 1).
  [[nodiscard]] int dirbit_code(State q) const { return q - n_; }
  /// The code of the one-direction set {o}.
  [[nodiscard]] int single_code(Direction o) const {
    return (is_plus(o, n_) ? 1 : 2) * pow3_of_[static_cast<std::size_t>(dim_of(o, n_))];
  }
  /// Last direction (in the Angara order) of a dirbit code.
  [[nodiscard]] Direction last_direction(int code) const {
    return last_[static_cast<std::size_t>(code)];
  }
  /// Direction in which a vertex of state q is entered (FS: its step; dirbit: the last
  /// direction of its set; LS: its step); -1 for begin and end.
  [[nodiscard]] Direction arrival(State q) const;
  /// Bit i set when the dirbit code uses the - direction of dimension i.
  [[nodiscard]] std::uint8_t minus_dims(int code) const {
    return minus_[static_cast<std::size_t>(code)];
  }
  /// "begin", "FS+X", "{+X,-Y}", "LS-Z", "end".
  [[nodiscard]] std::string state_label(State q) const;

  /// Calls f(direction, next state) for every edge out of vertex (u, q) in a fixed order
  /// (base edges by rule, then added turns); direction is kEndStep for the edge to U_end of
  /// u, otherwise the step leaves u on port_of(direction) (the link exists).
  template <class F>
  void for_each_edge(NodeId u, State q, EdgeSet set, F&& f) const;
  /// Calls f(u, p, direction) for every edge (u, p) -> (v, q) that steps `direction` from u
  /// to v; q must not be the end state (its predecessors are v's own vertices).
  template <class F>
  void for_each_predecessor(NodeId v, State q, EdgeSet set, F&& f) const;

  /// Edges out of all vertices of node u (counted per node as the paper's C_E(n)).
  [[nodiscard]] std::uint64_t edges_at(NodeId u, EdgeSet set) const;
  /// The dirbit states whose last direction is o.
  [[nodiscard]] const std::vector<State>& dirbit_states_ending(Direction o) const {
    return ending_[static_cast<std::size_t>(o)];
  }

 private:
  const Torus* topo_;
  const FaultSet* faults_ = nullptr;  // null without faults
  TurnSet turns_;
  int n_;
  int pow3_;
  int num_states_;
  std::vector<int> pow3_of_;                // [dim]
  std::vector<Direction> last_;             // [code]
  std::vector<std::uint8_t> minus_;         // [code]
  std::vector<std::int16_t> extend_;        // [code * 2n + o]: code of S + {o}, -1 if not an edge
  std::vector<std::vector<State>> ending_;  // [o]
  // The working network: ports with a working link per node, and the neighbour across
  // each (invalid across a failed link), [node * 2n + port]. Without faults the topology's.
  std::vector<std::uint16_t> ports_;
  std::vector<std::uint32_t> next_;
};

// ---- inline edge enumeration (the generators' inner loops) ----

template <class F>
void RoutingGraph::for_each_edge(NodeId u, State q, EdgeSet set, F&& f) const {
  const bool literal = set == EdgeSet::kLiteral;
  const int dirs = 2 * n_;
  switch (kind(q)) {
    case StateKind::kBegin:
      for (Direction l = 0; l < n_; ++l) {
        if (!has(u, l)) continue;
        if (!literal && turns_.at(topo_->neighbor(u, port_of(l, n_)), l) == 0) continue;
        f(l, first_step_state(l));
      }
      for (Direction k = 0; k < dirs; ++k) {
        if (has(u, k)) f(k, dirbit_state(single_code(k)));
      }
      f(kEndStep, end_state());
      return;
    case StateKind::kFirstStep: {
      const Direction l = q - 1;
      if (literal) {
        for (Direction k = l + 1; k < dirs; ++k) {
          if (has(u, k)) f(k, dirbit_state(single_code(k)));
        }
        f(kEndStep, end_state());
      }
      for (unsigned m = turns_.at(u, l); m != 0; m &= m - 1) {
        const Direction j = __builtin_ctz(m);
        if (has(u, j)) f(j, dirbit_state(single_code(j)));
      }
      return;
    }
    case StateKind::kDirbit: {
      const int code = dirbit_code(q);
      const Direction last = last_[static_cast<std::size_t>(code)];
      const std::int16_t* ext = &extend_[static_cast<std::size_t>(code) * dirs];
      for (Direction k = last; k < dirs; ++k) {
        if (ext[k] >= 0 && has(u, k)) f(k, dirbit_state(ext[k]));
      }
      if (literal) {
        for (Direction k = std::max(last + 1, n_); k < dirs; ++k) {
          if (has(u, k)) f(k, last_step_state(k - n_));
        }
      }
      if (!is_plus(last, n_)) {
        for (unsigned m = turns_.at(u, last); m != 0; m &= m - 1) {
          const Direction j = __builtin_ctz(m);
          if (has(u, j)) f(j, last_step_state(j - n_));
        }
      }
      f(kEndStep, end_state());
      return;
    }
    case StateKind::kLastStep:
      f(kEndStep, end_state());
      return;
    case StateKind::kEnd:
      return;
  }
}

template <class F>
void RoutingGraph::for_each_predecessor(NodeId v, State q, EdgeSet set, F&& f) const {
  const bool literal = set == EdgeSet::kLiteral;
  switch (kind(q)) {
    case StateKind::kBegin:
    case StateKind::kEnd:
      return;
    case StateKind::kFirstStep: {
      const Direction l = q - 1;
      const NodeId u = behind(v, l);
      if (!u.valid()) return;
      if (literal || turns_.at(v, l) != 0) f(u, begin_state(), l);
      return;
    }
    case StateKind::kDirbit: {
      const int code = dirbit_code(q);
      const Direction last = last_[static_cast<std::size_t>(code)];
      const NodeId u = behind(v, last);
      if (!u.valid()) return;
      f(u, q, last);  // kept going in its last direction
      const int rest = code - single_code(last);
      if (rest != 0) {
        f(u, dirbit_state(rest), last);  // turned into its last direction here
        return;
      }
      f(u, begin_state(), last);
      if (is_plus(last, n_)) {
        // FS steps before u: order-preserving ones (l < last) are base edges; l > last needs
        // the added turn l -> last at u.
        for (Direction l = 0; l < n_; ++l) {
          if (l == last) continue;
          if (l < last ? literal : ((turns_.at(u, l) >> last) & 1U) != 0) {
            f(u, first_step_state(l), last);
          }
        }
      } else if (literal) {
        for (Direction l = 0; l < n_; ++l) f(u, first_step_state(l), last);
      }
      return;
    }
    case StateKind::kLastStep: {
      const Direction k = n_ + (q - n_ - pow3_);
      const NodeId u = behind(v, k);
      if (!u.valid()) return;
      for (Direction last = 0; last < 2 * n_; ++last) {
        if (last == k) continue;
        const bool edge = last < k ? literal : ((turns_.at(u, last) >> k) & 1U) != 0;
        if (!edge) continue;
        for (State p : ending_[static_cast<std::size_t>(last)]) f(u, p, k);
      }
      return;
    }
  }
}

}  // namespace wormnet::tables
