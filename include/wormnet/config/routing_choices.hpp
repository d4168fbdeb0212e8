// The configuration's choices that a routing function is built with: plain values, so that
// the configuration depends on nothing above core and the routing layer reads them from here.
#pragma once

#include <cstdint>
#include <span>

#include "wormnet/core/enum_names.hpp"

namespace wormnet {

/// Flow control that the routing relies on inside torus rings.
enum class FlowControl : std::uint8_t { kCredit, kBubble };
inline constexpr EnumName<FlowControl> kFlowControlNames[] = {
    {FlowControl::kCredit, "credit", "credits only"},
    {FlowControl::kBubble, "bubble", "credits, and a packet enters a ring only with room for two"},
};
constexpr std::span<const EnumName<FlowControl>> enum_names(FlowControl) {
  return kFlowControlNames;
}

/// Direction of a half-ring tie in the torus dimension-order routings (dor, dor-dateline,
/// dor-ring-class, dor-booksim, dor-balanced): always + (the default), or drawn per packet from
/// its identity, pseudo-randomly (seed, source, sequence number) or alternating with the
/// sequence number at its source. The routing only sees "drawn"; how is the simulator's.
enum class RingTie : std::uint8_t { kPlus, kRandom, kAlternating };
inline constexpr EnumName<RingTie> kRingTieNames[] = {
    {RingTie::kPlus, "plus", "always +"},
    {RingTie::kRandom, "random", "drawn per packet from a hash of seed, source and sequence"},
    {RingTie::kAlternating, "alternating", "alternating with the sequence number at the source"},
};
constexpr std::span<const EnumName<RingTie>> enum_names(RingTie) {
  return kRingTieNames;
}

}  // namespace wormnet
