#include "wormnet/router/injection_stage.hpp"

#include "wormnet/core/rng.hpp"

namespace wormnet {

template <bool kCounted, MaskWidth W>
InjectionStage::Injected InjectionStage::step(RouterCore& c, std::uint32_t r, Cycle t,
                                              SourceQueue& source) {
  Injected done;
  const int ports = c.params.ports;
  const int vcs = c.params.vcs;
  Injection& inj = c.inputs.injection<W>(r);
  if (inj.length == 0) {
    if (source.empty()) {
      inj.queued = 0;
      return done;
    }
    // A new packet takes an empty injection VC, so it never waits behind a blocked one.
    int vc = -1;
    for (int v = 0; v < vcs; ++v) {
      if (c.inputs.template count<W>(c.inputs.index(r, ports * vcs + v)) == 0) {
        vc = v;
        break;
      }
    }
    if (vc < 0) return done;
    const Message& m = source.front();
    if (m.created + c.params.injection_latency > t) return done;  // still on the channel
    Packet p;
    p.created = m.created;
    p.injected = t;
    p.id = (static_cast<std::uint64_t>(c.inputs.node<W>(r)) << 32) | (m.sequence & 0xFFFFFFFFULL);
    p.source = c.inputs.node<W>(r);
    p.dest = m.dest;
    p.state = c.routing.chosen_initial_state(NodeId(p.source), NodeId(p.dest),
                                             initial_choice(c, p.id, m.sequence));
    p.length = m.length;
    p.measured = m.measured;
    inj.packet = c.packets.allocate(p);
    inj.sent = 0;
    inj.length = m.length;
    inj.vc = static_cast<std::uint8_t>(vc);
    source.pop();
    inj.queued = source.empty() ? 0 : 1;
    ++done.packets;
  }
  const int local_vc = ports * vcs + inj.vc;
  if (c.inputs.full(c.inputs.index(r, local_vc))) return done;
  const bool head = inj.sent == 0;
  const bool tail = inj.sent + 1 == inj.length;
  c.deposit<kCounted, W>(r, local_vc, Flit(inj.packet, head, tail), t);
  ++inj.sent;
  ++done.flits;
  if (tail) inj.length = 0;
  return done;
}

template InjectionStage::Injected InjectionStage::step<false, MaskWidth::kNarrow>(RouterCore&,
                                                                                  std::uint32_t,
                                                                                  Cycle,
                                                                                  SourceQueue&);
template InjectionStage::Injected InjectionStage::step<true, MaskWidth::kNarrow>(RouterCore&,
                                                                                 std::uint32_t,
                                                                                 Cycle,
                                                                                 SourceQueue&);
template InjectionStage::Injected InjectionStage::step<false, MaskWidth::kWide>(RouterCore&,
                                                                                std::uint32_t,
                                                                                Cycle,
                                                                                SourceQueue&);
template InjectionStage::Injected InjectionStage::step<true, MaskWidth::kWide>(RouterCore&,
                                                                               std::uint32_t, Cycle,
                                                                               SourceQueue&);

int InjectionStage::initial_choice(const RouterCore& c, std::uint64_t packet_id,
                                   std::uint64_t sequence) {
  // From the packet's identity alone, so any rank count draws the same choices.
  const auto choices = static_cast<std::uint64_t>(c.routing.initial_choices());
  if (choices == 1) return 0;
  if (c.params.ring_tie == RingTie::kAlternating) return static_cast<int>(sequence % choices);
  return static_cast<int>(mix64(c.params.tie_key ^ packet_id) % choices);
}

void InjectionStage::save(const RouterCore& c, RouterRows& rows, const PacketIdOf& id_of) {
  for (std::uint32_t r = 0; r < c.routers(); ++r) {
    const Injection& inj = c.inputs.injection(r);
    rows.injection.push_back(inj.length != 0 ? id_of(inj.packet) : RouterRows::kNoPacket);
    rows.injection.push_back(inj.sent);
    rows.injection.push_back(inj.length);
    rows.injection.push_back(inj.vc);
  }
}

void InjectionStage::restore(RouterCore& c, const RouterRows& rows, const PacketSlotOf& slot_of) {
  const auto terminal_vcs = static_cast<std::uint32_t>(c.params.ports * c.params.vcs);
  for (std::uint32_t r = 0; r < c.routers(); ++r) {
    Injection& inj = c.inputs.injection(r);
    const std::uint64_t* in = &rows.injection[4 * static_cast<std::size_t>(r)];
    inj = Injection{};
    if (in[0] != RouterRows::kNoPacket) {
      inj.vc = static_cast<std::uint8_t>(in[3]);
      inj.packet = slot_of(r, terminal_vcs + inj.vc, in[0]);
      inj.sent = static_cast<std::uint16_t>(in[1]);
      inj.length = static_cast<std::uint16_t>(in[2]);
    }
  }
}

}  // namespace wormnet
