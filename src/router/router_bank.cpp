#include "wormnet/router/router_bank.hpp"

#include <bit>

namespace wormnet {

VcCongestion RouterBank::congestion(std::uint32_t r, int local_vc, Cycle T) const {
  // The stays still open at T end there (congestion_counters.hpp).
  const CongestionCounters& k = core_.congestion;
  const std::uint32_t i = core_.inputs.index(r, local_vc);
  const InputVcState& s = core_.inputs.state(i);
  const CongestionCounters::InputVc& a = k.input(i);
  const std::uint64_t bit = std::uint64_t{1} << local_vc;
  const Cycle open_until = k.clip(std::max(T, s.ready_near(T)));
  std::uint64_t vc_wait = a.vc_wait;
  std::uint64_t credit = a.credit_wait;
  std::uint64_t held = a.held;
  if (s.stage == VcStage::kWaitVc) vc_wait += open_until;
  if (s.stage == VcStage::kActive && s.count != 0) {
    held += open_until;
    if ((core_.inputs.blocked(r) & bit) != 0) credit += open_until;
  }
  return VcCongestion{vc_wait, credit, held - credit, a.occupancy + k.clip(T) * s.count};
}

void RouterBank::save(RouterRows& rows, Cycle now, const PacketIdOf& id_of) const {
  core_.inputs.save(rows, now, id_of);
  core_.outputs.save(rows, id_of);
  VcAllocationStage::save(core_, rows);
  switch_.save(rows, routers(), params().ports + 1);
  InjectionStage::save(core_, rows, id_of);
  const CongestionCounters& k = core_.congestion;
  const auto vcs = static_cast<std::size_t>(core_.inputs.vcs_per_router()) * routers();
  for (std::uint32_t i = 0; i < vcs; ++i) {
    const CongestionCounters::InputVc a = k.on() ? k.input(i) : CongestionCounters::InputVc{};
    rows.cong_vc_wait.push_back(a.vc_wait);
    rows.cong_credit_wait.push_back(a.credit_wait);
    rows.cong_held.push_back(a.held);
    rows.cong_occupancy.push_back(a.occupancy);
    rows.cong_flits.push_back(k.on() ? k.output(i) : 0);
    rows.cong_window_flits.push_back(k.on() ? k.window_output(i) : 0);
  }
}

void RouterBank::restore(const RouterRows& rows, const PacketSlotOf& slot_of) {
  core_.clear();
  core_.inputs.restore(rows, slot_of);
  core_.outputs.restore(rows, slot_of);
  VcAllocationStage::restore(core_, rows);
  switch_.restore(rows, routers(), params().ports + 1);
  InjectionStage::restore(core_, rows, slot_of);
  CongestionCounters& k = core_.congestion;
  for (std::uint32_t i = 0; k.on() && i < k.inputs(); ++i) {
    k.input(i) = CongestionCounters::InputVc{rows.cong_vc_wait[i], rows.cong_credit_wait[i],
                                             rows.cong_held[i], rows.cong_occupancy[i]};
    k.set_output(i, rows.cong_flits[i]);
    k.set_window_output(i, rows.cong_window_flits[i]);
  }
  SwitchStage::rebuild_masks(core_);  // from the stages and credits just restored
}

}  // namespace wormnet
