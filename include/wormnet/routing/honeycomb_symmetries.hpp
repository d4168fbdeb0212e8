// The symmetries of the honeycomb mesh H_t, for the routings' symmetries() declarations. In
// Stojmenovic's XYZ coordinates H_t is -t+1 <= x, y, z <= t with x + y + z in {1, 2}; any
// permutation of the three coordinates keeps that, and so does the inversion c -> 1 - c of all
// three (it swaps the sums 1 and 2, the colours), and both keep "differ by 1 in one
// coordinate": 6 x 2 = 12 automorphisms, the rotations and reflections of the hexagon.
#pragma once

#include <array>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"

namespace wormnet {

/// One of the 12: coordinate i moves to coordinate axis[i]; with `invert`, c -> 1 - c.
struct HoneycombMotion {
  std::array<int, 3> axis{0, 1, 2};
  bool invert = false;
};

/// All 12, the identity first.
std::vector<HoneycombMotion> honeycomb_motions();

/// The network symmetry of `motion` on h. VCs keep their numbers, or with `swap_xy_vcs` VCs 0
/// and 1 trade places on the X and Y channels (Double XY's two virtual networks, when the
/// motion inverts).
NetworkSymmetry honeycomb_symmetry(const HoneycombMesh& h, const HoneycombMotion& motion,
                                   bool swap_xy_vcs = false);

}  // namespace wormnet
