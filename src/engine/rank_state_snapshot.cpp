// RankStateView::snapshot(): the state of a rank's part of the network in the form a
// checkpoint holds (ModelSnapshot: rows keyed by global router id, packets by their id), each
// part writing its own share; RankModel::restore() (rank_model_restore.cpp) reads it back.
#include <algorithm>

#include "wormnet/engine/rank_state_view.hpp"

namespace wormnet {

ModelSnapshot RankStateView::snapshot() const {
  const int ports = bank_.params().ports;
  const int vcs = bank_.params().vcs;
  ModelSnapshot s;
  s.ports = static_cast<std::uint32_t>(ports);
  s.vcs = static_cast<std::uint32_t>(vcs);
  s.depth = static_cast<std::uint32_t>(bank_.params().depth);
  s.routers = bank_.nodes();
  std::vector<std::uint32_t> slots;  // packet slots referenced, for the packet list
  const PacketIdOf id_of = [&](std::uint32_t slot) {
    slots.push_back(slot);
    return packets_[slot].id;
  };
  bank_.save(s.router, now_, id_of);
  sources_.save(s.sources);
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    for (int p = 0; p < ports; ++p) {
      s.counters.channel_flits.push_back(counters_.channel_flits(links_.slot(r, p)));
    }
  }
  // Streams: the input VC at the other end of each link a packet streams over.
  bank_.for_each_stream([&](std::uint32_t r, int port, int vc, std::uint32_t slot) {
    const auto out = static_cast<PortId>(port);
    const NodeId next = topo_.neighbor(NodeId(bank_.nodes()[r]), out);
    s.streams.push_back(
        StreamRow{next.value(), static_cast<std::uint32_t>(Topology::reverse_port(out) * vcs + vc),
                  id_of(slot)});
  });
  // Wheel: flits and credits on local links (remote ones were exchanged and received).
  wheel_.for_each(
      now_,
      [&](Cycle c, const Arrival& a) {
        s.arrivals.flits.push_back(ArrivalRows::Flit{c, bank_.nodes()[a.router], a.local_vc,
                                                     id_of(a.flit.packet()), a.flit.kind()});
      },
      [&](Cycle c, std::uint32_t o) {
        const RouterBank::OutputPlace at = bank_.output_place(o);
        s.arrivals.credits.push_back(ArrivalRows::Credit{c, bank_.nodes()[at.router], at.local_vc});
      });
  // Streams coming in from other ranks are recorded by their senders; the slots they hold
  // keep their records alive here.
  for (const auto& [ivc, slot] : links_.streams()) {
    (void)ivc;
    id_of(slot);
  }
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  for (std::uint32_t slot : slots) s.packets.push_back(packets_[slot]);

  counters_.save(s.counters);
  return s;
}

}  // namespace wormnet
