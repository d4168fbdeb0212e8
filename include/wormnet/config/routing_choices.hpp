// The configuration's choices that a routing function is built with: plain values, so that
// the configuration depends on nothing above core and the routing layer reads them from here.
#pragma once

#include <cstdint>

namespace wormnet {

/// Flow control that the routing relies on inside torus rings.
enum class FlowControl : std::uint8_t { kCredit, kBubble };

/// Direction of a half-ring tie in the torus dimension-order routings (dor, dor-dateline,
/// dor-ring-class, dor-booksim, dor-balanced): always + (the default), or drawn per packet from
/// its identity, pseudo-randomly (seed, source, sequence number) or alternating with the
/// sequence number at its source. The routing only sees "drawn"; how is the simulator's.
enum class RingTie : std::uint8_t { kPlus, kRandom, kAlternating };

}  // namespace wormnet
