#include "wormnet/topology/torus.hpp"

#include <cstdlib>
#include <numeric>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

std::uint32_t checked_node_count(const std::vector<int>& sizes, bool wrap) {
  const std::string what = wrap ? "torus" : "mesh";
  std::string spec = what + ":";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i) spec += 'x';
    spec += std::to_string(sizes[i]);
  }
  if (sizes.empty() || sizes.size() > 6) {
    throw InputError("--topology", spec, "a " + what + " has 1 to 6 dimensions");
  }
  std::uint64_t n = 1;
  for (int k : sizes) {
    if (k < 2) throw InputError("--topology", spec, "every dimension size must be >= 2");
    n *= static_cast<std::uint64_t>(k);
    if (n > (1ULL << 31)) throw InputError("--topology", spec, "at most 2^31 nodes");
  }
  return static_cast<std::uint32_t>(n);
}

}  // namespace

Torus::Torus(std::vector<int> sizes, bool wrap)
    : Topology(checked_node_count(sizes, wrap), 2 * static_cast<int>(sizes.size())),
      sizes_(std::move(sizes)),
      wrap_(wrap) {
  stride_.resize(sizes_.size());
  div_.resize(sizes_.size());
  mod_.resize(sizes_.size());
  constexpr std::uint64_t kAll = ~std::uint64_t{0};
  std::uint32_t s = 1;
  for (std::size_t d = 0; d < sizes_.size(); ++d) {
    stride_[d] = s;
    div_[d] = s == 1 ? 0 : kAll / s + 1;
    mod_[d] = kAll / static_cast<std::uint64_t>(sizes_[d]) + 1;
    s *= static_cast<std::uint32_t>(sizes_[d]);
  }
  build_adjacency();
}

std::string Torus::spec() const {
  std::string s = wrap_ ? "torus:" : "mesh:";
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(sizes_[i]);
  }
  return s;
}

Coord Torus::coords(NodeId n) const {
  Coord c;
  c.n = num_dims();
  std::uint32_t v = n.value();
  for (int d = 0; d < c.n; ++d) {
    const auto k = static_cast<std::uint32_t>(size(d));
    c[d] = static_cast<std::int32_t>(v % k);
    v /= k;
  }
  return c;
}

NodeId Torus::node_at(const Coord& c) const {
  if (c.n != num_dims()) return NodeId::invalid();
  std::uint32_t id = 0;
  for (int d = 0; d < c.n; ++d) {
    if (c[d] < 0 || c[d] >= size(d)) return NodeId::invalid();
    id += static_cast<std::uint32_t>(c[d]) * stride(d);
  }
  return NodeId(id);
}

int Torus::ring_distance(int dim, int a, int b) const {
  const int delta = std::abs(a - b);
  return is_ring(dim) ? std::min(delta, size(dim) - delta) : delta;
}

int Torus::distance(NodeId a, NodeId b) const {
  int sum = 0;
  for (int d = 0; d < num_dims(); ++d) sum += ring_distance(d, coord(a, d), coord(b, d));
  return sum;
}

int Torus::diameter() const {
  int sum = 0;
  for (int d = 0; d < num_dims(); ++d) sum += is_ring(d) ? size(d) / 2 : size(d) - 1;
  return sum;
}

NodeId Torus::compute_neighbor(NodeId n, PortId p) const {
  const int d = port_dim(p);
  const int k = size(d);
  const int c = coord(n, d);
  int next = c + port_sign(p);
  if (next < 0 || next >= k) {
    if (!is_ring(d)) return NodeId::invalid();
    next = (next + k) % k;
  }
  const auto delta = static_cast<std::int64_t>(next - c) * static_cast<std::int64_t>(stride(d));
  return NodeId(static_cast<std::uint32_t>(static_cast<std::int64_t>(n.value()) + delta));
}

}  // namespace wormnet
