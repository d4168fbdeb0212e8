#include "wormnet/routing/honeycomb_torus_ways.hpp"

#include <algorithm>
#include <cstdlib>

#include "wormnet/core/int_math.hpp"

namespace wormnet {

namespace {

/// Most crossings of multiples of `period` by a monotone move of `span` steps, over every
/// start residue: a start just below a multiple meets one after 1 step, then one every period.
int most_crossings(int span, int period) {
  return (period - 1 + std::abs(span)) / period;
}

}  // namespace

HoneycombTorusWays::HoneycombTorusWays(const HoneycombTorus& topo) : topo_(topo) {
  // The ways from a black and a white node reach every offset class (translations and the
  // point reflection map any node onto one of them).
  const NodeId first(0);
  const NodeId other = topo.neighbor(first, topo.black(first) ? 0 : 1);
  std::array<int, 3> worst{};  // per pair of coordinates (x,y), (x,z), (y,z)
  constexpr std::array<std::array<int, 2>, 3> kPairs{{{0, 1}, {0, 2}, {1, 2}}};
  HoneycombTorus::Images images;
  for (const NodeId from : {first, other}) {
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      topo.nearest_images(from, NodeId(d), images);
      for (int i = 0; i < images.count; ++i) {
        const auto& w = images.offsets[static_cast<std::size_t>(i)];
        for (std::size_t p = 0; p < kPairs.size(); ++p) {
          int c = 0;
          for (const int k : kPairs[p]) {
            c += most_crossings(w[static_cast<std::size_t>(k)], topo.period(k));
          }
          worst[p] = std::max(worst[p], c);
        }
      }
    }
  }
  std::size_t best = 0;
  for (std::size_t p = 1; p < kPairs.size(); ++p) {
    if (worst[p] < worst[best]) best = p;
  }
  coords_ = kPairs[best];
  levels_ = 1 + worst[best];
}

int HoneycombTorusWays::crossings(NodeId from, const HoneycombTorus::Offset& offset) const {
  const Coord c = topo_.coords(from);
  int n = 0;
  for (const int k : coords_) {
    const std::int64_t p = topo_.period(k);
    const std::int64_t a = c[k];
    const std::int64_t b = a + offset[static_cast<std::size_t>(k)];
    n += static_cast<int>(floor_div(std::max(a, b), p) - floor_div(std::min(a, b), p));
  }
  return n;
}

int HoneycombTorusWays::level_into(NodeId next, NodeId dest) const {
  HoneycombTorus::Images images;
  topo_.nearest_images(next, dest, images);
  int rem = 0;
  for (int i = 0; i < images.count; ++i) {
    rem = std::max(rem, crossings(next, images.offsets[static_cast<std::size_t>(i)]));
  }
  return levels_ - 1 - rem;
}

int HoneycombTorusWays::level_of_hop(NodeId node, const HoneycombTorus::Images& images,
                                     PortId p) const {
  const int k = Topology::port_dim(p);
  const int sign = Topology::port_sign(p);
  const bool black = topo_.black(node);
  int rem = -1;
  for (int i = 0; i < images.count; ++i) {
    const auto& w = images.offsets[static_cast<std::size_t>(i)];
    if (shortens(w, k, black)) rem = std::max(rem, crossings(node, w));
  }
  // This hop's own crossing: coordinate k moves from a to a + sign.
  for (const int c : coords_) {
    if (c != k) continue;
    const std::int64_t period = topo_.period(k);
    const std::int64_t a = topo_.coords(node)[k];
    rem -= static_cast<int>(floor_div(std::max(a, a + sign), period) -
                            floor_div(std::min(a, a + sign), period));
  }
  return levels_ - 1 - rem;
}

}  // namespace wormnet
