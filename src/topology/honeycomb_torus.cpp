#include "wormnet/topology/honeycomb_torus.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <utility>

#include "wormnet/core/error.hpp"
#include "wormnet/core/int_math.hpp"

namespace wormnet {

namespace {

// The search for nearest images works on 64-bit vectors: a coordinate of a node is below 2^31
// and so is a component of a reduced basis vector; products of two are taken in 128 bits.
using Vec = std::array<std::int64_t, 3>;
__extension__ using Wide = __int128;

std::int64_t norm1(const Vec& v) {
  return std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
}

Vec widen(const HoneycombTorus::Offset& v) {
  return {v[0], v[1], v[2]};
}

HoneycombTorus::Offset narrow(const Vec& v) {
  return {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
}

// Along a lattice line a + p c (c != 0, p an integer) the norm f(p) = |a + p c|_1 is convex and
// piecewise linear in p: coordinate k contributes |a_k + p c_k|, with a kink at p = -a_k / c_k
// where its slope jumps by 2 |c_k| > 0. So f's slopes strictly increase at every kink, its
// least value over the reals is taken at a kink, and over the integers next to one.

/// f(p) = |a + p c|_1.
std::int64_t along(const Vec& a, const Vec& c, std::int64_t p) {
  return std::abs(a[0] + p * c[0]) + std::abs(a[1] + p * c[1]) + std::abs(a[2] + p * c[2]);
}

/// The least f over the integers, and the smallest p that takes it.
struct LineMin {
  std::int64_t value = std::numeric_limits<std::int64_t>::max();
  std::int64_t at = 0;
};

LineMin line_min(const Vec& a, const Vec& c) {
  LineMin best;
  for (std::size_t k = 0; k < 3; ++k) {
    if (c[k] == 0) continue;
    const std::int64_t below = floor_div(-a[k], c[k]);
    for (const std::int64_t p : {below, below + 1}) {
      const std::int64_t v = along(a, c, p);
      if (v < best.value || (v == best.value && p < best.at)) best = {v, p};
    }
  }
  return best;
}

/// Every integer p with f(p) = m.value (an interval, f being convex), from the one-sided
/// slopes of f at m.at: where the slope is 0, f stays flat up to the next kink; where it points
/// down, the real minimum lies strictly between m.at and its neighbour, which ties or not.
std::pair<std::int64_t, std::int64_t> tie_interval(const Vec& a, const Vec& c, const LineMin& m) {
  std::int64_t right = 0;  // slope of f just right of m.at
  std::int64_t left = 0;   // and just left of it
  for (std::size_t k = 0; k < 3; ++k) {
    const std::int64_t w = a[k] + m.at * c[k];
    right += w > 0 ? c[k] : (w < 0 ? -c[k] : std::abs(c[k]));
    left += w > 0 ? c[k] : (w < 0 ? -c[k] : -std::abs(c[k]));
  }
  std::int64_t hi = m.at;
  if (right < 0) {
    if (along(a, c, m.at + 1) == m.value) hi = m.at + 1;
  } else if (right == 0) {
    // Flat up to the nearest kink on the right: those of the coordinates whose sign is
    // opposite to c_k's (one exists, as f's slope grows to sum |c_k| > 0).
    hi = std::numeric_limits<std::int64_t>::max();
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int64_t w = a[k] + m.at * c[k];
      if (c[k] != 0 && w != 0 && (w > 0) != (c[k] > 0)) hi = std::min(hi, floor_div(-a[k], c[k]));
    }
  }
  std::int64_t lo = m.at;
  if (left > 0) {
    if (along(a, c, m.at - 1) == m.value) lo = m.at - 1;
  } else if (left == 0) {
    lo = std::numeric_limits<std::int64_t>::min();
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int64_t w = a[k] + m.at * c[k];
      if (c[k] != 0 && w != 0 && (w > 0) == (c[k] > 0)) lo = std::max(lo, -floor_div(a[k], c[k]));
    }
  }
  return {lo, hi};
}

/// Whether the least value of f over the reals exceeds g: it is taken at a kink p = -a_k / c_k,
/// where f(p) |c_k| = sum_j |a_j c_k - a_k c_j|. Products in Int: 128 bits, or 64 when the
/// caller knows they fit.
template <typename Int>
bool line_exceeds(const Vec& a, const Vec& c, std::int64_t g) {
  for (std::size_t k = 0; k < 3; ++k) {
    if (c[k] == 0) continue;
    Int sum = 0;
    for (std::size_t j = 0; j < 3; ++j) {
      const Int t = static_cast<Int>(a[j]) * c[k] - static_cast<Int>(a[k]) * c[j];
      sum += t < 0 ? -t : t;
    }
    if (sum <= static_cast<Int>(g) * std::abs(c[k])) return false;
  }
  return true;
}

/// An integer within 1/2 (and a rounding error) of x, |x| < 2^62.
std::int64_t nearby_integer(double x) {
  return static_cast<std::int64_t>(x >= 0 ? x + 0.5 : x - 0.5);
}

/// A basis of the lattice spanned by b0 and b1 reduced in the L1 norm (Lagrange and Gauss's
/// reduction, which holds for any norm in two dimensions): |r0| <= |r1| <= |r1 + k r0| for
/// every integer k. Each round shortens the longer vector, so it ends.
std::array<Vec, 2> reduce_basis(Vec b0, Vec b1) {
  while (true) {
    if (norm1(b1) < norm1(b0)) std::swap(b0, b1);
    const LineMin m = line_min(b1, b0);
    if (m.value >= norm1(b1)) return {b0, b1};
    for (std::size_t k = 0; k < 3; ++k) b1[k] += m.at * b0[k];
  }
}

std::string shape_spec(HoneycombTorusShape shape, int a, int b) {
  switch (shape) {
    case HoneycombTorusShape::kHexagonal:
      return "honeycomb-torus:" + std::to_string(a);
    case HoneycombTorusShape::kRectangular:
      return "honeycomb-rect:" + std::to_string(a) + "x" + std::to_string(b);
    case HoneycombTorusShape::kRhombic:
      return "honeycomb-rhombic:" + std::to_string(a) + "x" + std::to_string(b);
  }
  return "?";
}

/// Node count of a shape, checked: the sizes each shape allows (a simple graph of degree 3
/// needs N >= 4 rows in the brick form; Cho & Hsu need M and N even for HReT, N even for
/// HRoT), and at most 2^31 nodes.
std::uint32_t checked_nodes(HoneycombTorusShape shape, int a, int b) {
  const std::string spec = shape_spec(shape, a, b);
  std::uint64_t nodes = 0;
  if (shape == HoneycombTorusShape::kHexagonal) {
    if (a < 1 || a > 18000) {
      throw InputError("--topology", spec, "honeycomb-torus:T needs an integer T in [1, 18000]");
    }
    nodes = 6ULL * static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(a);
  } else {
    const bool rect = shape == HoneycombTorusShape::kRectangular;
    if (a < 2 || (rect && a % 2 != 0)) {
      throw InputError("--topology", spec,
                       rect ? "the column count M must be even and >= 2"
                            : "the column count M must be >= 2 (M = 1 doubles links)");
    }
    if (b < 4 || b % 2 != 0) {
      throw InputError("--topology", spec,
                       "the row count N must be even and >= 4 (N = 2 doubles links)");
    }
    nodes = static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b);
  }
  if (nodes > (1ULL << 31)) throw InputError("--topology", spec, "at most 2^31 nodes");
  return static_cast<std::uint32_t>(nodes);
}

}  // namespace

