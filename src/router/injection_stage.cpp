// The injection stage of RouterBank: a router's terminal writes messages of its source queue,
// a flit a cycle, into the injection buffer (input port P).
#include "wormnet/core/rng.hpp"
#include "wormnet/router/router_bank.hpp"

namespace wormnet {

RouterBank::Injected RouterBank::inject(std::uint32_t r, Cycle t, SourceQueue& source) {
  Injected done;
  const int ports = params_.ports;
  const int vcs = params_.vcs;
  Injection& inj = inputs_.injection(r);
  if (inj.length == 0) {
    if (source.empty()) {
      inj.queued = 0;
      return done;
    }
    // A new packet takes an empty injection VC, so it never waits behind a blocked one.
    int vc = -1;
    for (int v = 0; v < vcs; ++v) {
      if (inputs_.state(inputs_.index(r, ports * vcs + v)).count == 0) {
        vc = v;
        break;
      }
    }
    if (vc < 0) return done;
    const Message& m = source.front();
    if (m.created + params_.injection_latency > t) return done;  // still on the injection channel
    Packet p;
    p.created = m.created;
    p.injected = t;
    p.id = (static_cast<std::uint64_t>(inputs_.node(r)) << 32) | (m.sequence & 0xFFFFFFFFULL);
    p.source = inputs_.node(r);
    p.dest = m.dest;
    p.state = routing_.chosen_initial_state(NodeId(p.source), NodeId(p.dest),
                                            initial_choice(p.id, m.sequence));
    p.length = m.length;
    p.measured = m.measured;
    inj.packet = packets_.allocate(p);
    inj.sent = 0;
    inj.length = m.length;
    inj.vc = static_cast<std::uint8_t>(vc);
    source.pop();
    inj.queued = source.empty() ? 0 : 1;
    ++done.packets;
  }
  const int local_vc = ports * vcs + inj.vc;
  if (inputs_.full(inputs_.index(r, local_vc))) return done;
  const bool head = inj.sent == 0;
  const bool tail = inj.sent + 1 == inj.length;
  deposit(r, local_vc, Flit(inj.packet, head, tail), t);
  ++inj.sent;
  ++done.flits;
  if (tail) inj.length = 0;
  return done;
}

int RouterBank::initial_choice(std::uint64_t packet_id, std::uint64_t sequence) const {
  // From the packet's identity alone, so any rank count draws the same choices.
  const auto choices = static_cast<std::uint64_t>(routing_.initial_choices());
  if (choices == 1) return 0;
  if (params_.ring_tie == RingTie::kAlternating) return static_cast<int>(sequence % choices);
  return static_cast<int>(mix64(params_.tie_key ^ packet_id) % choices);
}

}  // namespace wormnet
