// Checkpoint support of RankModel: the partition-independent snapshot and its restore.
#include <algorithm>
#include <map>
#include <unordered_map>

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

ModelSnapshot RankModel::snapshot() const {
  require(level(), "snapshot() while the walk's layers are not level");
  const InputUnit& inputs = bank_.inputs();
  const OutputUnit& outputs = bank_.outputs();
  const std::vector<std::uint32_t>& nodes = bank_.nodes();
  ModelSnapshot s;
  s.ports = static_cast<std::uint32_t>(ports_);
  s.vcs = static_cast<std::uint32_t>(vcs_);
  s.depth = static_cast<std::uint32_t>(bank_.params().depth);
  const std::uint32_t pv = s.port_vcs();
  const auto routers = bank_.routers();
  s.routers = nodes;
  std::vector<std::uint32_t> slots;  // packet slots referenced, for the packet list
  const auto id_of = [&](std::uint32_t slot) {
    slots.push_back(slot);
    return packets_[slot].id;
  };
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t lv = 0; lv < pv; ++lv) {
      const std::uint32_t i = inputs.index(r, static_cast<int>(lv));
      const InputVcState& st = inputs.state(i);
      // In full where it matters (a head waiting to be routed, a VC granted and settling:
      // within a few cycles of the present), else no later than the present (a cycle long
      // past may be more than 2^31 cycles back). A parked head (InputUnit::parked) is ready:
      // the present, as the requests it skipped would have left it; restored, it requests
      // again and parks anew if it is still refused.
      const bool matters = ((inputs.waiting(r) | inputs.settling(r)) >> lv & 1U) != 0;
      const Cycle ready = (inputs.parked(r) >> lv & 1U) != 0 ? now_ : st.ready_near(now_);
      s.ivc_ready.push_back(matters ? ready : std::min(ready, now_));
      s.ivc_since.push_back(inputs.stamp(i));
      s.ivc_meta.push_back(static_cast<std::uint64_t>(st.count) |
                           static_cast<std::uint64_t>(st.stage) << 16 |
                           static_cast<std::uint64_t>(st.out_port) << 24 |
                           static_cast<std::uint64_t>(st.out_vc) << 32);
      for (std::uint32_t k = 0; k < s.depth; ++k) {
        if (k < st.count) {
          const Flit& f = inputs.at(i, k);
          s.flit_packet.push_back(id_of(f.packet()));
          s.flit_kind.push_back(static_cast<std::uint8_t>(f.kind()));
        } else {
          s.flit_packet.push_back(ModelSnapshot::kNoPacket);
          s.flit_kind.push_back(0);
        }
      }
      const std::uint32_t o = outputs.index(r, static_cast<int>(lv));
      s.ovc_credits.push_back(outputs.credits(o));
      s.ovc_owner.push_back(outputs.owner(o));
      const bool owned = outputs.owner(o) != OutputUnit::kFree;
      s.ovc_packet.push_back(owned ? id_of(outputs.owner_packet(o)) : ModelSnapshot::kNoPacket);
      s.va_last.push_back(outputs.last_grant(o));
      // A stream crosses the link when the owner's head has left already.
      const int q = bank_.port_of(lv);
      if (owned && q != ports_) {
        const std::uint32_t owner = inputs.index(r, outputs.owner(o));
        const InputVcState& os = inputs.state(owner);
        const bool head_waiting = os.count > 0 && inputs.front(owner).head() &&
                                  inputs.front(owner).packet() == outputs.owner_packet(o);
        if (!head_waiting) {
          const NodeId next = topo_.neighbor(NodeId(bank_.nodes()[r]), static_cast<PortId>(q));
          s.streams.push_back(ModelSnapshot::Stream{
              next.value(), static_cast<std::uint32_t>((q ^ 1) * vcs_ + bank_.vc_of(lv)),
              id_of(outputs.owner_packet(o))});
        }
      }
    }
    for (int p = 0; p <= ports_; ++p) {
      s.sa_last_vc.push_back(bank_.switch_allocator().last_vc(r, p));
      s.sa_last_port.push_back(bank_.switch_allocator().last_port(r, p));
    }
    const RouterBank::Injection& inj = bank_.injection(r);
    s.injection.push_back(inj.length != 0 ? id_of(inj.packet) : ModelSnapshot::kNoPacket);
    s.injection.push_back(inj.sent);
    s.injection.push_back(inj.length);
    s.injection.push_back(inj.vc);
    const TrafficSources::GeneratorState g = sources_.generator(r);
    s.source_counter.push_back(g.counter);
    s.source_next_time.push_back(g.next_time);
    s.source_sequence.push_back(g.sequence);
    for (int p = 0; p < ports_; ++p) {
      s.channel_flits.push_back(channel_flits_[port_slot(r, p)]);
    }
    // Queued messages, oldest first.
    SourceQueue copy = sources_.queue(r);
    while (!copy.empty()) {
      const Message& m = copy.front();
      s.messages.push_back(ModelSnapshot::QueuedMessage{bank_.nodes()[r], m.created, m.dest,
                                                        m.length, m.measured, m.sequence});
      copy.pop();
    }
  }
  // Wheel: flits and credits on local links (remote ones were exchanged and received).
  for (std::size_t w = 0; w < wheel_.size(); ++w) {
    for (const WheelBucket<Arrival>& block : wheel_[w].flits) {
      for (const Arrival& a : block) {
        s.flits_in_flight.push_back(
            ModelSnapshot::InFlightFlit{arrival_cycle(w), bank_.nodes()[a.router], a.local_vc,
                                        id_of(a.flit.packet()), a.flit.kind()});
      }
    }
    for (const WheelBucket<std::uint32_t>& block : wheel_[w].credits) {
      for (std::uint32_t o : block) {
        const std::uint32_t r = o / outputs.vcs_per_router();
        s.credits_in_flight.push_back(ModelSnapshot::InFlightCredit{
            arrival_cycle(w), bank_.nodes()[r], o % outputs.vcs_per_router()});
      }
    }
  }
  // Streams coming in from other ranks are recorded by their senders; the slots they hold
  // keep their records alive here.
  for (const auto& [ivc, slot] : inbound_) {
    (void)ivc;
    id_of(slot);
  }
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  for (std::uint32_t slot : slots) s.packets.push_back(packets_[slot]);

  s.window = window_;
  s.measured = measured_;
  const TrafficSources::Counts c = sources_.counts();
  s.created_flits = c.created_flits;
  s.created_packets = c.created_packets;
  s.measured_created_packets = c.measured_packets;
  s.measured_created_flits = c.measured_flits;
  s.created_flits_seen = created_flits_seen_;
  s.created_packets_seen = created_packets_seen_;
  s.ejected_packets = ejected_packets_;
  s.scripted_packets = scripted_packets_;
  return s;
}