HoneycombTorus::HoneycombTorus(HoneycombTorusShape shape, int a, int b)
    : Topology(checked_nodes(shape, a, b), 6), shape_(shape), a_(a), b_(b) {
  switch (shape) {
    case HoneycombTorusShape::kHexagonal:
      m_ = a;
      n_ = 6 * a;
      d_ = 3 * a;
      b_ = 0;
      break;
    case HoneycombTorusShape::kRectangular:
      m_ = a;
      n_ = b;
      d_ = 0;
      break;
    case HoneycombTorusShape::kRhombic:
      m_ = a;
      n_ = b;
      d_ = a;
      break;
  }
  // Brick translations (m, d) and (0, n) in lattice coordinates: x = i, y - z = j, and a
  // translation keeps x + y + z, so y + z = -x.
  basis_[0] = {m_, (d_ - m_) / 2, -(m_ + d_) / 2};
  basis_[1] = {0, n_ / 2, -n_ / 2};
  for (int k = 0; k < 3; ++k) {
    period_[static_cast<std::size_t>(k)] =
        std::gcd(std::abs(basis_[0][static_cast<std::size_t>(k)]),
                 std::abs(basis_[1][static_cast<std::size_t>(k)]));
  }

  xyz_.reserve(3ULL * num_nodes());
  if (shape == HoneycombTorusShape::kHexagonal) {
    // The nodes of H_T, numbered like HoneycombMesh (x, then x + y + z, then y).
    const int lo = 1 - a;
    for (int x = lo; x <= a; ++x) {
      for (int s = 1; s <= 2; ++s) {
        for (int y = std::max(lo, s - x - a); y <= std::min(a, s - x - lo); ++y) {
          add_node(x, y, s - x - y);
        }
      }
    }
  } else {
    for (int i = 0; i < m_; ++i) {
      const int j0 = shape == HoneycombTorusShape::kRhombic ? i : 0;
      for (int j = j0; j < j0 + n_; ++j) {
        const int s = (i + j) % 2 != 0 ? 1 : 2;
        add_node(i, (s - i + j) / 2, (s - i - j) / 2);
      }
    }
  }
  require(xyz_.size() == 3ULL * num_nodes(), "honeycomb torus: node count");

  node_.assign(num_nodes(), std::numeric_limits<std::uint32_t>::max());
  for (std::uint32_t id = 0; id < num_nodes(); ++id) {
    const std::size_t i = 3ULL * id;
    std::uint32_t& slot = node_[reduce(xyz_[i], xyz_[i + 1], xyz_[i + 2])];
    require(slot == std::numeric_limits<std::uint32_t>::max(),
            "honeycomb torus: two nodes are the same lattice class");
    slot = id;
  }

  const std::array<Vec, 2> r = reduce_basis(widen(basis_[0]), widen(basis_[1]));
  reduced_ = {narrow(r[0]), narrow(r[1])};
  r0_ = r[0];
  r1_ = r[1];
  shortest_ = norm1(r[0]);
  // c = -delta + (s/3)(1, 1, 1) = alpha r0 + beta r1 (see search()): by Cramer's rule on x and y,
  // alpha = (c_x r1_y - c_y r1_x) / det and beta = (r0_x c_y - r0_y c_x) / det; times 3 det,
  // with s = delta_x + delta_y + delta_z, both are integer rows applied to delta.
  const std::int64_t det = r[0][0] * r[1][1] - r[0][1] * r[1][0];
  require(det != 0, "honeycomb torus: a degenerate lattice");
  const Vec& u = r[0];
  const Vec& v = r[1];
  alpha_row_ = {-v[0] - 2 * v[1], 2 * v[0] + v[1], v[1] - v[0]};
  beta_row_ = {u[0] + 2 * u[1], -2 * u[0] - u[1], u[0] - u[1]};
  den_ = 3 * det;
  if (den_ < 0) {
    den_ = -den_;
    for (std::size_t k = 0; k < 3; ++k) {
      alpha_row_[k] = -alpha_row_[k];
      beta_row_[k] = -beta_row_[k];
    }
  }
  inverse_den_ = 1.0 / static_cast<double>(den_);
  // The offsets searched are differences of canonical coordinates.
  std::int64_t span = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    std::int64_t lo = xyz_[k];
    std::int64_t hi = xyz_[k];
    for (std::size_t i = k; i < xyz_.size(); i += 3) {
      lo = std::min<std::int64_t>(lo, xyz_[i]);
      hi = std::max<std::int64_t>(hi, xyz_[i]);
    }
    span = std::max(span, hi - lo);
  }
  std::int64_t row = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    row = std::max({row, std::abs(alpha_row_[k]), std::abs(beta_row_[k])});
  }
  rows_fit_ = static_cast<Wide>(3) * row * span < (static_cast<Wide>(1) << 50);
  // A line searched has a = delta + q r1 with |delta| <= 1 + (|r0| + |r1|) / 2 (Babai) and
  // |q| <= 6 (the proof at search()), so |a_j c_k| <= (1 + 8 |r1|) |r0|; line_exceeds sums
  // six such products (in practice always in 64 bits: |r0| |r1| is of the order of N).
  lines_fit_ =
      static_cast<Wide>(6) * (1 + 8 * norm1(r[1])) * norm1(r[0]) < (static_cast<Wide>(1) << 62);

  build_adjacency();
  for (std::uint32_t id = 0; id < num_nodes(); ++id) {
    const NodeId n(id);
    require(degree(n) == 3, "honeycomb torus: a node without three links");
    const NodeId x = neighbor(n, 0 + (black(n) ? 0 : 1));
    const NodeId y = neighbor(n, 2 + (black(n) ? 0 : 1));
    const NodeId z = neighbor(n, 4 + (black(n) ? 0 : 1));
    if (x == y || y == z || x == z) {
      throw InputError("--topology", spec(), "these sizes join two nodes by two links");
    }
  }
  // Every node sees the same distances (translations and the point reflection p -> 1 - p
  // are automorphisms), so two nodes of different colours give the diameter.
  const NodeId other = neighbor(NodeId(0), black(NodeId(0)) ? 0 : 1);
  for (std::uint32_t id = 0; id < num_nodes(); ++id) {
    diameter_ = std::max({diameter_, distance(NodeId(0), NodeId(id)), distance(other, NodeId(id))});
  }
}

