// The network graph: routers, their ports, neighbours, coordinates and dense channel ids.
// Routing, the verifier and the simulator read it; nothing writes it after construction.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/core/enum_names.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

/// kHoneycombTorus covers the three honeycomb tori (hexagonal, rectangular, rhombic).
enum class TopologyKind : std::uint8_t { kHoneycomb, kTorus, kMesh, kHoneycombTorus };
/// A kind's name is the results file's /topology attribute `kind` and the spec's prefix
/// ("honeycomb-torus:T"); its help is how the catalogs (--help, info, the README) head the
/// kind's routings, in the plural where the kind covers several shapes.
inline constexpr EnumName<TopologyKind> kTopologyKindNames[] = {
    {TopologyKind::kHoneycomb, "honeycomb", "honeycomb"},
    {TopologyKind::kTorus, "torus", "torus"},
    {TopologyKind::kMesh, "mesh", "mesh"},
    {TopologyKind::kHoneycombTorus, "honeycomb-torus", "honeycomb tori"},
};
constexpr std::span<const EnumName<TopologyKind>> enum_names(TopologyKind) {
  return kTopologyKindNames;
}

/// Node coordinates: up to 6 integers (honeycomb: x, y, z; torus/mesh: one per dimension).
struct Coord {
  std::array<std::int32_t, 6> c{};
  int n = 0;
  constexpr std::int32_t operator[](int i) const { return c[static_cast<std::size_t>(i)]; }
  constexpr std::int32_t& operator[](int i) { return c[static_cast<std::size_t>(i)]; }
  bool operator==(const Coord& o) const = default;
};

/// A network of routers joined by bidirectional links. Port p of every router belongs to
/// dimension p / 2 with direction + (even p) or - (odd p); the link that leaves a router on
/// port p arrives at the neighbour on port reverse_port(p) = p ^ 1. A link is two directed
/// channels; channels have dense ids in [0, num_channels()), ordered by (source node, port).
class Topology {
 public:
  virtual ~Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  /// Canonical specification, e.g. "honeycomb:6", "torus:8x8x8", "mesh:16x16".
  [[nodiscard]] virtual std::string spec() const = 0;
  [[nodiscard]] virtual TopologyKind kind() const = 0;
  /// Coordinates of a node (honeycomb: Stojmenovic's x, y, z; torus/mesh: one per dimension).
  [[nodiscard]] virtual Coord coords(NodeId n) const = 0;
  /// The node at these coordinates, or NodeId::invalid() if there is none.
  [[nodiscard]] virtual NodeId node_at(const Coord& c) const = 0;
  /// Minimal hop distance between two nodes (closed form, O(dimensions), on tori, meshes and
  /// H_t; a search over the nearest images on the honeycomb tori).
  [[nodiscard]] virtual int distance(NodeId a, NodeId b) const = 0;
  /// Largest distance over all pairs (closed form).
  [[nodiscard]] virtual int diameter() const = 0;
  /// When distance_separable(): distance(a, b) = sum over coordinates i of
  /// coordinate_distance(i, a_i, b_i) (|a - b| in H_t and meshes, ring distance in tori).
  [[nodiscard]] virtual int coordinate_distance(int i, int a, int b) const = 0;
  /// False when distance() is not such a sum (honeycomb tori: the shortest way picks one
  /// image of the destination for all coordinates together); coordinate_distance() is then
  /// not meaningful.
  [[nodiscard]] virtual bool distance_separable() const { return true; }
  /// True when every node sees the same distance distribution (an automorphism maps any node
  /// to any other); metrics then sum the distances from one node only.
  [[nodiscard]] virtual bool vertex_transitive() const { return false; }
  /// Name of a dimension: "X", "Y", "Z", "K", "L", "M".
  [[nodiscard]] static const char* dim_name(int dim);

  [[nodiscard]] std::uint32_t num_nodes() const { return num_nodes_; }
  [[nodiscard]] int num_ports() const { return num_ports_; }
  [[nodiscard]] int num_dims() const { return num_ports_ / 2; }
  [[nodiscard]] std::uint32_t num_channels() const {
    return static_cast<std::uint32_t>(channel_node_.size());
  }
  [[nodiscard]] std::uint32_t num_links() const { return num_channels() / 2; }

  /// Neighbour across port p, or NodeId::invalid() when the port has no link.
  [[nodiscard]] NodeId neighbor(NodeId n, PortId p) const {
    return NodeId(neighbor_[static_cast<std::size_t>(n.value()) * num_ports_ + p]);
  }
  [[nodiscard]] bool has_port(NodeId n, PortId p) const {
    return (port_mask_[n.value()] >> p) & 1U;
  }
  /// Bit p set when port p of n has a link.
  [[nodiscard]] std::uint16_t port_mask(NodeId n) const { return port_mask_[n.value()]; }
  [[nodiscard]] int degree(NodeId n) const;
  /// The directed channel leaving n on port p, or ChannelId::invalid().
  [[nodiscard]] ChannelId channel(NodeId n, PortId p) const;
  [[nodiscard]] NodeId channel_source(ChannelId c) const {
    return NodeId(channel_node_[c.value()]);
  }
  [[nodiscard]] PortId channel_port(ChannelId c) const { return channel_port_[c.value()]; }
  [[nodiscard]] NodeId channel_dest(ChannelId c) const {
    return neighbor(channel_source(c), channel_port(c));
  }
  /// First channel id of node n; its channels are first_channel(n) .. first_channel(n+1)-1.
  [[nodiscard]] std::uint32_t first_channel(NodeId n) const { return channel_base_[n.value()]; }

  static constexpr PortId reverse_port(PortId p) { return static_cast<PortId>(p ^ 1U); }
  /// The same for a port held as an int (the router's loops): no narrowing on the way.
  static constexpr int reverse_port(int p) { return p ^ 1; }
  static constexpr int port_dim(PortId p) { return p / 2; }
  /// +1 for even ports, -1 for odd ports.
  static constexpr int port_sign(PortId p) { return (p & 1U) ? -1 : 1; }
  static constexpr PortId port_of(int dim, int sign) {
    return static_cast<PortId>(2 * dim + (sign < 0 ? 1 : 0));
  }
  /// "X+", "Y-", ...
  [[nodiscard]] static std::string port_label(PortId p);
  /// "(1,2,-1)" for the honeycomb, "(3,0,7)" for a torus.
  [[nodiscard]] std::string node_label(NodeId n) const;
  /// "(1,2,-1) Y-" : the channel's source node and direction.
  [[nodiscard]] std::string channel_label(ChannelId c) const;

 protected:
  Topology(std::uint32_t num_nodes, int num_ports);
  /// Derived classes call this at the end of their constructor: fills the neighbour table
  /// from compute_neighbor() and numbers the channels.
  void build_adjacency();
  /// Neighbour across port p, computed from coordinates (used once, by build_adjacency()).
  [[nodiscard]] virtual NodeId compute_neighbor(NodeId n, PortId p) const = 0;

 private:
  std::uint32_t num_nodes_;
  int num_ports_;
  std::vector<std::uint32_t> neighbor_;      // [node * num_ports + port], UINT32_MAX = none
  std::vector<std::uint16_t> port_mask_;     // [node]
  std::vector<std::uint32_t> channel_base_;  // [node], prefix sum of degrees (size N + 1)
  std::vector<std::uint32_t> channel_node_;  // [channel]
  std::vector<std::uint8_t> channel_port_;   // [channel]
};

}  // namespace wormnet
