// The output unit's checkpoint form (RouterRows): save() and restore().
#include "wormnet/router/output_unit.hpp"

namespace wormnet {

void OutputUnit::save(RouterRows& rows, const PacketIdOf& id_of) const {
  for (std::uint32_t o = 0; o < vcs_.size(); ++o) {
    const OutputVc& v = vcs_[o];
    rows.ovc_credits.push_back(v.credits);
    rows.ovc_owner.push_back(v.owner);
    rows.ovc_packet.push_back(v.owner != kFree ? id_of(v.owner_packet) : RouterRows::kNoPacket);
  }
}

void OutputUnit::restore(const RouterRows& rows, const PacketSlotOf& slot_of) {
  for (std::uint32_t o = 0; o < vcs_.size(); ++o) {
    OutputVc& v = vcs_[o];
    v.credits = static_cast<std::uint16_t>(rows.ovc_credits[o]);
    v.owner = rows.ovc_owner[o];
    if (v.owner != kFree) v.owner_packet = slot_of(router_of(o), v.owner, rows.ovc_packet[o]);
  }
}

}  // namespace wormnet
