// The rules that say whether a waiting head may take a free output VC, beyond the routing's
// choice: bubble flow control (rings) and Duato's adaptive VCs. Pure functions of the counts
// they need, so that each rule is tested by itself.
#pragma once

#include <cstdint>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Whether a hop that arrived on `in_port` and leaves on `out_port` enters a ring: the output
/// port's dimension is a ring (`out_is_ring`) and the packet does not continue straight on
/// it. Going on in the direction a packet came from port p means leaving by the port that
/// faces p (Topology::reverse_port); a packet from the terminal port (`terminal`) always
/// enters.
constexpr bool enters_ring(int in_port, int out_port, int terminal, bool out_is_ring) {
  const bool continuing = in_port != terminal && out_port == Topology::reverse_port(in_port);
  return out_is_ring && !continuing;
}

/// Bubble flow control: a packet of `length` flits may take an output VC whose downstream
/// buffer has `free` slots when the whole packet fits (virtual cut-through) and, when it
/// enters a ring, one more packet of `max_length` flits still fits behind it: a ring is then
/// never full, which is what keeps it deadlock-free.
constexpr bool bubble_allows(int free, int length, int max_length, bool entering_ring) {
  return free >= length + (entering_ring ? max_length : 0);
}

/// Duato: an adaptive VC goes to a new packet only once the last one has left its downstream
/// buffer (`credits` back to the buffer's `depth`). The deadlock-freedom proof assumes a queue
/// never holds flits of two packets.
constexpr bool adaptive_vc_takes_new_packet(int credits, int depth) {
  return credits >= depth;
}

/// Duato: escape VCs only when no adaptive VC is free. Of `found` candidates (output VCs
/// port * vcs + vc, with their routing option in `option`), `adaptive` are network hops on
/// VCs outside `escape`; when some are and some are not, keeps, in order, the candidates whose
/// VC is outside `escape` and returns how many are left. `vc_of` maps port * vcs + vc to vc.
inline int prefer_adaptive(int* candidates, int* option, int found, int adaptive, VcMask escape,
                           const std::uint8_t* vc_of) {
  if (adaptive == 0 || adaptive >= found) return found;
  int kept = 0;
  for (int c = 0; c < found; ++c) {
    if (((escape >> vc_of[candidates[c]]) & 1U) != 0) continue;
    candidates[kept] = candidates[c];
    option[kept] = option[c];
    ++kept;
  }
  return kept;
}

}  // namespace wormnet
