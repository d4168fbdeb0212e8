// The VC-choice function's answer: each output VC a waiting head's route allows, with the
// verdict of the VC rules on it. The VC allocation stage takes the VCs whose verdict is kTake;
// the deadlock detector reads the others as what the head waits for
// (VcAllocationStage::choose_vcs(), docs/simulator.md, "Router" and "Measurement").
#pragma once

#include <cstdint>

namespace wormnet {

/// What the VC rules say of one output VC that a waiting head's route allows.
enum class VcVerdict : std::uint8_t {
  kTake,   ///< free, and every rule lets the head take it
  kOwned,  ///< another packet holds it (wormhole) until that packet's tail leaves
  /// free, but bubble flow control wants more room behind it (the whole packet, plus one
  /// longest packet when the hop enters a ring): credits will make it
  kBubble,
  /// a free adaptive VC of Duato's routing whose downstream buffer is not empty: it takes a
  /// new packet only once every credit is back
  kAdaptiveNeedsEmpty,
};

/// One output VC offered to a waiting head, and the verdict on it.
struct VcChoice {
  int option = 0;            ///< index of the routing option that offers it
  int port = 0;              ///< output port (P: the ejection port)
  int vc = 0;                ///< VC on that port
  int local = 0;             ///< port * vcs + vc: the output VC's number within its router
  std::uint32_t output = 0;  ///< its OutputUnit index
  bool adaptive = false;     ///< an adaptive VC of Duato's routing (a network VC, not escape)
  VcVerdict verdict = VcVerdict::kTake;
};

/// What a stuck input VC waits for: the input VC of this router whose packet owns an output
/// VC it wants (kOwner: port and VC of that input VC), or the input VC at the other end of
/// output (port, vc) that must move a flit to send back the credit it lacks (kDownstream).
struct VcWait {
  enum Kind : std::uint8_t { kOwner, kDownstream };
  Kind kind = kOwner;
  std::uint8_t port = 0;
  std::uint8_t vc = 0;
};

}  // namespace wormnet
