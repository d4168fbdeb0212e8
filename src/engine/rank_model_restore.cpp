// RankModel::restore(): the state of a checkpoint, taken on any partition (its snapshot is
// RankStateView::snapshot(), rank_state_snapshot.cpp), restored onto this rank's part, each
// part reading its own share.
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "rank_model_walk.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/engine/rank_model.hpp"

namespace wormnet {

namespace {

/// The places a packet occupies on one rank (an input VC holding its flits, or flits in flight
/// to it, or its stream from another rank, or the output VC its flits leave by), joined into
/// segments: runs of consecutive routers of its path that are all on this rank. An
/// uninterrupted run keeps one packet slot per segment (a slot is released when the tail
/// leaves the rank, and a packet that comes back to a rank it left brings its record again),
/// so a restart onto another partition must rebuild the segments of that partition.
class Segments {
 public:
  /// The place of `packet` at input VC `ivc` (an InputUnit index of this rank).
  std::uint32_t place(std::uint32_t ivc, std::uint64_t packet) {
    const auto [it, added] =
        index_.try_emplace(std::pair{ivc, packet}, static_cast<std::uint32_t>(parent_.size()));
    if (added) parent_.push_back(it->second);
    return it->second;
  }
  /// The packet moves from place a to place b over a link inside the rank.
  void join(std::uint32_t a, std::uint32_t b) { parent_[root(a)] = root(b); }
  [[nodiscard]] std::uint32_t root(std::uint32_t a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }

