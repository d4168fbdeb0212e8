#include "wormnet/routing/honeycomb_torus_ways.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "wormnet/core/int_math.hpp"

namespace wormnet {

namespace {

/// The largest of floor((a0 + b0 t) / p0) + floor((a1 + b1 t) / p1) over the integers t in
/// [lo, hi] (p0, p1 > 0). After tau = lcm(p0 / gcd(b0, p0), p1 / gcd(b1, p1)) steps each term
/// has grown by exactly b_i tau / p_i, so along t = r, r + tau, r + 2 tau, ... the sum is linear,
/// largest at the first or the last of them: one period of starts r suffices (every t when the
/// range is shorter).
std::int64_t max_floor_sum(const std::array<std::int64_t, 2>& a,
                           const std::array<std::int64_t, 2>& b,
                           const std::array<std::int64_t, 2>& p, std::int64_t lo, std::int64_t hi) {
  const auto value = [&](std::int64_t t) {
    return floor_div(a[0] + b[0] * t, p[0]) + floor_div(a[1] + b[1] * t, p[1]);
  };
  const std::int64_t length = hi - lo + 1;
  const std::int64_t t0 = p[0] / std::gcd(std::abs(b[0]), p[0]);
  const std::int64_t t1 = p[1] / std::gcd(std::abs(b[1]), p[1]);
  const std::int64_t g = std::gcd(t0, t1);
  const std::int64_t tau = t0 / g <= length / t1 ? t0 / g * t1 : length;
  std::int64_t best = std::numeric_limits<std::int64_t>::min();
  for (std::int64_t r = lo; r < lo + std::min(tau, length); ++r) {
    best = std::max({best, value(r), value(r + (hi - r) / tau * tau)});
  }
  return best;
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

/// The most crossings of multiples of P by a monotone move of w steps, over every start residue,
/// is (P - 1 + |w|) / P: a start just below a multiple meets one after 1 step, then one every P.
/// This is the largest sum of it over the coordinates k0, k1 (with P = period(k)) over the
/// offsets w of a run. Along the run w_k is linear; on each part where the signs of w_k0 and
/// w_k1 are fixed, |w_k| is linear too, and the sum is one of floors (max_floor_sum).
std::int64_t most_crossings(const HoneycombTorus& topo, const HoneycombTorus::Run& run,
                            const std::array<int, 2>& coords) {
  std::int64_t best = 0;
  for (const int s0 : {1, -1}) {
    for (const int s1 : {1, -1}) {
      const std::array<std::int64_t, 2> sign{s0, s1};
      std::int64_t lo = 0;
      std::int64_t hi = run.count - 1;
      std::array<std::int64_t, 2> a{};
      std::array<std::int64_t, 2> b{};
      std::array<std::int64_t, 2> p{};
      for (std::size_t i = 0; i < 2; ++i) {
        const auto k = static_cast<std::size_t>(coords[i]);
        const std::int64_t f = sign[i] * run.first[k];
        const std::int64_t s = sign[i] * run.step[k];
        keep_nonnegative(f, s, lo, hi);
        p[i] = topo.period(coords[i]);
        a[i] = p[i] - 1 + f;  // most_crossings(w, P) = floor((P - 1 + |w|) / P)
        b[i] = s;
      }
      if (lo <= hi) best = std::max(best, max_floor_sum(a, b, p, lo, hi));
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
