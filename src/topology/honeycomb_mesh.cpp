#include "wormnet/topology/honeycomb_mesh.hpp"

#include <algorithm>
#include <cstdlib>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {
/// 6t^2 nodes must fit a 32-bit id and coordinates an int16.
constexpr int kMaxT = 18000;
}  // namespace

HoneycombMesh::HoneycombMesh(int t)
    : Topology(static_cast<std::uint32_t>(6ULL * static_cast<std::uint64_t>(t) *
                                          static_cast<std::uint64_t>(t)),
               6),
      t_(t) {
  if (t < 1 || t > kMaxT) {
    throw InputError("--topology", "honeycomb:" + std::to_string(t),
                     "t must be an integer in [1, " + std::to_string(kMaxT) + "]");
  }
  const int lo = 1 - t;
  const int rows = 2 * (2 * t);
  row_offset_.resize(static_cast<std::size_t>(rows));
  row_ylo_.resize(static_cast<std::size_t>(rows));
  row_len_.resize(static_cast<std::size_t>(rows));
  xyz_.resize(3ULL * num_nodes());
  std::uint32_t id = 0;
  for (int x = lo; x <= t; ++x) {
    for (int s = 1; s <= 2; ++s) {
      // z = s - x - y must lie in [lo, t]  <=>  s - x - t <= y <= s - x - lo.
      const int ylo = std::max(lo, s - x - t);
      const int yhi = std::min(t, s - x - lo);
      const auto r = static_cast<std::size_t>((x - lo) * 2 + (s - 1));
      row_offset_[r] = id;
      row_ylo_[r] = ylo;
      row_len_[r] = std::max(0, yhi - ylo + 1);
      for (int y = ylo; y <= yhi; ++y, ++id) {
        xyz_[3ULL * id] = static_cast<std::int16_t>(x);
        xyz_[3ULL * id + 1] = static_cast<std::int16_t>(y);
        xyz_[3ULL * id + 2] = static_cast<std::int16_t>(s - x - y);
      }
    }
  }
  require(id == num_nodes(), "honeycomb: node count differs from 6t^2");
  build_adjacency();
}

std::string HoneycombMesh::spec() const {
  return "honeycomb:" + std::to_string(t_);
}

Coord HoneycombMesh::coords(NodeId n) const {
  Coord c;
  c.n = 3;
  const std::size_t i = 3ULL * n.value();
  c[0] = xyz_[i];
  c[1] = xyz_[i + 1];
  c[2] = xyz_[i + 2];
  return c;
}

NodeId HoneycombMesh::node_at(int x, int y, int z) const {
  const int lo = 1 - t_;
  // The box first: any int may be asked for (a fault file names any integers), and only
  // inside it does x + y + z stay far from overflow.
  if (x < lo || x > t_ || y < lo || y > t_ || z < lo || z > t_) return NodeId::invalid();
  const int s = x + y + z;
  if (s != 1 && s != 2) return NodeId::invalid();
  const auto r = static_cast<std::size_t>((x - lo) * 2 + (s - 1));
  const int k = y - row_ylo_[r];
  if (k < 0 || k >= row_len_[r]) return NodeId::invalid();
  return NodeId(row_offset_[r] + static_cast<std::uint32_t>(k));
}

NodeId HoneycombMesh::node_at(const Coord& c) const {
  if (c.n != 3) return NodeId::invalid();
  return node_at(c[0], c[1], c[2]);
}

HoneycombColor HoneycombMesh::color(NodeId n) const {
  const std::size_t i = 3ULL * n.value();
  return xyz_[i] + xyz_[i + 1] + xyz_[i + 2] == 1 ? HoneycombColor::kBlack : HoneycombColor::kWhite;
}

int HoneycombMesh::distance(NodeId a, NodeId b) const {
  const std::size_t i = 3ULL * a.value();
  const std::size_t j = 3ULL * b.value();
  return std::abs(xyz_[i] - xyz_[j]) + std::abs(xyz_[i + 1] - xyz_[j + 1]) +
         std::abs(xyz_[i + 2] - xyz_[j + 2]);
}

NodeId HoneycombMesh::compute_neighbor(NodeId n, PortId p) const {
  Coord c = coords(n);
  const int sign = port_sign(p);
  // Black nodes (sum 1) only have + links, white nodes (sum 2) only - links.
  const bool black = c[0] + c[1] + c[2] == 1;
  if (black != (sign > 0)) return NodeId::invalid();
  c[port_dim(p)] += sign;
  return node_at(c);
}

}  // namespace wormnet