void HoneycombTorus::add_node(int x, int y, int z) {
  xyz_.push_back(x);
  xyz_.push_back(y);
  xyz_.push_back(z);
}

std::string HoneycombTorus::spec() const {
  return shape_spec(shape_, a_, b_);
}

Coord HoneycombTorus::coords(NodeId n) const {
  Coord c;
  c.n = 3;
  const std::size_t i = 3ULL * n.value();
  c[0] = xyz_[i];
  c[1] = xyz_[i + 1];
  c[2] = xyz_[i + 2];
  return c;
}

std::uint64_t HoneycombTorus::reduce(std::int64_t x, std::int64_t y, std::int64_t z) const {
  // Brick coordinates, then i into [0, m) by whole translations (m, d), then j modulo n.
  std::int64_t i = x;
  std::int64_t j = y - z;
  const std::int64_t k = floor_div(i, m_);
  i -= k * m_;
  j = floor_mod(j - k * d_, n_);
  return static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(n_) +
         static_cast<std::uint64_t>(j);
}

NodeId HoneycombTorus::lattice_node(std::int64_t x, std::int64_t y, std::int64_t z) const {
  const std::int64_t s = x + y + z;
  if (s != 1 && s != 2) return NodeId::invalid();
  return NodeId(node_[reduce(x, y, z)]);
}

