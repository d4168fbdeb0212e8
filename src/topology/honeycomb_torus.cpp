#include "wormnet/topology/honeycomb_torus.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "wormnet/core/error.hpp"
#include "wormnet/core/int_math.hpp"

namespace wormnet {

namespace {

int norm1(const HoneycombTorus::Offset& v) {
  return std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
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

  // Translations that can shorten a way: |b - a + v| <= |b - a| needs |v| <= 2 |b - a|, and
  // |b - a| is at most the sum of the coordinate ranges of the canonical nodes.
  std::array<int, 3> lo{};
  std::array<int, 3> hi{};
  for (int k = 0; k < 3; ++k) {
    lo[static_cast<std::size_t>(k)] = hi[static_cast<std::size_t>(k)] =
        xyz_[static_cast<std::size_t>(k)];
  }
  for (std::size_t i = 0; i < xyz_.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], xyz_[i]);
    hi[i % 3] = std::max(hi[i % 3], xyz_[i]);
  }
  const std::int64_t bound = 2LL * ((hi[0] - lo[0]) + (hi[1] - lo[1]) + (hi[2] - lo[2]));
  const std::int64_t pmax = bound / m_ + 1;
  for (std::int64_t p = -pmax; p <= pmax; ++p) {
    const std::int64_t qmax = (bound + std::abs(p * d_)) / n_ + 1;
    for (std::int64_t q = -qmax; q <= qmax; ++q) {
      Offset v{};
      for (std::size_t k = 0; k < 3; ++k) {
        v[k] = static_cast<int>(p * basis_[0][k] + q * basis_[1][k]);
      }
      if (norm1(v) <= bound) translations_.push_back(v);
    }
  }
  std::sort(translations_.begin(), translations_.end(), [](const Offset& u, const Offset& v) {
    return norm1(u) != norm1(v) ? norm1(u) < norm1(v) : u < v;
  });
  for (const Offset& v : translations_) translation_norms_.push_back(norm1(v));

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

void HoneycombTorus::nearest_images(NodeId a, NodeId b, Images& out) const {
  const std::size_t i = 3ULL * a.value();
  const std::size_t j = 3ULL * b.value();
  const Offset delta{xyz_[j] - xyz_[i], xyz_[j + 1] - xyz_[i + 1], xyz_[j + 2] - xyz_[i + 2]};
  const int base = norm1(delta);
  out.count = 0;
  out.distance = base;
  // By growing |v|: |delta + v| >= |v| - |delta|, so once |v| exceeds |delta| + best no
  // later translation reaches the best again.
  for (std::size_t t = 0; t < translations_.size(); ++t) {
    if (translation_norms_[t] > base + out.distance) break;
    const Offset& v = translations_[t];
    const Offset w{delta[0] + v[0], delta[1] + v[1], delta[2] + v[2]};
    const int d = norm1(w);
    if (d < out.distance || out.count == 0) {
      out.distance = d;
      out.count = 0;
    }
    if (d == out.distance) {
      require(out.count < Images::kCapacity, "honeycomb torus: too many nearest images");
      out.offsets[static_cast<std::size_t>(out.count++)] = w;
    }
  }
}

int HoneycombTorus::distance(NodeId a, NodeId b) const {
  Images images;
  nearest_images(a, b, images);
  return images.distance;
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
