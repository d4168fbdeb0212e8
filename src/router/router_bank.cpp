#include "wormnet/router/router_bank.hpp"

#include <bit>

namespace wormnet {

CongestionCounters::InputVc RouterBank::open_stays(std::uint32_t r, int local_vc, Cycle T) const {
  // The stays still open at T end there (congestion_counters.hpp); held includes the credit
  // wait (switch_wait = held - credit_wait).
  const CongestionCounters& k = core_.congestion;
  const std::uint32_t i = core_.inputs.index(r, local_vc);
  const VcStage stage = core_.inputs.stage(i);
  const std::uint32_t count = core_.inputs.count(i);
  const std::uint64_t bit = std::uint64_t{1} << local_vc;
  const Cycle open_until = k.clip(std::max(T, core_.inputs.ready_near(i, T)));
  CongestionCounters::InputVc open;
  if (stage == VcStage::kWaitVc) open.vc_wait = open_until;
  if (stage == VcStage::kActive && count != 0) {
    open.held = open_until;
    if ((core_.inputs.blocked(r) & bit) != 0) open.credit_wait = open_until;
  }
  open.occupancy = k.clip(T) * count;
  return open;
}

VcCongestion RouterBank::congestion(std::uint32_t r, int local_vc, Cycle T) const {
  const CongestionCounters::InputVc& a = core_.congestion.input(core_.inputs.index(r, local_vc));
  if (core_.congestion.closed()) {
    return VcCongestion{a.vc_wait, a.credit_wait, a.held - a.credit_wait, a.occupancy};
  }
  const CongestionCounters::InputVc open = open_stays(r, local_vc, T);
  const std::uint64_t credit = a.credit_wait + open.credit_wait;
  return VcCongestion{a.vc_wait + open.vc_wait, credit, a.held + open.held - credit,
                      a.occupancy + open.occupancy};
}

void RouterBank::take_channel_blocked(const Topology& topo, Cycle T,
                                      std::vector<std::pair<std::uint32_t, std::uint64_t>>& out) {
  require(params().congestion_series, "take_channel_blocked() without --congestion series");
  CongestionCounters& k = core_.congestion;
  const int ports = params().ports;
  const int vcs = params().vcs;
  for (std::uint32_t r = 0; r < routers(); ++r) {
    const NodeId node(nodes()[r]);
    for (int p = 0; p < ports; ++p) {
      // Input port p receives the channel of the neighbour's facing port.
      const NodeId from = topo.neighbor(node, static_cast<PortId>(p));
      if (!from.valid()) continue;
      const ChannelId c = topo.channel(from, static_cast<PortId>(Topology::reverse_port(p)));
      if (!c.valid()) continue;
      std::uint64_t blocked = 0;
      for (int v = 0; v < vcs; ++v) {
        // vc_wait + credit_wait + switch_wait = vc_wait + held (modulo 2^64, exact as a
        // difference of two readings).
        const VcCongestion now = congestion(r, p * vcs + v, T);
        const std::uint64_t reading = now.vc_wait + now.credit_wait + now.switch_wait;
        const std::uint32_t i = core_.inputs.index(r, p * vcs + v);
        blocked += reading - k.blocked_mark(i);
        k.set_blocked_mark(i, reading);
      }
      out.emplace_back(c.value(), blocked);
    }
  }
}

CongestionCounters::InputVc RouterBank::counted_from_zero(std::uint32_t r, int local_vc,
                                                          Cycle T) const {
  // Counted from cycle 0, the accumulators plus the open stays at T give the totals over
  // [begin, T), 0 for T <= begin: so they hold minus the open stays (modulo 2^64).
  const CongestionCounters::InputVc open = open_stays(r, local_vc, T);
  return CongestionCounters::InputVc{Cycle{0} - open.vc_wait, Cycle{0} - open.credit_wait,
                                     Cycle{0} - open.held, Cycle{0} - open.occupancy};
}

void RouterBank::open_congestion() {
  CongestionCounters& k = core_.congestion;
  const Cycle begin = params().measure_begin;
  const int vcs = static_cast<int>(core_.inputs.vcs_per_router());
  for (std::uint32_t r = 0; r < routers(); ++r) {
    for (int v = 0; v < vcs; ++v)
      k.input(core_.inputs.index(r, v)) = counted_from_zero(r, v, begin);
  }
  // A pop before the window adds 0 to its output VC's flits.
  for (std::uint32_t o = 0; o < k.outputs(); ++o) k.set_output(o, 0);
}

void RouterBank::close_congestion() {
  CongestionCounters& k = core_.congestion;
  const Cycle end = params().measure_end;
  const int vcs = static_cast<int>(core_.inputs.vcs_per_router());
  for (std::uint32_t r = 0; r < routers(); ++r) {
    for (int v = 0; v < vcs; ++v) {
      CongestionCounters::InputVc& a = k.input(core_.inputs.index(r, v));
      const CongestionCounters::InputVc open = open_stays(r, v, end);
      a.vc_wait += open.vc_wait;
      a.credit_wait += open.credit_wait;
      a.held += open.held;
      a.occupancy += open.occupancy;
    }
  }
  k.set_closed(true);
}

void RouterBank::save(RouterRows& rows, Cycle now, const PacketIdOf& id_of) const {
  core_.inputs.save(rows, now, id_of);
  core_.outputs.save(rows);
  for (std::uint32_t o = 0; o < core_.outputs.size(); ++o) {
    const bool owned = core_.outputs.owner(o) != OutputUnit::kFree;
    rows.ovc_packet.push_back(owned ? id_of(core_.owner_packet(o)) : RouterRows::kNoPacket);
  }
  VcAllocationStage::save(core_, rows);
  switch_.save(rows, routers(), params().ports + 1);
  InjectionStage::save(core_, rows, id_of);
  const CongestionCounters& k = core_.congestion;
  const auto vcs = static_cast<std::size_t>(core_.inputs.vcs_per_router()) * routers();
  // Before the window (now <= begin) the counted walk may not have run yet (`totals`: see
  // open_congestion()): the rows hold what counting from cycle 0 gives, whichever walk ran.
  // Closed (close_congestion()), they hold the totals minus the open stays at now, which
  // counting on would have added when the totals are read.
  const bool before = k.on() && now <= params().measure_begin;
  const std::uint32_t per_router = core_.inputs.vcs_per_router();
  for (std::uint32_t i = 0; i < vcs; ++i) {
    const std::uint32_t r = i / per_router;
    const int v = static_cast<int>(i % per_router);
    CongestionCounters::InputVc a = !k.on()  ? CongestionCounters::InputVc{}
                                    : before ? counted_from_zero(r, v, now)
                                             : k.input(i);
    if (k.on() && k.closed()) {
      const CongestionCounters::InputVc open = open_stays(r, v, now);
      a.vc_wait -= open.vc_wait;
      a.credit_wait -= open.credit_wait;
      a.held -= open.held;
      a.occupancy -= open.occupancy;
    }
    rows.cong_vc_wait.push_back(a.vc_wait);
    rows.cong_credit_wait.push_back(a.credit_wait);
    rows.cong_held.push_back(a.held);
    rows.cong_occupancy.push_back(a.occupancy);
    rows.cong_flits.push_back(k.on() && !before ? k.output(i) : 0);
    rows.cong_window_flits.push_back(k.on() ? k.window_output(i) : 0);
    rows.cong_blocked_mark.push_back(k.on() ? k.blocked_mark(i) : 0);
  }
}

void RouterBank::restore(const RouterRows& rows, const PacketSlotOf& slot_of) {
  core_.clear();
  core_.inputs.restore(rows, slot_of);
  core_.outputs.restore(rows);
  // An owner whose buffer is empty is given its packet as the last flit it sent (the rows
  // list only buffered flits; RouterCore::owner_packet finds it there).
  for (std::uint32_t o = 0; o < core_.outputs.size(); ++o) {
    const std::uint8_t owner = core_.outputs.owner(o);
    if (owner == OutputUnit::kFree) continue;
    const std::uint32_t r = core_.outputs.router_of(o);
    const std::uint32_t i = core_.inputs.index(r, owner);
    if (core_.inputs.count(i) == 0) {
      core_.inputs.set_sent_packet(i, slot_of(r, owner, rows.ovc_packet[o]));
    }
  }
  VcAllocationStage::restore(core_, rows);
  switch_.restore(rows, routers(), params().ports + 1);
  InjectionStage::restore(core_, rows, slot_of);
  CongestionCounters& k = core_.congestion;
  k.set_closed(false);  // the rows hold what counting on holds
  for (std::uint32_t i = 0; k.on() && i < k.inputs(); ++i) {
    k.input(i) = CongestionCounters::InputVc{rows.cong_vc_wait[i], rows.cong_credit_wait[i],
                                             rows.cong_held[i], rows.cong_occupancy[i]};
    k.set_output(i, rows.cong_flits[i]);
    k.set_window_output(i, rows.cong_window_flits[i]);
    k.set_blocked_mark(i, rows.cong_blocked_mark[i]);
  }
  SwitchStage::rebuild_masks(core_);  // from the stages and credits just restored
}

}  // namespace wormnet
