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
  [[nodiscard]] int hops_in_direction(int dim, int a, int b, int sign) const {
    const int k = size(dim);
    int fwd = b - a;  // hops going +: coordinates lie in [0, k), so one correction suffices
    if (fwd < 0) fwd += k;
    if (fwd == 0) return 0;
    return sign > 0 ? fwd : k - fwd;
  }
  /// Minimal hops between coordinates a and b in dimension d.
  [[nodiscard]] int ring_distance(int dim, int a, int b) const;
  /// Coordinate of n in dimension d (no full decomposition). Routing reads it for every
  /// head flit and the analyses for every routing state, so the two divisions are done as
  /// multiplications by precomputed 64-bit reciprocals (exact for every 32-bit id).
  [[nodiscard]] int coord(NodeId n, int dim) const {
    const auto d = static_cast<std::size_t>(dim);
    const std::uint32_t q = div_[d] == 0 ? n.value() : high_word(div_[d], n.value());
    return static_cast<int>(high_word(mod_[d] * q, static_cast<std::uint32_t>(sizes_[d])));
  }
  [[nodiscard]] std::uint32_t stride(int dim) const {
    return stride_[static_cast<std::size_t>(dim)];
  }

 protected:
  [[nodiscard]] NodeId compute_neighbor(NodeId n, PortId p) const override;

 private:
  /// floor(a * b / 2^64) for a 64-bit a and a 32-bit b, in 32-bit halves (portable).
  static std::uint32_t high_word(std::uint64_t a, std::uint32_t b) {
    const std::uint64_t lo = (a & 0xFFFFFFFFU) * b;
    const std::uint64_t hi = (a >> 32) * b;
    return static_cast<std::uint32_t>((hi + (lo >> 32)) >> 32);
  }

  std::vector<int> sizes_;
  std::vector<std::uint32_t> stride_;
  // Reciprocals for coord(): n / stride = high_word(div, n) (div = 0 for stride 1), and
  // q % size = high_word(mod * q, size) with mod = 2^64 / size rounded up (Lemire et al.).
  std::vector<std::uint64_t> div_;
  std::vector<std::uint64_t> mod_;
  bool wrap_;
};

}  // namespace wormnet
