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
  bool up = true;
  bool down = true;
  for (int i = 0; i < images.count; ++i) {
    up = up && images.offsets[static_cast<std::size_t>(i)][2] > 0;
    down = down && images.offsets[static_cast<std::size_t>(i)][2] < 0;
  }
  return up ? kNet0 : (down ? kNet1 : kEither);
}

void DoubleXyDatelineRouting::route(const RouteRequest& request, RouteOptions& out) const {
  HoneycombTorus::Images images;
  topo_.nearest_images(request.node, request.dest, images);
  bool allowed[2] = {request.state != kNet1, request.state != kNet0};
  if (request.state != kEither) {
    bool any = false;
    for (int i = 0; i < images.count; ++i) {
      any =
          any || fits(images.offsets[static_cast<std::size_t>(i)], static_cast<int>(request.state));
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
      for (int i = 0; i < images.count && !shortens; ++i) {
        const auto& w = images.offsets[static_cast<std::size_t>(i)];
        shortens = fits(w, net) && HoneycombTorusWays::shortens(w, k, black);
      }
      if (!shortens) continue;
      if (level < 0) level = ways_.level_of_hop(request.node, images, p);
      out.add(p, static_cast<VcMask>(1U << (2 * level + net)), static_cast<RouteState>(net));
    }
  }
}

}  // namespace wormnet
