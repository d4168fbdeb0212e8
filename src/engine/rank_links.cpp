#include "wormnet/engine/rank_links.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "wormnet/core/error.hpp"

namespace wormnet {

RankLinks::RankLinks(const Topology& topo, const Partition& partition, int rank,
                     const std::vector<std::uint32_t>& nodes)
    : port_shift_(std::bit_width(static_cast<unsigned>(std::max(topo.num_ports(), 1) - 1))),
      local_of_(topo.num_nodes(), kNoLink) {
  const auto routers = static_cast<std::uint32_t>(nodes.size());
  for (std::uint32_t r = 0; r < routers; ++r) local_of_[nodes[r]] = r;
  link_.assign(static_cast<std::size_t>(routers) << port_shift_, kNoLink);
  boundary_.assign(router_set::words(routers), 0);
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int p = 0; p < topo.num_ports(); ++p) {
      const NodeId m = topo.neighbor(NodeId(nodes[r]), static_cast<PortId>(p));
      if (!m.valid()) continue;
      const std::size_t k = slot(r, p);
      const int owner = partition.owner(m);
      if (owner == rank) {
        link_[k] = local_of_[m.value()];
      } else {
        link_[k] = kRemoteBit | static_cast<std::uint32_t>(remote_.size());
        remote_.push_back(RemoteEnd{m.value(), static_cast<std::uint16_t>(owner)});
        neighbor_ranks_.push_back(owner);
        boundary_[router_set::word(r)] |= router_set::bit(r);
      }
    }
  }
  // The map of every node of the network (4 bytes a node, on every rank) gives way to the
  // runs when they are few.
  std::vector<Run> runs;
  for (std::uint32_t r = 0; r < routers && runs.size() <= kMostRuns; ++r) {
    if (runs.empty() || nodes[r] != runs.back().global + runs.back().count ||
        r != runs.back().local + runs.back().count) {
      runs.push_back(Run{nodes[r], r, 0});
    }
    ++runs.back().count;
  }
  if (runs.size() <= kMostRuns) {
    std::sort(runs.begin(), runs.end(),
              [](const Run& a, const Run& b) { return a.global < b.global; });
    runs_ = std::move(runs);
    local_of_ = HugeVector<std::uint32_t>();
  }
  std::sort(neighbor_ranks_.begin(), neighbor_ranks_.end());
  neighbor_ranks_.erase(std::unique(neighbor_ranks_.begin(), neighbor_ranks_.end()),
                        neighbor_ranks_.end());
  for (std::uint32_t w = 0; w < boundary_.size(); ++w) {
    if (boundary_[w] != 0) boundary_words_.push_back(w);
  }
  outboxes_.resize(static_cast<std::size_t>(partition.parts()));
}

std::uint64_t RankLinks::links_to(int peer) const {
  std::uint64_t n = 0;
  for (const RemoteEnd& e : remote_) n += e.rank == peer ? 1 : 0;
  return n;
}

Outbox& RankLinks::outbox(std::uint32_t i, Cycle arrival, const char* what) {
  require(arrival >= window_end_, what);
  return outboxes_[remote_[i].rank];
}

std::size_t RankLinks::bytes() const {
  return local_of_.capacity() * 4 + runs_.capacity() * sizeof(Run) + link_.capacity() * 4 +
         remote_.capacity() * sizeof(RemoteEnd) + inbound_.size() * 32;
}

}  // namespace wormnet
