#include "wormnet/routing/torus_stojmenovic_routing.hpp"

#include <algorithm>
#include <cstdlib>

#include "wormnet/core/error.hpp"

namespace wormnet {

TorusStojmenovicRouting::TorusStojmenovicRouting(const HoneycombTorus& topo, bool dateline)
    : topo_(topo), ways_(topo), dateline_(dateline) {
  if (dateline_ && ways_.levels() > kMaxVcs) {
    throw InputError("--routing", name(),
                     "needs " + std::to_string(ways_.levels()) + " VCs on " + topo.spec() +
                         " (one per dateline level), more than the " + std::to_string(kMaxVcs) +
                         " a channel may have");
  }
}

std::string TorusStojmenovicRouting::description() const {
  return dateline_
             ? "Stojmenovic's routing toward the nearest image, dateline VCs (" +
                   std::to_string(ways_.levels()) + " levels; cyclic: hexagons within a level)"
             : "Stojmenovic's routing toward the nearest image (shortest way round the "
               "torus), largest offset first, 1 VC (cyclic)";
}

void TorusStojmenovicRouting::route(const RouteRequest& request, RouteOptions& out) const {
  HoneycombTorus::Images images;
  topo_.nearest_images(request.node, request.dest, images);
  // The lexicographically smallest nearest offset: each coordinate is linear along a run, so
  // a run's smallest offset is one of its ends.
  HoneycombTorus::Offset way = images.runs()[0].first;
  for (const HoneycombTorus::Run& run : images.runs()) way = std::min({way, run.first, run.last()});
  const bool black = topo_.black(request.node);
  int best = -1;
  for (int k = 0; k < 3; ++k) {
    if (!HoneycombTorusWays::shortens(way, k, black)) continue;
    if (best < 0 || std::abs(way[static_cast<std::size_t>(k)]) >
                        std::abs(way[static_cast<std::size_t>(best)])) {
      best = k;
    }
  }
  if (best < 0) return;
  const PortId p = Topology::port_of(best, black ? 1 : -1);
  const int vc = dateline_ ? ways_.level_of_hop(request.node, images, p) : 0;
  out.add(p, static_cast<VcMask>(1U << vc));
}

}  // namespace wormnet
