// RankStateView's counts, channel lists and deadlock questions; its snapshot is in
// rank_state_snapshot.cpp.
#include "wormnet/engine/rank_state_view.hpp"

#include <bit>

#include "wormnet/engine/router_set.hpp"

namespace wormnet {

FlitGauges RankStateView::gauges() const {
  // A flit in an outbox is still this rank's; unsigned arithmetic wraps, so a "negative"
  // offset (set by a restore) adds up right.
  std::uint64_t outboxed = 0;
  for (const Outbox& o : links_.outboxes()) outboxed += o.flits.size();
  const FlitGauges& offset = counters_.gauge_offset();
  FlitGauges g;
  g.flits_in_network = offset.flits_in_network + counters_.injected_flits() -
                       counters_.ejected_flits() + links_.flits_received() - links_.flits_sent() +
                       outboxed;
  g.flits_at_sources = offset.flits_at_sources + sources_.created_flits() +
                       counters_.scripted_flits() - counters_.injected_flits();
  g.messages_at_sources = offset.messages_at_sources + sources_.created_packets() +
                          counters_.scripted_packets() - counters_.injected_packets();
  return g;
}

std::uint64_t RankStateView::flits_in_network() const {
  std::uint64_t n = wheel_.flits();  // on local links
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) n += bank_.buffered_flits(r);
  for (const Outbox& o : links_.outboxes()) n += o.flits.size();
  return n;
}

std::uint64_t RankStateView::flits_at_sources() const {
  std::uint64_t n = 0;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    n += sources_.queue(r).queued_flits() + bank_.unsent_flits(r);
  }
  return n;
}

std::uint64_t RankStateView::messages_at_sources() const {
  std::uint64_t n = 0;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) n += sources_.queue(r).size();
  return n;
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> RankStateView::channel_flits() const {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  const int ports = bank_.params().ports;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    for (int p = 0; p < ports; ++p) {
      const ChannelId c = topo_.channel(NodeId(bank_.nodes()[r]), static_cast<PortId>(p));
      if (!c.valid()) continue;
      out.emplace_back(c.value(), counters_.channel_flits(links_.slot(r, p)));
    }
  }
  return out;
}

ChannelCongestion RankStateView::congestion() const {
  const int ports = bank_.params().ports;
  const int vcs = bank_.params().vcs;
  ChannelCongestion out;
  out.vcs = vcs;
  out.escape_vcs = bank_.params().escape_vcs;
  if (!bank_.params().congestion) return out;
  // Nothing counts before the window (the counters may not be open yet: RankModel::step_layer()).
  const bool open = now_ > bank_.params().measure_begin;
  for (std::uint32_t r = 0; r < bank_.routers(); ++r) {
    const NodeId node(bank_.nodes()[r]);
    for (int p = 0; p < ports; ++p) {
      // Input port p receives the channel of the neighbour's facing port.
      const NodeId from = topo_.neighbor(node, static_cast<PortId>(p));
      const ChannelId in = from.valid()
                               ? topo_.channel(from, static_cast<PortId>(Topology::reverse_port(p)))
                               : ChannelId::invalid();
      if (in.valid()) {
        out.in_channels.push_back(in.value());
        for (int v = 0; v < vcs; ++v) {
          const VcCongestion c = open ? bank_.congestion(r, p * vcs + v, now_) : VcCongestion{};
          out.vc_wait.push_back(c.vc_wait);
          out.credit_wait.push_back(c.credit_wait);
          out.switch_wait.push_back(c.switch_wait);
          out.occupancy.push_back(c.occupancy);
        }
      }
      const ChannelId own = topo_.channel(node, static_cast<PortId>(p));
      if (own.valid()) {
        out.out_channels.push_back(own.value());
        for (int v = 0; v < vcs; ++v)
          out.vc_flits.push_back(open ? bank_.congestion_flits(r, p * vcs + v) : 0);
      }
    }
  }
  return out;
}

template <class F>
void RankStateView::for_each_stuck_vc(Cycle t, Cycle threshold, F&& f) const {
  // Routers that hold flits are active: only those are visited (a cost per control check of
  // a few instructions per busy router). A router whose only flits are heads that reached an
  // idle VC in the last routing_delay cycles sleeps until they route (RankModel's arrive());
  // they are not stuck, since the threshold exceeds the routing delay (config validation).
  for (std::size_t w = 0; w < active_.size(); ++w) {
    for (std::uint64_t bits = active_[w]; bits != 0; bits &= bits - 1) {
      const std::uint32_t r = router_set::router(w, std::countr_zero(bits));
      bank_.for_each_stuck_vc(r, t, threshold,
                              [&](int lv) { f(r, static_cast<std::uint32_t>(lv)); });
    }
  }
}

std::uint64_t RankStateView::stuck_vcs(Cycle t, Cycle threshold) const {
  std::uint64_t n = 0;
  for_each_stuck_vc(t, threshold, [&](std::uint32_t, std::uint32_t) { ++n; });
  return n;
}

std::vector<WaitEdge> RankStateView::wait_for_edges(Cycle t, Cycle threshold) const {
  std::vector<WaitEdge> edges;
  std::vector<VcWait> waits;
  for_each_stuck_vc(t, threshold, [&](std::uint32_t r, std::uint32_t lv) {
    const NodeId node(bank_.nodes()[r]);
    waits.clear();
    bank_.wait_for(r, static_cast<int>(lv), t, waits);
    for (const VcWait& w : waits) {
      WaitEdge e{node.value(),
                 static_cast<std::uint8_t>(bank_.port_of(lv)),
                 static_cast<std::uint8_t>(bank_.vc_of(lv)),
                 node.value(),
                 w.port,
                 w.vc};
      if (w.kind == VcWait::kDownstream) {
        // The input VC that a flit sent on (port, vc) enters: it must move for a credit.
        const auto port = static_cast<PortId>(w.port);
        e.on_node = topo_.neighbor(node, port).value();
        e.on_port = static_cast<std::uint8_t>(Topology::reverse_port(port));
      }
      edges.push_back(e);
    }
  });
  return edges;
}

}  // namespace wormnet