void RankModel::restore(const ModelSnapshot& all, bool keeper) {
  require(all.ports == static_cast<std::uint32_t>(ports_) &&
              all.vcs == static_cast<std::uint32_t>(vcs_) &&
              all.depth == static_cast<std::uint32_t>(bank_.params().depth),
          "checkpoint: network shape differs from the configuration");
  require(all.routers == bank_.nodes(), "checkpoint: rows do not match this rank's routers");
  const std::uint32_t pv = all.port_vcs();
  const auto routers = bank_.routers();
  const auto mine = [&](std::uint32_t global) { return local_of_[global] != kNoLink; };

  // One slot per packet this rank needs, with the freshest record (the head's copy has the
  // most hops; the other copies never change after the head left them).
  std::unordered_map<std::uint64_t, const Packet*> freshest;
  for (const Packet& p : all.packets) {
    auto [it, inserted] = freshest.emplace(p.id, &p);
    if (!inserted && p.hops > it->second->hops) it->second = &p;
  }
  bank_.clear_buffers();
  InputUnit& inputs = bank_.inputs();
  OutputUnit& outputs = bank_.outputs();
  const auto ivc = [&](std::uint32_t r, std::uint32_t lv) {
    return inputs.index(r, static_cast<int>(lv));
  };
  const auto owned = [&](std::size_t row) { return all.ovc_owner[row] != OutputUnit::kFree; };

  // Segments of this partition: a packet's place at an input VC is joined to its place at
  // the next router when the output VC between them is still its own and the link stays on
  // this rank.
  Segments segments;
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t lv = 0; lv < pv; ++lv) {
      const std::size_t row = static_cast<std::size_t>(r) * pv + lv;
      const auto count = static_cast<std::uint32_t>(all.ivc_meta[row] & 0xFFFF);
      for (std::uint32_t k = 0; k < count; ++k) {
        segments.place(ivc(r, lv), all.flit_packet[row * all.depth + k]);
      }
      if (!owned(row)) continue;
      const std::uint32_t from = segments.place(ivc(r, all.ovc_owner[row]), all.ovc_packet[row]);
      const int q = bank_.port_of(lv);
      if (q == ports_) continue;
      const std::uint32_t next = link(r, q);
      if ((next & kRemoteBit) != 0) continue;
      segments.join(
          from,
          segments.place(ivc(next, static_cast<std::uint32_t>((q ^ 1) * vcs_ + bank_.vc_of(lv))),
                         all.ovc_packet[row]));
    }
  }
  // One slot per segment, holding the packet's freshest record.
  packets_ = PacketTable{};
  std::unordered_map<std::uint32_t, std::uint32_t> slot_of_segment;
  const auto slot = [&](std::uint32_t at, std::uint64_t id) {
    const std::uint32_t segment = segments.root(segments.place(at, id));
    const auto it = slot_of_segment.find(segment);
    if (it != slot_of_segment.end()) return it->second;
    const auto f = freshest.find(id);
    require(f != freshest.end(), "checkpoint: a flit refers to a packet it does not hold");
    const std::uint32_t s = packets_.allocate(*f->second);
    slot_of_segment.emplace(segment, s);
    return s;
  };

  std::vector<TrafficSources::GeneratorState> generators(routers);
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (std::uint32_t lv = 0; lv < pv; ++lv) {
      const std::size_t row = static_cast<std::size_t>(r) * pv + lv;
      const std::uint64_t meta = all.ivc_meta[row];
      const auto count = static_cast<std::uint32_t>(meta & 0xFFFF);
      for (std::uint32_t k = 0; k < count; ++k) {
        const std::size_t f = row * all.depth + k;
        inputs.push(r, static_cast<int>(lv),
                    Flit::with_kind(slot(ivc(r, lv), all.flit_packet[f]), all.flit_kind[f]));
      }
      const auto stage = static_cast<VcStage>((meta >> 16) & 0xFF);
      inputs.set_stage(r, static_cast<int>(lv), stage);
      InputVcState& st = inputs.state(inputs.index(r, static_cast<int>(lv)));
      st.set_ready(all.ivc_ready[row]);
      inputs.set_stamp(ivc(r, lv), all.ivc_since[row]);
      st.out_port = static_cast<std::uint8_t>((meta >> 24) & 0xFF);
      st.out_vc = static_cast<std::uint8_t>((meta >> 32) & 0xFF);
      const std::uint32_t o = outputs.index(r, static_cast<int>(lv));
      outputs.set_credits(o, static_cast<std::uint16_t>(all.ovc_credits[row]));
      outputs.set_owner(o, all.ovc_owner[row]);
      if (owned(row)) {
        outputs.set_owner_packet(o, slot(ivc(r, all.ovc_owner[row]), all.ovc_packet[row]));
      }
      outputs.last_grant(o) = all.va_last[row];
    }
    for (int p = 0; p <= ports_; ++p) {
      const std::size_t row = static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_ + 1) +
                              static_cast<std::size_t>(p);
      bank_.switch_allocator().set_last(r, p, all.sa_last_vc[row], all.sa_last_port[row]);
    }
    RouterBank::Injection& inj = bank_.injection(r);
    const std::uint64_t* in = &all.injection[4 * static_cast<std::size_t>(r)];
    inj = RouterBank::Injection{};
    if (in[0] != ModelSnapshot::kNoPacket) {
      inj.vc = static_cast<std::uint8_t>(in[3]);
      inj.packet = slot(ivc(r, static_cast<std::uint32_t>(ports_ * vcs_ + inj.vc)), in[0]);
      inj.sent = static_cast<std::uint16_t>(in[1]);
      inj.length = static_cast<std::uint16_t>(in[2]);
    }
    generators[r] = TrafficSources::GeneratorState{all.source_counter[r], all.source_next_time[r],
                                                   all.source_sequence[r]};
    for (int p = 0; p < ports_; ++p) {
      channel_flits_[port_slot(r, p)] =
          all.channel_flits[static_cast<std::size_t>(r) * static_cast<std::size_t>(ports_) +
                            static_cast<std::size_t>(p)];
    }
  }
  bank_.rebuild_switch_masks();  // from the stages and credits just restored

  TrafficSources::Counts counts;
  if (keeper) {
    counts = TrafficSources::Counts{all.created_flits, all.created_packets,
                                    all.measured_created_packets, all.measured_created_flits};
  }
  sources_.restore(generators, counts);
  for (const ModelSnapshot::QueuedMessage& m : all.messages) {
    if (!mine(m.router)) continue;
    Message msg;
    msg.created = m.created;
    msg.dest = m.dest;
    msg.length = static_cast<std::uint16_t>(m.length);
    msg.measured = static_cast<std::uint8_t>(m.measured);
    msg.sequence = m.sequence;
    sources_.queue(local_of_[m.router]).push(msg);
    bank_.source_filled(local_of_[m.router]);
  }

  for (WheelSlot& w : wheel_) {
    for (WheelBucket<Arrival>& b : w.flits) b.clear();
    for (WheelBucket<std::uint32_t>& b : w.credits) b.clear();
    for (WheelBucket<RouteDue>& b : w.routes) b.clear();
    for (WheelBucket<MoveDue>& b : w.moves) b.clear();
  }
  for (const ModelSnapshot::InFlightFlit& f : all.flits_in_flight) {
    if (!mine(f.router)) continue;
    const std::uint32_t r = local_of_[f.router];
    wheel_[f.arrival & wheel_mask_].flits[block_of(r)].push_back(
        Arrival{r, static_cast<std::uint16_t>(f.local_vc),
                Flit::with_kind(slot(ivc(r, f.local_vc), f.packet), f.kind)});
  }
  for (const ModelSnapshot::InFlightCredit& c : all.credits_in_flight) {
    if (!mine(c.router)) continue;
    const std::uint32_t r = local_of_[c.router];
    wheel_[c.arrival & wheel_mask_].credits[block_of(r)].push_back(
        outputs.index(r, static_cast<int>(c.local_vc)));
  }
  // Streams whose sender is now on another rank: later flits find their packet through
  // inbound_ (a stream from a router of this rank needs nothing: flits carry the slot).
  inbound_.clear();
  for (const ModelSnapshot::Stream& st : all.streams) {
    if (!mine(st.router)) continue;
    const std::uint32_t r = local_of_[st.router];
    if ((link(r, bank_.port_of(st.local_vc)) & kRemoteBit) == 0) continue;
    inbound_[ivc(r, st.local_vc)] = slot(ivc(r, st.local_vc), st.packet);
  }

  window_ = keeper ? all.window : TrafficCounters{};
  measured_ = keeper ? all.measured : MeasuredStats{};
  created_flits_seen_ = keeper ? all.created_flits_seen : 0;
  created_packets_seen_ = keeper ? all.created_packets_seen : 0;
  ejected_packets_ = keeper ? all.ejected_packets : 0;
  scripted_packets_ = keeper ? all.scripted_packets : 0;
  std::fill(active_.begin(), active_.end(), 0);
  for (std::uint32_t r = 0; r < routers; ++r) {
    if (!idle(r)) wake(r);
  }
  // The next step anchors the layers at its cycle, level (see begin_cycle()).
  std::fill(layer_next_.begin(), layer_next_.end(), 0);
  anchored_ = false;
}

}  // namespace wormnet
