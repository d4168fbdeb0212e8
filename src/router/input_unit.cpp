// The input unit's checkpoint form (RouterRows): save() and restore().
#include "wormnet/router/input_unit.hpp"

#include <algorithm>

namespace wormnet {

void InputUnit::save(RouterRows& rows, Cycle now, const PacketIdOf& id_of) const {
  for (std::uint32_t r = 0; r < routers(); ++r) {
    const std::uint64_t matters_bits = waiting(r) | settling(r);
    const std::uint64_t parked_bits = parked(r);
    for (std::uint32_t lv = 0; lv < vcs_per_router_; ++lv) {
      const std::uint32_t i = index(r, static_cast<int>(lv));
      const std::uint32_t n = count(i);
      const bool matters = (matters_bits >> lv & 1U) != 0;
      const Cycle ready = (parked_bits >> lv & 1U) != 0 ? now : ready_near(i, now);
      rows.ivc_ready.push_back(matters ? ready : std::min(ready, now));
      rows.ivc_since.push_back(stamp(i));
      rows.ivc_meta.push_back(RouterRows::ivc_meta_of(n, static_cast<std::uint8_t>(stage(i)),
                                                      static_cast<std::uint8_t>(out_port(i)),
                                                      static_cast<std::uint8_t>(out_vc(i))));
      for (std::uint32_t k = 0; k < depth_; ++k) {
        if (k < n) {
          const Flit& f = at(i, k);
          rows.flit_packet.push_back(id_of(f.packet()));
          rows.flit_kind.push_back(static_cast<std::uint8_t>(f.kind()));
        } else {
          rows.flit_packet.push_back(RouterRows::kNoPacket);
          rows.flit_kind.push_back(0);
        }
      }
    }
  }
}

void InputUnit::restore(const RouterRows& rows, const PacketSlotOf& slot_of) {
  for (std::uint32_t r = 0; r < routers(); ++r) {
    for (std::uint32_t lv = 0; lv < vcs_per_router_; ++lv) {
      const std::size_t row = static_cast<std::size_t>(r) * vcs_per_router_ + lv;
      const std::uint64_t meta = rows.ivc_meta[row];
      const std::uint32_t buffered = rows.buffered(row);
      for (std::uint32_t k = 0; k < buffered; ++k) {
        const std::size_t f = row * depth_ + k;
        push(r, static_cast<int>(lv),
             Flit::with_kind(slot_of(r, lv, rows.flit_packet[f]), rows.flit_kind[f]));
      }
      set_stage(r, static_cast<int>(lv), static_cast<VcStage>((meta >> 16) & 0xFF));
      const std::uint32_t i = index(r, static_cast<int>(lv));
      set_stamp(i, rows.ivc_since[row]);
      // Its ready cycle is its stamp plus its stage's delay, or past (save() wrote `now`, or
      // a cycle at or before it where it no longer matters: any such cycle behaves the same
      // from `now` on). Only a head at the front can be within its delay (routed, or granted
      // and not yet gone); where its stored stamp plus delay happens to equal a past cycle,
      // that reads the same. Any other VC is past: its stamp moves with its flits (a deposit
      // into an empty VC that holds an output VC), which a stage's delay must not follow.
      const VcStage st = stage(i);
      const std::uint32_t derived = rows.ivc_since[row] + stage_delay(st);
      const bool head_in_front = buffered != 0 && at(i, 0).head();
      const bool past = st == VcStage::kIdle || !head_in_front ||
                        static_cast<std::uint32_t>(rows.ivc_ready[row]) != derived;
      with_state(i, [&](auto& s) { s.set_past(past); });
      set_out(i, static_cast<int>((meta >> 24) & 0xFF), static_cast<int>((meta >> 32) & 0xFF));
    }
  }
}

}  // namespace wormnet
