// Honeycomb tori: the honeycomb lattice (Stojmenovic's integer x, y, z with x + y + z in
// {1, 2}, adjacent iff one coordinate differs by 1) modulo a rank-2 lattice L of translations,
// so that every node has degree 3 and wraparound links close the mesh in two directions.
//
// Three shapes, each as published:
// - honeycomb-torus:T, HT_T of Stojmenovic (IEEE TPDS 8(10), 1997): the 6T^2 nodes of H_T
//   with wraparound links whose offsets are +-(2T-1, -T, -T) and permutations (Yin et al.);
//   L is spanned by (2T, -T, -T), (-T, 2T, -T), (-T, -T, 2T). Diameter 2T.
// - honeycomb-rect:MxN, the honeycomb rectangular torus HReT(M, N) of Cho & Hsu (Inf. Proc.
//   Lett. 86, 2003): brick nodes (i, j), 0 <= i < M, 0 <= j < N, M and N even.
// - honeycomb-rhombic:MxN, the honeycomb rhombic torus HRoT(M, N) of the same paper: brick
//   nodes (i, j), 0 <= i < M, i <= j < i + N, N even.
// Brick (i, j) and lattice (x, y, z) coordinates are related by x = i, j = y - z (so
// y = (s - i + j) / 2, z = (s - i - j) / 2 with s = 1 for i + j odd, 2 for i + j even). In
// brick terms every shape is a generalized honeycomb torus GHT(m, n, d) (Cho & Hsu): L is
// spanned by the brick translations (m, d) and (0, n); HT_T = GHT(T, 6T, 3T), HReT(M, N) =
// GHT(M, N, 0), HRoT(M, N) = GHT(M, N, M). docs/honeycomb-tori.md has the derivation.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

enum class HoneycombTorusShape : std::uint8_t { kHexagonal, kRectangular, kRhombic };

class HoneycombTorus final : public Topology {
 public:
  /// An offset in lattice coordinates (x, y, z), e.g. a lattice translation or the way from
  /// one node to (an image of) another.
  using Offset = std::array<int, 3>;
  /// The shortest ways from one node to another: one offset per nearest image of the
  /// destination (several when images tie).
  struct Images {
    static constexpr int kCapacity = 12;
    std::array<Offset, kCapacity> offsets{};
    int count = 0;
    int distance = 0;
  };

  /// Ports as in H_t: X+ = 0, X- = 1, Y+ = 2, Y- = 3, Z+ = 4, Z- = 5; black nodes (sum 1) own
  /// the + ports, white nodes (sum 2) the - ports. `a` = T (hexagonal) or M, `b` = N (other
  /// shapes; ignored for the hexagonal one). Throws InputError naming --topology when the
  /// sizes do not give a simple degree-3 graph.
  HoneycombTorus(HoneycombTorusShape shape, int a, int b = 0);

  [[nodiscard]] std::string spec() const override;
  [[nodiscard]] TopologyKind kind() const override { return TopologyKind::kHoneycombTorus; }
  [[nodiscard]] Coord coords(NodeId n) const override;
  /// The node whose canonical coordinates these are (no reduction), or invalid.
  [[nodiscard]] NodeId node_at(const Coord& c) const override;
  /// Length of the shortest way over all images of b: min over v in L of |b - a + v|_1.
  [[nodiscard]] int distance(NodeId a, NodeId b) const override;
  [[nodiscard]] int diameter() const override { return diameter_; }
  /// Not meaningful: the distance is not a sum over coordinates (see distance_separable()).
  [[nodiscard]] int coordinate_distance(int /*i*/, int a, int b) const override {
    return a > b ? a - b : b - a;
  }
  [[nodiscard]] bool distance_separable() const override { return false; }
  [[nodiscard]] bool vertex_transitive() const override { return true; }

  [[nodiscard]] HoneycombTorusShape shape() const { return shape_; }
  [[nodiscard]] bool black(NodeId n) const {
    const std::size_t i = 3ULL * n.value();
    return xyz_[i] + xyz_[i + 1] + xyz_[i + 2] == 1;
  }
  /// The node at lattice point (x, y, z) reduced modulo L; invalid unless x + y + z is 1 or 2.
  [[nodiscard]] NodeId lattice_node(std::int64_t x, std::int64_t y, std::int64_t z) const;
  /// Every shortest way from a to b (one offset per nearest image of b), with the distance.
  void nearest_images(NodeId a, NodeId b, Images& out) const;
  /// True when the link on port p of n is a wraparound link: the neighbour's canonical
  /// coordinates are not n's plus the unit step.
  [[nodiscard]] bool is_wrap(NodeId n, PortId p) const;
  /// Period of coordinate k (0 = x, 1 = y, 2 = z) on the torus: every translation of L moves
  /// coordinate k by a multiple of it, so "coordinate k modulo period(k)" is a function of
  /// the node (what the dateline VCs of the honeycomb-torus routings are built on).
  [[nodiscard]] int period(int k) const { return period_[static_cast<std::size_t>(k)]; }
  /// Basis of L in lattice coordinates.
  [[nodiscard]] const std::array<Offset, 2>& basis() const { return basis_; }
  /// GHT(m, n, d) parameters of the brick form.
  [[nodiscard]] int ght_m() const { return m_; }
  [[nodiscard]] int ght_n() const { return n_; }
  [[nodiscard]] int ght_d() const { return d_; }

 protected:
  [[nodiscard]] NodeId compute_neighbor(NodeId n, PortId p) const override;

 private:
  /// Brick key of a lattice point reduced modulo L, in [0, m * n).
  [[nodiscard]] std::uint64_t reduce(std::int64_t x, std::int64_t y, std::int64_t z) const;
  void add_node(int x, int y, int z);

  HoneycombTorusShape shape_;
  int a_;
  int b_;
  int m_ = 0;  // GHT(m, n, d)
  int n_ = 0;
  int d_ = 0;
  std::array<Offset, 2> basis_{};
  std::array<int, 3> period_{};
  /// Lattice translations that can shorten a way between canonical nodes, by growing norm.
  std::vector<Offset> translations_;
  std::vector<int> translation_norms_;
  std::vector<std::int32_t> xyz_;    // [3 * node]: canonical coordinates
  std::vector<std::uint32_t> node_;  // [brick key]: node id
  int diameter_ = 0;
};

}  // namespace wormnet
