// The hexagonal honeycomb mesh H_t in Stojmenovic's XYZ coordinates (IEEE TPDS 8(10), 1997):
// integer (x, y, z) with -t+1 <= x, y, z <= t and x + y + z in {1, 2}; two nodes are adjacent
// iff they differ by 1 in exactly one coordinate. 6t^2 nodes, 9t^2 - 3t links, diameter 4t-1.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Node colour. Black nodes (x+y+z = 1) have their links in + directions (X+, Y+, Z+); white
/// nodes (x+y+z = 2) have theirs in - directions. (The paper's prose states the inequality
/// the wrong way round; its pseudo-code and worked example need black = sum 1.)
enum class HoneycombColor : std::uint8_t { kBlack, kWhite };

class HoneycombMesh final : public Topology {
 public:
  /// Ports: X+ = 0, X- = 1, Y+ = 2, Y- = 3, Z+ = 4, Z- = 5 (dimension 0..2 = x, y, z).
  explicit HoneycombMesh(int t);

  [[nodiscard]] std::string spec() const override;
  [[nodiscard]] TopologyKind kind() const override { return TopologyKind::kHoneycomb; }
  [[nodiscard]] Coord coords(NodeId n) const override;
  [[nodiscard]] NodeId node_at(const Coord& c) const override;
  [[nodiscard]] int distance(NodeId a, NodeId b) const override;
  [[nodiscard]] int diameter() const override { return 4 * t_ - 1; }
  [[nodiscard]] int coordinate_distance(int /*i*/, int a, int b) const override {
    return a > b ? a - b : b - a;
  }

  [[nodiscard]] int t() const { return t_; }
  /// Coordinate i (0 = x, 1 = y, 2 = z) of n, without building a Coord (routing hot path).
  [[nodiscard]] int coordinate(NodeId n, int i) const {
    return xyz_[3 * static_cast<std::size_t>(n.value()) + static_cast<std::size_t>(i)];
  }
  [[nodiscard]] HoneycombColor color(NodeId n) const;
  /// A boundary node has degree 2 (H_t has 6t of them); all others have degree 3.
  [[nodiscard]] bool is_boundary(NodeId n) const { return degree(n) == 2; }
  /// Node id for (x, y, z), or invalid; O(1) through per-(x, sum) row offsets.
  [[nodiscard]] NodeId node_at(int x, int y, int z) const;

 protected:
  [[nodiscard]] NodeId compute_neighbor(NodeId n, PortId p) const override;

 private:
  // Nodes are numbered by (x, s, y) with s = x + y + z: each (x, s) row is a contiguous range
  // of y. row_offset_/row_ylo_/row_len_ are indexed by (x - (1 - t)) * 2 + (s - 1).
  int t_;
  std::vector<std::uint32_t> row_offset_;
  std::vector<std::int32_t> row_ylo_;
  std::vector<std::int32_t> row_len_;
  std::vector<std::int16_t> xyz_;  // [3 * node]: coordinates for O(1) id -> (x, y, z)
};

}  // namespace wormnet
