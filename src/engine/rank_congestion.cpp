// RankModel::congestion(): the routers' counts of where packets wait, by global channel id
// (include/wormnet/stats/channel_congestion.hpp), as channel_flits() lists the channels.
#include "wormnet/core/error.hpp"
#include "wormnet/engine/rank_model.hpp"

namespace wormnet {

ChannelCongestion RankModel::congestion() const {
  require(level(), "congestion() while the walk's layers are not level");
  ChannelCongestion out;
  out.vcs = vcs_;
  out.escape_vcs = bank_.params().escape_vcs;
  if (!bank_.params().congestion) return out;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    const NodeId node(bank_.nodes()[r]);
    for (int p = 0; p < ports_; ++p) {
      // Input port p receives the channel of the neighbour's facing port.
      const NodeId from = topo_.neighbor(node, static_cast<PortId>(p));
      const ChannelId in = from.valid()
                               ? topo_.channel(from, static_cast<PortId>(Topology::reverse_port(p)))
                               : ChannelId::invalid();
      if (in.valid()) {
        out.in_channels.push_back(in.value());
        for (int v = 0; v < vcs_; ++v) {
          const VcCongestion c = bank_.congestion(r, p * vcs_ + v, now_);
          out.vc_wait.push_back(c.vc_wait);
          out.credit_wait.push_back(c.credit_wait);
          out.switch_wait.push_back(c.switch_wait);
          out.occupancy.push_back(c.occupancy);
        }
      }
      const ChannelId own = topo_.channel(node, static_cast<PortId>(p));
      if (own.valid()) {
        out.out_channels.push_back(own.value());
        for (int v = 0; v < vcs_; ++v)
          out.vc_flits.push_back(bank_.congestion_flits(r, p * vcs_ + v));
      }
    }
  }
  return out;
}

}  // namespace wormnet
