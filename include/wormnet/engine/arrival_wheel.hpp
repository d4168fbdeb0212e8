// What a rank's arrival wheel holds: the flits and credits on its local links, due at a
// later cycle, and the heads whose routers wake at their route.
#pragma once

#include <cstdint>

#include "wormnet/router/flit.hpp"

namespace wormnet {

/// A flit on a local link, due at an input VC.
struct Arrival {
  std::uint32_t router;    ///< local router index
  std::uint16_t local_vc;  ///< port * vcs + vc
  Flit flit;
};

/// A head that reached the front of an input VC on a large rank, due for its route: its
/// router wakes for it then (not at its arrival); the prefetch plan asks for the packet's
/// record and the router's output VCs just before.
struct RouteDue {
  std::uint32_t router;  ///< local router index
  std::uint32_t packet;  ///< PacketTable slot
};

}  // namespace wormnet
