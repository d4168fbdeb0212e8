// Private to src/io: every field of a checkpoint, declared once. The writer, the reader and
// the reader's size checks walk these tables, so a field added here is written, read back and
// checked without a second spelling. Names are those of checkpoint_schema.hpp; the order of each
// table is the order the file's objects are written in (and that of the attributes' digest text).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "checkpoint_schema.hpp"
#include "wormnet/engine/model_snapshot.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/io/checkpoint_file.hpp"

namespace wormnet::io::checkpoint_layout {

namespace names = schema::checkpoint;

/// The routers' shape, stored beside the progress as root attributes.
struct RouterShape {
  std::uint64_t ports = 0;  ///< network ports P
  std::uint64_t vcs = 0;
  std::uint64_t depth = 0;  ///< flits per VC buffer
  std::uint64_t nodes = 0;  ///< routers of the whole network (rows of the router datasets)
};

/// A root attribute: its name and the value it holds (std::string, std::int64_t,
/// std::uint64_t or double; strings are stored fixed-length).
template <class V>
struct Attribute {
  std::string_view name;
  V& value;
};
template <class V>
Attribute(std::string_view, V&) -> Attribute<V>;

/// The root attributes a restart reads, in the order of the file and of their digest text.
/// P is RunProgress or const RunProgress, S RouterShape or const RouterShape.
template <class P, class S>
auto attributes(P& p, S& s) {
  return std::tuple{Attribute{schema::kWormnetVersionAttr, p.version},
                    Attribute{schema::kConfigAttr, p.config_toml},
                    Attribute{schema::kInputsAttr, p.inputs},
                    Attribute{names::kCommand, p.command},
                    Attribute{names::kOutput, p.output},
                    Attribute{names::kPoint, p.point},
                    Attribute{names::kRate, p.rate},
                    Attribute{names::kLeftAfterSaturation, p.left_after_saturation},
                    Attribute{names::kCycle, p.cycle},
                    Attribute{names::kWindowStart, p.window_start},
                    Attribute{names::kNextWindow, p.next_window},
                    Attribute{names::kNextCheck, p.next_check},
                    Attribute{names::kFlitHops, p.flit_hops},
                    Attribute{names::kSeriesRows, p.series_rows},
                    Attribute{names::kSummaryRows, p.summary_rows},
                    Attribute{names::kPorts, s.ports},
                    Attribute{names::kVcs, s.vcs},
                    Attribute{names::kDepth, s.depth},
                    Attribute{names::kNodes, s.nodes}};
}

/// Elements of one router's row of a field.
enum class RowWidth {
  kOne,           ///< a scalar per router
  kPortVcs,       ///< (P + 1) x V: per input or output VC
  kPortVcsDepth,  ///< (P + 1) x V x B: per buffered flit slot
  kPorts,         ///< P + 1: per port, the terminal's included
  kNetworkPorts,  ///< P: per network channel
  kInjection,     ///< 4: packet id, sent, length, vc
};

/// The dimensions of one row (empty for a scalar per router).
inline std::vector<std::uint64_t> row_shape(RowWidth w, const ModelSnapshot& m) {
  switch (w) {
    case RowWidth::kOne:
      return {};
    case RowWidth::kPortVcs:
      return {m.port_vcs()};
    case RowWidth::kPortVcsDepth:
      return {static_cast<std::uint64_t>(m.port_vcs()) * m.depth};
    case RowWidth::kPorts:
      return {m.ports + 1U};
    case RowWidth::kNetworkPorts:
      return {m.ports};
    case RowWidth::kInjection:
      return {4};
  }
  return {};
}

/// A per-router field: a dataset of the routers group, a row per global router id.
template <class V>
struct RouterField {
  std::string_view name;
  V& values;  ///< std::vector<T> (const when writing): the rows of the snapshot's routers
  RowWidth width;
};
template <class V>
RouterField(std::string_view, V&, RowWidth) -> RouterField<V>;

/// The routers' per-router fields (RouterRows). R is RouterRows or const RouterRows.
template <class R>
auto router_unit_fields(R& u) {
  using W = RowWidth;
  return std::tuple{RouterField{names::kIvcReady, u.ivc_ready, W::kPortVcs},
                    RouterField{names::kIvcSince, u.ivc_since, W::kPortVcs},
                    RouterField{names::kIvcMeta, u.ivc_meta, W::kPortVcs},
                    RouterField{names::kFlitPacket, u.flit_packet, W::kPortVcsDepth},
                    RouterField{names::kFlitKind, u.flit_kind, W::kPortVcsDepth},
                    RouterField{names::kOvcCredits, u.ovc_credits, W::kPortVcs},
                    RouterField{names::kOvcOwner, u.ovc_owner, W::kPortVcs},
                    RouterField{names::kOvcPacket, u.ovc_packet, W::kPortVcs},
                    RouterField{names::kVaLast, u.va_last, W::kPortVcs},
                    RouterField{names::kSaLastVc, u.sa_last_vc, W::kPorts},
                    RouterField{names::kSaLastPort, u.sa_last_port, W::kPorts},
                    RouterField{names::kInjection, u.injection, W::kInjection},
                    RouterField{names::kCongVcWait, u.cong_vc_wait, W::kPortVcs},
                    RouterField{names::kCongCreditWait, u.cong_credit_wait, W::kPortVcs},
                    RouterField{names::kCongHeld, u.cong_held, W::kPortVcs},
                    RouterField{names::kCongOccupancy, u.cong_occupancy, W::kPortVcs},
                    RouterField{names::kCongFlits, u.cong_flits, W::kPortVcs},
                    RouterField{names::kCongWindowFlits, u.cong_window_flits, W::kPortVcs},
                    RouterField{names::kCongBlockedMark, u.cong_blocked_mark, W::kPortVcs}};
}

/// The sources' per-router fields (TrafficSources::Rows).
template <class S>
auto source_fields(S& s) {
  using W = RowWidth;
  return std::tuple{RouterField{names::kSourceCounter, s.counter, W::kOne},
                    RouterField{names::kSourceNextTime, s.next_time, W::kOne},
                    RouterField{names::kSourceSequence, s.sequence, W::kOne}};
}

/// Every per-router field, part by part: the routers, their sources, the channels' flit
/// counts. M is ModelSnapshot or const ModelSnapshot.
template <class M>
auto router_fields(M& m) {
  return std::tuple_cat(router_unit_fields(m.router), source_fields(m.sources),
                        std::tuple{RouterField{names::kChannelFlits, m.counters.channel_flits,
                                               RowWidth::kNetworkPorts}});
}

/// A column of a list: a member of the list's entries, stored as `Stored` (an HDF5 element
/// type at least as wide as the member).
template <class Stored, class Entry, class Member>
struct Column {
  using StoredType = Stored;
  std::string_view name;
  Member Entry::*member;
};
template <class Stored, class Entry, class Member>
constexpr Column<Stored, Entry, Member> column(std::string_view name, Member Entry::*member) {
  return {name, member};
}

/// A list: a group holding one dataset per column, the entries of every rank in rank order.
template <class V, class Columns>
struct List {
  std::string_view group;
  V& entries;  ///< std::vector<Entry> (const when writing)
  Columns columns;
};
template <class V, class Columns>
List(std::string_view, V&, Columns) -> List<V, Columns>;

/// Every list, part by part: the arrival wheel's, the sources' queues, the links' streams,
/// the packets. M is ModelSnapshot or const ModelSnapshot.
template <class M>
auto lists(M& m) {
  using F = ArrivalRows::Flit;
  using C = ArrivalRows::Credit;
  using Q = TrafficSources::Rows::QueuedMessage;
  using S = StreamRow;
  using std::uint32_t, std::uint64_t, std::uint8_t;
  return std::tuple{List{names::kFlitsList, m.arrivals.flits,
                         std::tuple{column<uint64_t>(names::kArrival, &F::arrival),
                                    column<uint32_t>(names::kRouter, &F::router),
                                    column<uint32_t>(names::kLocalVc, &F::local_vc),
                                    column<uint64_t>(names::kPacket, &F::packet),
                                    column<uint32_t>(names::kKindColumn, &F::kind)}},
                    List{names::kCreditsList, m.arrivals.credits,
                         std::tuple{column<uint64_t>(names::kArrival, &C::arrival),
                                    column<uint32_t>(names::kRouter, &C::router),
                                    column<uint32_t>(names::kLocalVc, &C::local_vc)}},
                    List{names::kMessagesList, m.sources.messages,
                         std::tuple{column<uint32_t>(names::kRouter, &Q::router),
                                    column<uint64_t>(names::kCreated, &Q::created),
                                    column<uint32_t>(names::kDest, &Q::dest),
                                    column<uint32_t>(names::kLength, &Q::length),
                                    column<uint32_t>(names::kMeasured, &Q::measured),
                                    column<uint64_t>(names::kSequence, &Q::sequence)}},
                    List{names::kStreamsList, m.streams,
                         std::tuple{column<uint32_t>(names::kRouter, &S::router),
                                    column<uint32_t>(names::kLocalVc, &S::local_vc),
                                    column<uint64_t>(names::kPacket, &S::packet)}},
                    List{names::kPacketsList, m.packets,
                         std::tuple{column<uint64_t>(names::kCreated, &Packet::created),
                                    column<uint64_t>(names::kInjected, &Packet::injected),
                                    column<uint64_t>(names::kId, &Packet::id),
                                    column<uint32_t>(names::kSource, &Packet::source),
                                    column<uint32_t>(names::kDest, &Packet::dest),
                                    column<uint32_t>(names::kState, &Packet::state),
                                    column<uint32_t>(names::kLength, &Packet::length),
                                    column<uint32_t>(names::kHops, &Packet::hops),
                                    column<uint8_t>(names::kMeasured, &Packet::measured)}}};
}

/// The additive scalar counters, in the order of the counters/scalars dataset. M is
/// ModelSnapshot or const ModelSnapshot.
template <class M>
auto scalars(M& m) {
  return std::array{&m.counters.measured.delivered_packets,
                    &m.counters.measured.delivered_flits,
                    &m.counters.measured.hops_sum,
                    &m.counters.measured.accepted_flits,
                    &m.counters.measured.packet_cycles,
                    &m.sources.counts.created_flits,
                    &m.sources.counts.created_packets,
                    &m.sources.counts.measured_packets,
                    &m.sources.counts.measured_flits,
                    &m.counters.created_flits_seen,
                    &m.counters.created_packets_seen,
                    &m.counters.ejected_packets,
                    &m.counters.scripted_packets};
}

/// A latency histogram of the counters group.
template <class H>
struct Histogram {
  std::string_view name;
  H& histogram;
};
template <class H>
Histogram(std::string_view, H&) -> Histogram<H>;

template <class M>
auto histograms(M& m) {
  return std::array{Histogram{names::kLatencyTotal, m.counters.measured.total},
                    Histogram{names::kLatencyNetwork, m.counters.measured.network},
                    Histogram{names::kLatencyQueueing, m.counters.measured.queueing}};
}

}  // namespace wormnet::io::checkpoint_layout
