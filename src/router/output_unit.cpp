// The output unit's checkpoint form (RouterRows): save() and restore().
#include "wormnet/router/output_unit.hpp"

namespace wormnet {

void OutputUnit::save(RouterRows& rows) const {
  for (const OutputVc& v : vcs_) {
    rows.ovc_credits.push_back(v.credits);
    rows.ovc_owner.push_back(v.owner);
  }
}

void OutputUnit::restore(const RouterRows& rows) {
  for (std::uint32_t o = 0; o < vcs_.size(); ++o) {
    OutputVc& v = vcs_[o];
    v.credits = static_cast<std::uint16_t>(rows.ovc_credits[o]);
    v.owner = rows.ovc_owner[o];
  }
}

}  // namespace wormnet