NodeId HoneycombTorus::node_at(const Coord& c) const {
  if (c.n != 3) return NodeId::invalid();
  const NodeId n = lattice_node(c[0], c[1], c[2]);
  return n.valid() && coords(n) == c ? n : NodeId::invalid();
}

// The nearest images of b seen from a are the points w = offset + v, v in L, of least L1 norm,
// where offset = b - a (canonical coordinates) has x + y + z = s in {-1, 0, 1}. Why the search
// below finds all of them, and few lines:
//
// - Let c = -offset + (s/3)(1, 1, 1), a real point of the plane of L, with coordinates
//   (alpha, beta) in the reduced basis: c = alpha r0 + beta r1. |offset + c| = |s|, the least
//   norm of any point of the plane x + y + z = s (|w|_1 >= |w_x + w_y + w_z|).
// - Babai's rounding: v0 = round(alpha) r0 + round(beta) r1 is a lattice point with
//   |offset + v0| <= |s| + (|r0| + |r1|) / 2. The search works on delta = offset + v0 (the same
//   set delta + L, smaller numbers), whose c has coordinates (alpha, beta) - the rounded ones.
// - Shortcut: when 2 |delta| < |r0|, the least norm of a nonzero vector of L (|r0| <= |r1| <=
//   |p r0 + r1| for every p, and |p r0 + q r1| >= |q| h >= |r1| for |q| >= 2 with h below), every
//   other point has |delta + v| >= |v| - |delta| > |delta|: delta is the only nearest image.
// - Otherwise, with v = p r0 + q r1 (p, q integers), each q gives a lattice line, along which
//   the least norm and its ties come in closed form (line_min, tie_interval). g(q), the least
//   norm over the REAL points of line q, is convex in q (a partial minimum of a convex
//   function) and least at q = beta, so it never decreases as q moves away from beta on either
//   side. The search takes the lines q = floor(beta), floor(beta) - 1, ..., then floor(beta) + 1,
//   floor(beta) + 2, ..., and stops in each direction at the first line with g(q) > G, G the
//   least norm found so far: every line beyond has g > G >= the final least norm, so it holds no
//   nearest image. This is complete for any basis.
// - Few lines, because the basis is reduced. Let h = min over real t of |r1 + t r0|; with k the
//   integer nearest t, |r1| <= |r1 + k r0| <= h + |r0| / 2 <= h + |r1| / 2, so h >= |r1| / 2. A
//   point of line q is at least |q - beta| h from c, so g(q) >= |q - beta| h - |s|. As the least
//   norm is at most |s| + |r1| (Babai), a line with a nearest image has |q - beta| <= (2 |s| +
//   |r1|) / h <= 2 + 4 |s| / |r1| <= 4 (|r1| >= 2): at most 9 lines carry runs. The first line
//   gives G < |s| + 1.5 |r1|, so the search holds runs of at most 11 lines at any time and meets
//   at most 11 lines before the two that stop it: O(1) per lookup, plus the runs written.
int HoneycombTorus::search(const Vec& offset, Images* out) const {
  const Vec& r0 = r0_;
  const Vec& r1 = r1_;
  // (alpha, beta) times den_, then integers near them: any integers serve Babai's point, and kb
  // is within 1 of beta (|beta| < 2^50, well inside a double's 53 bits), so floor(beta - kb),
  // delta's floor(beta), is -1 or 0. In 64 bits when the rows and offsets are small enough
  // (decided once, in the constructor), else in 128.
  std::int64_t ka = 0;
  std::int64_t kb = 0;
  bool below = false;  // beta < kb
  if (rows_fit_) {
    std::int64_t alpha = 0;
    std::int64_t beta = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      alpha += alpha_row_[k] * offset[k];
      beta += beta_row_[k] * offset[k];
    }
    ka = nearby_integer(static_cast<double>(alpha) * inverse_den_);
    kb = nearby_integer(static_cast<double>(beta) * inverse_den_);
    below = beta < kb * den_;
  } else {
    Wide alpha = 0;
    Wide beta = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      alpha += static_cast<Wide>(alpha_row_[k]) * offset[k];
      beta += static_cast<Wide>(beta_row_[k]) * offset[k];
    }
    ka = nearby_integer(static_cast<double>(alpha) * inverse_den_);
    kb = nearby_integer(static_cast<double>(beta) * inverse_den_);
    below = beta < static_cast<Wide>(kb) * den_;
  }
  const Vec delta{offset[0] + ka * r0[0] + kb * r1[0], offset[1] + ka * r0[1] + kb * r1[1],
                  offset[2] + ka * r0[2] + kb * r1[2]};
  const std::int64_t base = norm1(delta);
  if (2 * base < shortest_) {
    if (out != nullptr) {
      out->runs_[0] = Run{narrow(delta), reduced_[0], 1};
      out->runs_size_ = 1;
      out->distance_ = static_cast<int>(base);
    }
    return static_cast<int>(base);
  }
  const std::int64_t first = below ? -1 : 0;
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  if (out != nullptr) out->runs_size_ = 0;
  for (const std::int64_t dir : {-1, 1}) {
    for (std::int64_t q = dir < 0 ? first : first + 1;; q += dir) {
      const Vec a{delta[0] + q * r1[0], delta[1] + q * r1[1], delta[2] + q * r1[2]};
      if (best != std::numeric_limits<std::int64_t>::max() &&
          (lines_fit_ ? line_exceeds<std::int64_t>(a, r0, best)
                      : line_exceeds<Wide>(a, r0, best))) {
        break;
      }
      const LineMin m = line_min(a, r0);
      if (m.value > best) continue;
      if (m.value < best) {
        best = m.value;
        if (out != nullptr) out->runs_size_ = 0;
      }
      if (out == nullptr) continue;
      const auto [lo, hi] = tie_interval(a, r0, m);
      require(out->runs_size_ < Images::kMaxRuns, "honeycomb torus: too many lines of images");
      out->runs_[static_cast<std::size_t>(out->runs_size_++)] =
          Run{narrow({a[0] + lo * r0[0], a[1] + lo * r0[1], a[2] + lo * r0[2]}), reduced_[0],
              static_cast<int>(hi - lo + 1)};
    }
  }
  if (out != nullptr) out->distance_ = static_cast<int>(best);
  return static_cast<int>(best);
}

