// The routing state graph toward one destination: every state a packet bound for `dest` can
// be in (at its source after injection, or with its head in the input buffer behind a
// channel on some VC, with some packet state), and the steps the routing function allows.
// Duato's check (extended_dependency_graph.hpp) and the turn search read it; the plain
// verifier and the load analysis walk the same states per destination (destination_pass),
// so all judge exactly the routing function the simulator runs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

class RouteStateGraph {
 public:
  /// One allowed step to state `to`; `share` is the fraction of a packet's unit that takes
  /// it when the routing's choices are split evenly (options first, then VCs of an option).
  struct Edge {
    std::uint32_t to;
    double share;
  };
  /// A state, decoded: `channel` invalid means "at node, just injected".
  struct State {
    NodeId node;        ///< router where the head is
    ChannelId channel;  ///< channel the head arrived on (invalid at injection)
    VcId vc = 0;
    RouteState route_state = 0;
  };

  /// `vcs` = virtual channels per channel (at least routing.vcs_required()). With `faults`
  /// (which must outlive the graph): packets start at working nodes only, and a step over a
  /// failed channel is a defect (not followed).
  RouteStateGraph(const Topology& topo, const RoutingFunction& routing, int vcs,
                  const FaultSet* faults = nullptr);

  /// Explores all states toward `dest` reachable from every (working) source s != dest.
  void explore(NodeId dest);
  /// Explores the states of the packets from one source only (source-dependent routings:
  /// the routing function sees it in RouteRequest::source).
  void explore(NodeId dest, NodeId source);

  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(keys_.size()); }
  [[nodiscard]] State state(std::uint32_t i) const;
  [[nodiscard]] bool is_injection(std::uint32_t i) const { return keys_[i] >= channel_states_; }
  /// Channel the head arrived on (valid only for non-injection states).
  [[nodiscard]] ChannelId channel_of(std::uint32_t i) const {
    return ChannelId(static_cast<std::uint32_t>(keys_[i] / (vcs_ * states_)));
  }
  [[nodiscard]] VcId vc_of(std::uint32_t i) const {
    return static_cast<VcId>((keys_[i] / states_) % vcs_);
  }
  [[nodiscard]] bool terminal(std::uint32_t i) const { return terminal_[i] != 0; }
  [[nodiscard]] std::span<const Edge> successors(std::uint32_t i) const {
    return {edges_.data() + offsets_[i], edges_.data() + offsets_[i + 1]};
  }
  /// The injection states (one per source and initial choice); they are states 0..roots-1.
  [[nodiscard]] std::uint32_t num_roots() const { return num_roots_; }
  /// Share of its source's packets that start in root state i (1 unless the routing lets a
  /// packet draw among initial_choices() states).
  [[nodiscard]] double root_weight(std::uint32_t i) const { return root_weight_[i]; }
  [[nodiscard]] NodeId dest() const { return dest_; }

  /// First defect found by the last explore(): a dead end (no allowed step before the
  /// destination) or a step the network cannot take. Empty when none.
  [[nodiscard]] const std::string& defect() const { return defect_; }
  [[nodiscard]] int vcs() const { return vcs_; }
  [[nodiscard]] const Topology& topology() const { return topo_; }
  [[nodiscard]] std::string describe(std::uint32_t i) const;

 private:
  void begin(NodeId dest);
  void add_root(NodeId source);
  void run();
  std::uint32_t intern(std::uint64_t key);

  const Topology& topo_;
  const RoutingFunction& routing_;
  const FaultSet* faults_;  // null: none
  int vcs_;
  std::uint64_t states_;          // routing.state_count()
  std::uint64_t channel_states_;  // num_channels * vcs * states: keys below are channel states
  NodeId dest_;
  NodeId source_;  ///< the one source of explore(dest, source); invalid for all sources
  std::uint32_t epoch_ = 0;
  std::uint32_t num_roots_ = 0;
  std::vector<double> root_weight_;   // [root]: share of the source's packets
  std::vector<std::uint32_t> stamp_;  // [key]: epoch when interned
  std::vector<std::uint32_t> index_;  // [key]: compact index when stamped
  std::vector<std::uint64_t> keys_;   // [compact]
  std::vector<std::uint8_t> terminal_;
  std::vector<std::uint32_t> offsets_;
  std::vector<Edge> edges_;
  std::string defect_;
};

}  // namespace wormnet
