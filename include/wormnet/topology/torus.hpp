// n-dimensional torus (wrap = true) or mesh (wrap = false), 1 <= n <= 6, every size >= 2.
// Node ids are mixed-radix with dimension 0 fastest. A size-2 dimension has ONE link between
// its two nodes (node 0 uses its + port, node 1 its - port), never two parallel ones, so it is
// a mesh dimension even in a torus (as in the Angara paper).
#pragma once

#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

class Torus final : public Topology {
 public:
  /// Ports 2d and 2d+1 are the + and - directions of dimension d.
  Torus(std::vector<int> sizes, bool wrap);

  [[nodiscard]] std::string spec() const override;
  [[nodiscard]] TopologyKind kind() const override {
    return wrap_ ? TopologyKind::kTorus : TopologyKind::kMesh;
  }
  [[nodiscard]] Coord coords(NodeId n) const override;
  [[nodiscard]] NodeId node_at(const Coord& c) const override;
  [[nodiscard]] int distance(NodeId a, NodeId b) const override;
  [[nodiscard]] int diameter() const override;
  [[nodiscard]] int coordinate_distance(int i, int a, int b) const override {
    return ring_distance(i, a, b);
  }

  [[nodiscard]] const std::vector<int>& sizes() const { return sizes_; }
  [[nodiscard]] int size(int dim) const { return sizes_[static_cast<std::size_t>(dim)]; }
  [[nodiscard]] bool wrap() const { return wrap_; }
  /// True when dimension d is a ring (wrap-around and size > 2).
  [[nodiscard]] bool is_ring(int dim) const { return wrap_ && size(dim) > 2; }
  /// Hops from coordinate a to b along dimension d going in direction sign (+1/-1); for a
  /// non-ring dimension the result is valid only in the direction that reaches b.
  [[nodiscard]] int hops_in_direction(int dim, int a, int b, int sign) const;
  /// Minimal hops between coordinates a and b in dimension d.
  [[nodiscard]] int ring_distance(int dim, int a, int b) const;
  /// Coordinate of n in dimension d (no full decomposition).
  [[nodiscard]] int coord(NodeId n, int dim) const {
    return static_cast<int>((n.value() / stride_[static_cast<std::size_t>(dim)]) %
                            static_cast<std::uint32_t>(size(dim)));
  }
  [[nodiscard]] std::uint32_t stride(int dim) const {
    return stride_[static_cast<std::size_t>(dim)];
  }

 protected:
  [[nodiscard]] NodeId compute_neighbor(NodeId n, PortId p) const override;

 private:
  std::vector<int> sizes_;
  std::vector<std::uint32_t> stride_;
  bool wrap_;
};

}  // namespace wormnet
