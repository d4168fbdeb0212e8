// Failed links and nodes of a network (docs/faults.md). The topology itself never changes: its
// channel ids, coordinates and distances stay those of the fault-free network, and routings see
// only it (a routing that would use a failed channel is refused by the delivery check, not
// silently steered). A FaultSet says which of its links and nodes have failed, in O(1) per
// query, and offers the working network beside the topology: the ports of a node that still
// have a link (working_ports()) and its neighbours across them (working_neighbor()), for what
// must walk the network as it now is (connectivity, distances, routing-table generators).
//
// A failed link is both of its directed channels; a failed node is the node and every link
// it has (so all its channels, in and out), and it neither sends nor receives traffic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

class FaultSet {
 public:
  /// No faults, on any topology (every query answers "working").
  FaultSet() = default;
  /// No faults yet on `topo` (which must outlive this set); record them with fail_link() and
  /// fail_node().
  explicit FaultSet(const Topology& topo);

  /// Fails the link of channel `c` (both directions). The link must be working.
  void fail_link(ChannelId c);
  /// Fails node `n` and every link it has. The node must be working.
  void fail_node(NodeId n);

  /// True when nothing has failed.
  [[nodiscard]] bool empty() const { return failed_nodes_.empty() && failed_links_.empty(); }

  [[nodiscard]] bool node_failed(NodeId n) const {
    return !node_failed_.empty() && node_failed_[n.value()] != 0;
  }
  /// Bit p set when the link on port p of n has failed (a failed link or a failed end).
  [[nodiscard]] std::uint16_t failed_ports(NodeId n) const {
    return failed_ports_.empty() ? std::uint16_t{0} : failed_ports_[n.value()];
  }
  [[nodiscard]] bool port_failed(NodeId n, PortId p) const {
    return ((failed_ports(n) >> p) & 1U) != 0;
  }
  /// Whether directed channel c has failed (its link, or either of its ends).
  [[nodiscard]] bool channel_failed(ChannelId c) const {
    return !failed_ports_.empty() && port_failed(topo_->channel_source(c), topo_->channel_port(c));
  }
  /// The ports of n that have a working link: Topology::port_mask() without the failed ones
  /// (0 for a failed node).
  [[nodiscard]] std::uint16_t working_ports(const Topology& topo, NodeId n) const {
    return static_cast<std::uint16_t>(topo.port_mask(n) & ~failed_ports(n));
  }
  /// The neighbour across port p over a working link, or NodeId::invalid().
  [[nodiscard]] NodeId working_neighbor(const Topology& topo, NodeId n, PortId p) const {
    return port_failed(n, p) ? NodeId::invalid() : topo.neighbor(n, p);
  }

  /// Failed nodes, in increasing id order.
  [[nodiscard]] const std::vector<NodeId>& failed_nodes() const { return failed_nodes_; }
  /// The links failed as links (not through a failed end), each named by its channel on a +
  /// port (every link has exactly one), in the order they failed.
  [[nodiscard]] const std::vector<ChannelId>& failed_links() const { return failed_links_; }
  /// Every failed directed channel (failed links, both directions, and every channel into or
  /// out of a failed node), in increasing id order.
  [[nodiscard]] std::vector<ChannelId> failed_channels() const;

  /// Nodes that work (all of them without faults); 0 for a default-constructed set.
  [[nodiscard]] std::uint32_t working_nodes() const { return working_nodes_; }
  /// Links whose two ends work and that have not failed.
  [[nodiscard]] std::uint64_t working_links() const { return working_links_; }

  /// The link of channel c named by its + channel ("(1,0) X+"): c itself or its reverse.
  [[nodiscard]] static ChannelId link_of(const Topology& topo, ChannelId c);

  /// The same failures (nodes and links, the order links failed in aside).
  [[nodiscard]] bool same_faults(const FaultSet& other) const;

 private:
  const Topology* topo_ = nullptr;
  std::vector<std::uint8_t> node_failed_;    // [node], empty when default-constructed
  std::vector<std::uint16_t> failed_ports_;  // [node]: ports whose link failed
  std::vector<NodeId> failed_nodes_;         // sorted
  std::vector<ChannelId> failed_links_;      // as failed, + channels
  std::uint32_t working_nodes_ = 0;
  std::uint64_t working_links_ = 0;
};

}  // namespace wormnet
