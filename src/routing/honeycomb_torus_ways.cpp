#include "wormnet/routing/honeycomb_torus_ways.hpp"

#include <algorithm>
#include <cstdlib>

#include "wormnet/core/int_math.hpp"

namespace wormnet {

namespace {

/// The most crossings of multiples of P by a monotone move of `span` steps, over every start
/// residue: a start just below a multiple meets one after 1 step, then one every P.
std::int64_t most_crossings(std::int64_t span, std::int64_t period) {
  return (period - 1 + std::abs(span)) / period;
}

/// Restricts [lo, hi] to the t where f + t s >= 0 (empty: lo > hi).
void keep_nonnegative(std::int64_t f, std::int64_t s, std::int64_t& lo, std::int64_t& hi) {
  if (s > 0) {
    lo = std::max(lo, -floor_div(f, s));
  } else if (s < 0) {
    hi = std::min(hi, floor_div(f, -s));
  } else if (f < 0) {
    hi = lo - 1;
  }
}

/// The largest sum of most_crossings(w_k, period(k)) over the two coordinates k, over the
/// offsets w = first + t step of a run. The step is a vector of L, so it moves w_k by a multiple
/// of period(k): while w_k keeps its sign, each step changes most_crossings(w_k) by the same
/// amount. So the sum is linear on each part of the run where the signs of the two w_k are
/// fixed, and largest at an end of one.
std::int64_t most_crossings(const HoneycombTorus& topo, const HoneycombTorus::Run& run,
                            const std::array<int, 2>& coords) {
  const auto sum = [&](std::int64_t t) {
    std::int64_t n = 0;
    for (const int k : coords) {
      const auto i = static_cast<std::size_t>(k);
      n += most_crossings(run.first[i] + t * run.step[i], topo.period(k));
    }
    return n;
  };
  std::int64_t best = 0;
  for (const int s0 : {1, -1}) {
    for (const int s1 : {1, -1}) {
      std::int64_t lo = 0;
      std::int64_t hi = run.count - 1;
      const auto k0 = static_cast<std::size_t>(coords[0]);
      const auto k1 = static_cast<std::size_t>(coords[1]);
      keep_nonnegative(s0 * run.first[k0], s0 * run.step[k0], lo, hi);
      keep_nonnegative(s1 * run.first[k1], s1 * run.step[k1], lo, hi);
      if (lo <= hi) best = std::max({best, sum(lo), sum(hi)});
    }
  }
  return best;
}

}  // namespace

HoneycombTorusWays::HoneycombTorusWays(const HoneycombTorus& topo) : topo_(topo) {
  // The ways from a black and a white node reach every offset class (translations and the
  // point reflection map any node onto one of them). Their nearest images come in runs, each
  // taken whole (thin tori have thousands of images per destination).
  const NodeId first(0);
  const NodeId other = topo.neighbor(first, topo.black(first) ? 0 : 1);
  std::array<std::int64_t, 3> worst{};  // per pair of coordinates (x,y), (x,z), (y,z)
  constexpr std::array<std::array<int, 2>, 3> kPairs{{{0, 1}, {0, 2}, {1, 2}}};
  HoneycombTorus::Images images;
  for (const NodeId from : {first, other}) {
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      topo.nearest_images(from, NodeId(d), images);
      for (const HoneycombTorus::Run& run : images.runs()) {
        for (std::size_t p = 0; p < kPairs.size(); ++p) {
          worst[p] = std::max(worst[p], most_crossings(topo, run, kPairs[p]));
        }
      }
    }
  }
  std::size_t best = 0;
  for (std::size_t p = 1; p < kPairs.size(); ++p) {
    if (worst[p] < worst[best]) best = p;
  }
  coords_ = kPairs[best];
  levels_ = static_cast<int>(1 + worst[best]);
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
  for (const HoneycombTorus::Offset& w : images) rem = std::max(rem, crossings(next, w));
  return levels_ - 1 - rem;
}

int HoneycombTorusWays::level_of_hop(NodeId node, const HoneycombTorus::Images& images,
                                     PortId p) const {
  const int k = Topology::port_dim(p);
  const int sign = Topology::port_sign(p);
  const bool black = topo_.black(node);
  int rem = -1;
  for (const HoneycombTorus::Offset& w : images) {
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
