#include "wormnet/routing/double_xy_dateline_routing.hpp"

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// Whether an image offset fits network `net`: its Z offset has the network's sign.
bool fits(const HoneycombTorus::Offset& w, int net) {
  return net == 0 ? w[2] >= 0 : w[2] <= 0;
}

}  // namespace

DoubleXyDatelineRouting::DoubleXyDatelineRouting(const HoneycombTorus& topo)
    : topo_(topo), ways_(topo) {
  if (2 * ways_.levels() > kMaxVcs) {
    throw InputError("--routing", "double-xy-dateline",
                     "needs " + std::to_string(2 * ways_.levels()) + " VCs on " + topo.spec() +
                         " (" + std::to_string(ways_.levels()) +
                         " dateline levels), more than the " + std::to_string(kMaxVcs) +
                         " a channel may have");
  }
}

std::string DoubleXyDatelineRouting::description() const {
  return "Double XY toward the nearest images with dateline VCs: 2 networks x " +
         std::to_string(ways_.levels()) + " levels = " + std::to_string(vcs_required()) + " VCs";
}

RouteState DoubleXyDatelineRouting::initial_state(NodeId src, NodeId dst) const {
  HoneycombTorus::Images images;
  topo_.nearest_images(src, dst, images);
  // The Z offset is linear along a run: its sign holds on a whole run iff it holds at both ends.
  bool up = true;
  bool down = true;
  for (const HoneycombTorus::Run& run : images.runs()) {
    up = up && run.first[2] > 0 && run.last()[2] > 0;
    down = down && run.first[2] < 0 && run.last()[2] < 0;
  }
  return up ? kNet0 : (down ? kNet1 : kEither);
}

void DoubleXyDatelineRouting::route(const RouteRequest& request, RouteOptions& out) const {
  HoneycombTorus::Images images;
  topo_.nearest_images(request.node, request.dest, images);
  bool allowed[2] = {request.state != kNet1, request.state != kNet0};
  if (request.state != kEither) {
    bool any = false;
    for (const HoneycombTorus::Run& run : images.runs()) {
      const int net = static_cast<int>(request.state);
      any = any || fits(run.first, net) || fits(run.last(), net);  // linear along the run
    }
    if (!any) allowed[0] = allowed[1] = true;
  }
  const bool black = topo_.black(request.node);
  for (int k = 0; k < 3; ++k) {
    const PortId p = Topology::port_of(k, black ? 1 : -1);
    int level = -1;
    for (int net = 0; net < 2; ++net) {
      if (!allowed[net]) continue;
      bool shortens = false;
      for (auto w = images.begin(); w != images.end() && !shortens; ++w) {
        shortens = fits(*w, net) && HoneycombTorusWays::shortens(*w, k, black);
      }
      if (!shortens) continue;
      if (level < 0) level = ways_.level_of_hop(request.node, images, p);
      out.add(p, static_cast<VcMask>(1U << (2 * level + net)), static_cast<RouteState>(net));
    }
  }
}

}  // namespace wormnet