void HoneycombTorus::nearest_images(NodeId a, NodeId b, Images& out) const {
  const std::size_t i = 3ULL * a.value();
  const std::size_t j = 3ULL * b.value();
  search({xyz_[j] - xyz_[i], xyz_[j + 1] - xyz_[i + 1], xyz_[j + 2] - xyz_[i + 2]}, &out);
}

int HoneycombTorus::distance(NodeId a, NodeId b) const {
  const std::size_t i = 3ULL * a.value();
  const std::size_t j = 3ULL * b.value();
  return search({xyz_[j] - xyz_[i], xyz_[j + 1] - xyz_[i + 1], xyz_[j + 2] - xyz_[i + 2]}, nullptr);
}

bool HoneycombTorus::is_wrap(NodeId n, PortId p) const {
  const NodeId m = neighbor(n, p);
  if (!m.valid()) return false;
  Coord c = coords(n);
  c[port_dim(p)] += port_sign(p);
  return coords(m) != c;
}

NodeId HoneycombTorus::compute_neighbor(NodeId n, PortId p) const {
  const Coord c = coords(n);
  const int sign = port_sign(p);
  if (black(n) != (sign > 0)) return NodeId::invalid();
  std::array<std::int64_t, 3> q{c[0], c[1], c[2]};
  q[static_cast<std::size_t>(port_dim(p))] += sign;
  return lattice_node(q[0], q[1], q[2]);
}

}  // namespace wormnet