 private:
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> index_;
  std::vector<std::uint32_t> parent_;
};

}  // namespace

void RankModel::restore(const ModelSnapshot& all, bool keeper) {
  require(all.ports == static_cast<std::uint32_t>(ports_) &&
              all.vcs == static_cast<std::uint32_t>(vcs_) &&
              all.depth == static_cast<std::uint32_t>(bank_.params().depth),
          "checkpoint: network shape differs from the configuration");
  require(all.routers == bank_.nodes(), "checkpoint: rows do not match this rank's routers");
  const std::uint32_t pv = all.port_vcs();
  const auto routers = bank_.routers();
  const auto mine = [&](std::uint32_t global) { return links_.mine(global); };
  const RouterRows& rows = all.router;

  // One slot per packet this rank needs, with the freshest record (the head's copy has the
  // most hops; the other copies never change after the head left them).
  std::unordered_map<std::uint64_t, const Packet*> freshest;
  for (const Packet& p : all.packets) {
    auto [it, inserted] = freshest.emplace(p.id, &p);
    if (!inserted && p.hops > it->second->hops) it->second = &p;
  }
  // An input VC's place key: router x (P + 1) x V + port x V + vc.
  const auto ivc = [&](std::uint32_t r, std::uint32_t lv) { return r * pv + lv; };

  // Segments of this partition: a packet's place at an input VC is joined to its place at
  // the next router when the output VC between them is still its own and the link stays on
  // this rank.
  Segments segments;
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t lv = 0; lv < pv; ++lv) {
      const std::size_t row = static_cast<std::size_t>(r) * pv + lv;
      for (std::uint32_t k = 0; k < rows.buffered(row); ++k) {
        segments.place(ivc(r, lv), rows.flit_packet[row * all.depth + k]);
      }
      if (!rows.owned(row)) continue;
      const std::uint32_t from = segments.place(ivc(r, rows.ovc_owner[row]), rows.ovc_packet[row]);
      const auto q = static_cast<PortId>(bank_.port_of(lv));
      if (q == ports_) continue;
      const std::uint32_t next = links_.link(r, q);
      if (RankLinks::remote(next)) continue;
      const auto across =
          static_cast<std::uint32_t>(Topology::reverse_port(q) * vcs_ + bank_.vc_of(lv));
      segments.join(from, segments.place(ivc(next, across), rows.ovc_packet[row]));
    }
  }
  // One slot per segment, holding the packet's freshest record.
  packets_ = PacketTable{};
  std::unordered_map<std::uint32_t, std::uint32_t> slot_of_segment;
  const PacketSlotOf slot = [&](std::uint32_t r, std::uint32_t lv, std::uint64_t id) {
    const std::uint32_t segment = segments.root(segments.place(ivc(r, lv), id));
    const auto it = slot_of_segment.find(segment);
    if (it != slot_of_segment.end()) return it->second;
    const auto f = freshest.find(id);
    require(f != freshest.end(), "checkpoint: a flit refers to a packet it does not hold");
    const std::uint32_t s = packets_.allocate(*f->second);
    slot_of_segment.emplace(segment, s);
    return s;
  };
  // The slots in the order of the rows, router by router (slot numbers change no result,
  // but the next checkpoint lists its packets by slot).
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t lv = 0; lv < pv; ++lv) {
      const std::size_t row = static_cast<std::size_t>(r) * pv + lv;
      for (std::uint32_t k = 0; k < rows.buffered(row); ++k) {
        slot(r, lv, rows.flit_packet[row * all.depth + k]);
      }
      if (rows.owned(row)) slot(r, rows.ovc_owner[row], rows.ovc_packet[row]);
    }
    const std::uint64_t* in = &rows.injection[4 * static_cast<std::size_t>(r)];
    if (in[0] != RouterRows::kNoPacket) {
      slot(r, static_cast<std::uint32_t>(ports_ * vcs_) + static_cast<std::uint32_t>(in[3]), in[0]);
    }
  }
  bank_.restore(rows, slot);
  sources_.restore(all.sources, keeper, [&](std::uint32_t global) {
    return mine(global) ? std::optional<std::uint32_t>(links_.local(global)) : std::nullopt;
  });
  for (std::uint32_t r = 0; r < routers; ++r) {
    if (!sources_.queue(r).empty()) bank_.source_filled(r);
  }
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int p = 0; p < ports_; ++p) {
      counters_.set_channel_flits(
          links_.slot(r, p),
          all.counters
              .channel_flits[static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_) +
                             static_cast<std::size_t>(p)]);
    }
  }

  wheel_.clear();
  plan_.clear();
  for (const ArrivalRows::Flit& f : all.arrivals.flits) {
    if (!mine(f.router)) continue;
    const std::uint32_t r = links_.local(f.router);
    wheel_.add_flit(f.arrival, r, static_cast<int>(f.local_vc),
                    Flit::with_kind(slot(r, f.local_vc, f.packet), f.kind));
  }
  for (const ArrivalRows::Credit& c : all.arrivals.credits) {
    if (!mine(c.router)) continue;
    const std::uint32_t r = links_.local(c.router);
    wheel_.add_credit(c.arrival, r, bank_.output_vc(r, static_cast<int>(c.local_vc)));
  }
  // Streams whose sender is now on another rank: later flits find their packet through
  // the links' streams (a stream from a router of this rank needs nothing: flits carry the slot).
  links_.clear_streams();
  for (const StreamRow& st : all.streams) {
    if (!mine(st.router)) continue;
    const std::uint32_t r = links_.local(st.router);
    if (!RankLinks::remote(links_.link(r, bank_.port_of(st.local_vc)))) continue;
    links_.stream_in(bank_.input_vc(r, static_cast<int>(st.local_vc)),
                     slot(r, st.local_vc, st.packet));
  }

  counters_.restore(all.counters, keeper);
  // The counters are open if the window's first cycle was stepped before the checkpoint: the
  // next step knows (begin_cycle()).
  count_opened_ = count_from_ == 0;
  count_closed_ = false;  // the bank's rows count on: closed again at the next step past the window
  std::fill(active_.begin(), active_.end(), 0);
  for (std::uint32_t r = 0; r < routers; ++r) {
    if (!idle(r)) wake(r);
  }
  // The next step anchors the layers at its cycle, level (see begin_cycle()).
  walk_.reset();
  // The gauges go on from what the restored state holds, counted once.
  counters_.set_gauge_offset(FlitGauges{});
  const RankStateView view = state();
  const FlitGauges counted = view.counted_gauges();
  const FlitGauges balance = view.gauges();
  counters_.set_gauge_offset({counted.flits_in_network - balance.flits_in_network,
                              counted.flits_at_sources - balance.flits_at_sources,
                              counted.messages_at_sources - balance.messages_at_sources});
}

}  // namespace wormnet
