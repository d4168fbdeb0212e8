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
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

enum class HoneycombTorusShape : std::uint8_t { kHexagonal, kRectangular, kRhombic };

class HoneycombTorus final : public Topology {
 public:
  /// An offset in lattice coordinates (x, y, z), e.g. a lattice translation or the way from
  /// one node to (an image of) another.
  using Offset = std::array<int, 3>;
  /// Nearest images that tie along one line of L: the offsets first + t * step for t = 0 ..
  /// count - 1 (step is a shortest vector of L).
  struct Run {
    Offset first;
    Offset step;
    int count;
    [[nodiscard]] Offset at(int t) const {
      return {first[0] + t * step[0], first[1] + t * step[1], first[2] + t * step[2]};
    }
    [[nodiscard]] Offset last() const { return at(count - 1); }
  };
  /// The shortest ways from one node to another: one offset per nearest image of the
  /// destination (several when images tie, any number of them: thin and wide tori have
  /// hundreds), held as at most kMaxRuns runs, so no allocation however many tie. Iterating
  /// gives every offset; a routing that needs only an extreme (a lexicographic minimum, a sign
  /// somewhere) reads the ends of the runs, since each coordinate is linear along a run.
  class Images {
   public:
    /// Runs a search may hold: the lines of L that carry a nearest image lie within 4 lines of
    /// the destination, and while searching within 5 (nearest_images() has the proof).
    static constexpr int kMaxRuns = 12;

    class Iterator {
     public:
      using value_type = Offset;
      using difference_type = std::ptrdiff_t;
      Iterator() = default;
      Iterator(const Run* run, int t) : run_(run), t_(t) {}
      [[nodiscard]] Offset operator*() const { return run_->at(t_); }
      Iterator& operator++() {
        if (++t_ == run_->count) {
          ++run_;
          t_ = 0;
        }
        return *this;
      }
      Iterator operator++(int) {
        Iterator before = *this;
        ++*this;
        return before;
      }
      [[nodiscard]] bool operator==(const Iterator& o) const = default;

     private:
      const Run* run_ = nullptr;
      int t_ = 0;
    };

    /// The length of the shortest ways.
    [[nodiscard]] int distance() const { return distance_; }
    [[nodiscard]] std::span<const Run> runs() const {
      return {runs_.data(), static_cast<std::size_t>(runs_size_)};
    }
    /// Number of nearest images.
    [[nodiscard]] std::int64_t count() const {
      std::int64_t n = 0;
      for (const Run& r : runs()) n += r.count;
      return n;
    }
    [[nodiscard]] Iterator begin() const { return {runs_.data(), 0}; }
    [[nodiscard]] Iterator end() const { return {runs_.data() + runs_size_, 0}; }

   private:
    friend class HoneycombTorus;
    std::array<Run, kMaxRuns> runs_;  // only [0, runs_size_) is meaningful
    int runs_size_ = 0;
    int distance_ = 0;
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
  /// Every shortest way from a to b (one offset per nearest image of b, all ties), with the
  /// distance: the lattice points of b - a + L of least L1 norm. O(1 + number of runs): the
  /// offset is reduced against a reduced basis of L and the few lattice lines near it are
  /// searched, each in closed form (the proof that none is missed is in the source).
  void nearest_images(NodeId a, NodeId b, Images& out) const;
  /// True when the link on port p of n is a wraparound link: the neighbour's canonical
  /// coordinates are not n's plus the unit step.
  [[nodiscard]] bool is_wrap(NodeId n, PortId p) const;
  /// Period of coordinate k (0 = x, 1 = y, 2 = z) on the torus: every translation of L moves
  /// coordinate k by a multiple of it, so "coordinate k modulo period(k)" is a function of
  /// the node (what the dateline VCs of the honeycomb-torus routings are built on).
  [[nodiscard]] int period(int k) const { return period_[static_cast<std::size_t>(k)]; }
  /// Basis of L in lattice coordinates: the brick translations (m, d) and (0, n).
  [[nodiscard]] const std::array<Offset, 2>& basis() const { return basis_; }
  /// A reduced basis of L in the L1 norm: |r0| <= |r1| <= |r1 + k r0| for every integer k, so
  /// r0 is a shortest vector of L (the step of every run of Images).
  [[nodiscard]] const std::array<Offset, 2>& reduced_basis() const { return reduced_; }
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
  /// The least norm of delta + L, and with `out` every lattice point of delta + L of that
  /// norm, as runs along r0.
  int search(const std::array<std::int64_t, 3>& delta, Images* out) const;

  HoneycombTorusShape shape_;
  int a_;
  int b_;
  int m_ = 0;  // GHT(m, n, d)
  int n_ = 0;
  int d_ = 0;
  std::array<Offset, 2> basis_{};
  std::array<int, 3> period_{};
  std::array<Offset, 2> reduced_{};   // r0, r1
  std::array<std::int64_t, 3> r0_{};  // the reduced basis again, in 64 bits for search()
  std::array<std::int64_t, 3> r1_{};
  std::int64_t shortest_ = 0;  // |r0|, the least norm of a nonzero vector of L
  /// The coordinates of a point along r0 and r1 times den_ (> 0) are alpha_row_ and beta_row_
  /// applied to it (search() has their point).
  std::array<std::int64_t, 3> alpha_row_{};
  std::array<std::int64_t, 3> beta_row_{};
  std::int64_t den_ = 1;
  double inverse_den_ = 1.0;
  bool rows_fit_ = false;            // alpha and beta of every offset fit 50 bits: computed in 64
  bool lines_fit_ = false;           // the products of a line test fit 64 bits
  std::vector<std::int32_t> xyz_;    // [3 * node]: canonical coordinates
  std::vector<std::uint32_t> node_;  // [brick key]: node id
  int diameter_ = 0;
};

}  // namespace wormnet
