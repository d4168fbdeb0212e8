#include "wormnet/io/checkpoint_file.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "wormnet/core/error.hpp"
#include "wormnet/io/h5_error.hpp"
#include "wormnet/io/h5_file.hpp"
#include "wormnet/io/row_distribution.hpp"

namespace wormnet::io {

namespace {

constexpr std::int64_t kCheckpointVersion = 1;
constexpr std::string_view kKind = "wormnet checkpoint";

RowDistribution router_rows(std::uint64_t nodes, const std::vector<std::uint32_t>& routers) {
  std::vector<IndexRun> runs;
  for (std::uint32_t id : routers) {
    if (!runs.empty() && runs.back().offset + runs.back().count == id) {
      ++runs.back().count;
    } else {
      runs.push_back(IndexRun{id, 1});
    }
  }
  return RowDistribution(nodes, runs);
}

/// Rows [offset, offset + count) of a list concatenated over ranks in rank order.
RowDistribution list_rows(const Communicator& comm, std::uint64_t count) {
  const std::vector<std::uint8_t> mine(reinterpret_cast<const std::uint8_t*>(&count),
                                       reinterpret_cast<const std::uint8_t*>(&count) + 8);
  const std::vector<std::uint8_t> all = comm.all_gather(mine);
  std::uint64_t total = 0;
  std::uint64_t offset = 0;
  for (int r = 0; r < comm.size(); ++r) {
    std::uint64_t c = 0;
    std::memcpy(&c, all.data() + 8 * static_cast<std::size_t>(r), 8);
    if (r < comm.rank()) offset += c;
    total += c;
  }
  return RowDistribution::contiguous(total, offset, count);
}

template <class S, class T, class F>
void write_column(const H5Group& g, const char* name, const RowDistribution& rows,
                  const std::vector<S>& items, F field) {
  std::vector<T> column;
  column.reserve(items.size());
  for (const S& s : items) column.push_back(static_cast<T>(field(s)));
  g.write_distributed<T>(name, rows, column);
}

std::vector<std::uint64_t> sum(const Communicator& comm, std::vector<std::uint64_t> v) {
  comm.sum(std::span<std::uint64_t>(v));
  return v;
}

void write_histogram(const Communicator& comm, const H5Group& g, const std::string& name,
                     const LatencyHistogram& h) {
  std::vector<std::uint64_t> counts = sum(comm, h.counts());
  std::vector<std::uint64_t> totals = sum(comm, {h.count(), h.sum()});
  const std::uint64_t max = comm.max(h.max());
  const H5DataSet d = g.write_dataset<std::uint64_t>(name, counts);
  d.set_attribute("count", totals[0]);
  d.set_attribute("sum", totals[1]);
  d.set_attribute("max", max);
}

void read_histogram(const H5Group& g, const std::string& name, LatencyHistogram& h) {
  const H5DataSet d = g.open_dataset(name);
  const std::vector<std::uint64_t> counts = d.read<std::uint64_t>();
  require(counts.size() == h.counts().size(), "checkpoint: histogram size differs");
  h.mutable_counts() = counts;
  h.set_totals(d.attribute<std::uint64_t>("count"), d.attribute<std::uint64_t>("sum"),
               d.attribute<std::uint64_t>("max"));
}

H5File open_checkpoint(const Communicator& comm, const std::string& dir,
                       const std::string& option) {
  const std::string path = checkpoint_path(dir);
  H5File f = H5File::open_read_only(comm, path, option);
  const H5Group root = f.root();
  if (!root.has_attribute("kind") || root.attribute<std::string>("kind") != kKind) {
    throw InputError(option, dir, "checkpoint.h5 is an HDF5 file but not a wormnet checkpoint");
  }
  const auto version = root.attribute<std::int64_t>("checkpoint_version");
  if (version != kCheckpointVersion) {
    throw InputError(option, dir,
                     "checkpoint layout version " + std::to_string(version) +
                         ", this wormnet reads " + std::to_string(kCheckpointVersion));
  }
  return f;
}

}  // namespace

std::string checkpoint_path(const std::string& dir) {
  return dir + "/checkpoint.h5";
}

void write_checkpoint(const Communicator& comm, const std::string& dir, const std::string& option,
                      const RunProgress& p, const ModelSnapshot& m) {
  const std::string final_path = checkpoint_path(dir);
  const std::string tmp_path = final_path + ".tmp";
  {
    H5File f = H5File::create(comm, tmp_path, option);
    const H5Group root = f.root();
    root.set_attribute("kind", kKind);
    root.set_attribute("checkpoint_version", kCheckpointVersion);
    root.set_attribute("wormnet_version", std::string_view(p.version));
    root.set_attribute("config", std::string_view(p.config_toml));
    root.set_attribute("command", std::string_view(p.command));
    root.set_attribute("output", std::string_view(p.output));
    root.set_attribute("point", p.point);
    root.set_attribute("rate", p.rate);
    root.set_attribute("left_after_saturation", p.left_after_saturation);
    root.set_attribute("cycle", p.cycle);
    root.set_attribute("window_start", p.window_start);
    root.set_attribute("next_window", p.next_window);
    root.set_attribute("next_check", p.next_check);
    root.set_attribute("flit_hops", p.flit_hops);
    root.set_attribute("series_rows", p.series_rows);
    root.set_attribute("summary_rows", p.summary_rows);
    root.set_attribute("ranks", static_cast<std::int64_t>(comm.size()));
    root.set_attribute("ports", static_cast<std::uint64_t>(m.ports));
    root.set_attribute("vcs", static_cast<std::uint64_t>(m.vcs));
    root.set_attribute("depth", static_cast<std::uint64_t>(m.depth));
    const std::uint64_t nodes = comm.sum(static_cast<std::uint64_t>(m.routers.size()));
    root.set_attribute("nodes", nodes);

    const H5Group r = root.create_group("routers");
    const RowDistribution rows = router_rows(nodes, m.routers);
    const std::uint64_t pv = m.port_vcs();
    const std::uint64_t pp = m.ports + 1U;
    r.write_distributed<std::uint64_t>("ivc_ready", rows, m.ivc_ready, {pv});
    r.write_distributed<std::uint64_t>("ivc_meta", rows, m.ivc_meta, {pv});
    r.write_distributed<std::uint64_t>("flit_packet", rows, m.flit_packet, {pv * m.depth});
    r.write_distributed<std::uint8_t>("flit_kind", rows, m.flit_kind, {pv * m.depth});
    r.write_distributed<std::uint32_t>("ovc_credits", rows, m.ovc_credits, {pv});
    r.write_distributed<std::uint8_t>("ovc_owner", rows, m.ovc_owner, {pv});
    r.write_distributed<std::uint64_t>("ovc_packet", rows, m.ovc_packet, {pv});
    r.write_distributed<std::uint8_t>("va_last", rows, m.va_last, {pv});
    r.write_distributed<std::uint8_t>("sa_last_vc", rows, m.sa_last_vc, {pp});
    r.write_distributed<std::uint8_t>("sa_last_port", rows, m.sa_last_port, {pp});
    r.write_distributed<std::uint64_t>("injection", rows, m.injection, {4});
    r.write_distributed<std::uint64_t>("source_counter", rows, m.source_counter);
    r.write_distributed<double>("source_next_time", rows, m.source_next_time);
    r.write_distributed<std::uint64_t>("source_sequence", rows, m.source_sequence);
    r.write_distributed<std::uint64_t>("channel_flits", rows, m.channel_flits, {m.ports});

    using F = ModelSnapshot::InFlightFlit;
    using C = ModelSnapshot::InFlightCredit;
    using Q = ModelSnapshot::QueuedMessage;
    using S = ModelSnapshot::Stream;
    const H5Group lf = root.create_group("lists/flits");
    const RowDistribution fr = list_rows(comm, m.flits_in_flight.size());
    write_column<F, std::uint64_t>(lf, "arrival", fr, m.flits_in_flight,
                                   [](const F& x) { return x.arrival; });
    write_column<F, std::uint32_t>(lf, "router", fr, m.flits_in_flight,
                                   [](const F& x) { return x.router; });
    write_column<F, std::uint32_t>(lf, "local_vc", fr, m.flits_in_flight,
                                   [](const F& x) { return x.local_vc; });
    write_column<F, std::uint64_t>(lf, "packet", fr, m.flits_in_flight,
                                   [](const F& x) { return x.packet; });
    write_column<F, std::uint32_t>(lf, "kind", fr, m.flits_in_flight,
                                   [](const F& x) { return x.kind; });
    const H5Group lc = root.create_group("lists/credits");
    const RowDistribution cr = list_rows(comm, m.credits_in_flight.size());
    write_column<C, std::uint64_t>(lc, "arrival", cr, m.credits_in_flight,
                                   [](const C& x) { return x.arrival; });
    write_column<C, std::uint32_t>(lc, "router", cr, m.credits_in_flight,
                                   [](const C& x) { return x.router; });
    write_column<C, std::uint32_t>(lc, "local_vc", cr, m.credits_in_flight,
                                   [](const C& x) { return x.local_vc; });
    const H5Group lm = root.create_group("lists/messages");
    const RowDistribution mr = list_rows(comm, m.messages.size());
    write_column<Q, std::uint32_t>(lm, "router", mr, m.messages,
                                   [](const Q& x) { return x.router; });
    write_column<Q, std::uint64_t>(lm, "created", mr, m.messages,
                                   [](const Q& x) { return x.created; });
    write_column<Q, std::uint32_t>(lm, "dest", mr, m.messages, [](const Q& x) { return x.dest; });
    write_column<Q, std::uint32_t>(lm, "length", mr, m.messages,
                                   [](const Q& x) { return x.length; });
    write_column<Q, std::uint32_t>(lm, "measured", mr, m.messages,
                                   [](const Q& x) { return x.measured; });
    write_column<Q, std::uint64_t>(lm, "sequence", mr, m.messages,
                                   [](const Q& x) { return x.sequence; });
    const H5Group ls = root.create_group("lists/streams");
    const RowDistribution sr = list_rows(comm, m.streams.size());
    write_column<S, std::uint32_t>(ls, "router", sr, m.streams,
                                   [](const S& x) { return x.router; });
    write_column<S, std::uint32_t>(ls, "local_vc", sr, m.streams,
                                   [](const S& x) { return x.local_vc; });
    write_column<S, std::uint64_t>(ls, "packet", sr, m.streams,
                                   [](const S& x) { return x.packet; });
    const H5Group lp = root.create_group("lists/packets");
    const RowDistribution pr = list_rows(comm, m.packets.size());
    write_column<Packet, std::uint64_t>(lp, "created", pr, m.packets,
                                        [](const Packet& x) { return x.created; });
    write_column<Packet, std::uint64_t>(lp, "injected", pr, m.packets,
                                        [](const Packet& x) { return x.injected; });
    write_column<Packet, std::uint64_t>(lp, "id", pr, m.packets,
                                        [](const Packet& x) { return x.id; });
    write_column<Packet, std::uint32_t>(lp, "source", pr, m.packets,
                                        [](const Packet& x) { return x.source; });
    write_column<Packet, std::uint32_t>(lp, "dest", pr, m.packets,
                                        [](const Packet& x) { return x.dest; });
    write_column<Packet, std::uint32_t>(lp, "state", pr, m.packets,
                                        [](const Packet& x) { return x.state; });
    write_column<Packet, std::uint32_t>(lp, "length", pr, m.packets,
                                        [](const Packet& x) { return x.length; });
    write_column<Packet, std::uint32_t>(lp, "hops", pr, m.packets,
                                        [](const Packet& x) { return x.hops; });
    write_column<Packet, std::uint8_t>(lp, "measured", pr, m.packets,
                                       [](const Packet& x) { return x.measured; });

    // Additive counters as global sums (a restart gives them to one rank).
    const H5Group c = root.create_group("counters");
    const auto w = m.window.to_array();
    c.write_dataset<std::uint64_t>("window", sum(comm, {w.begin(), w.end()}));
    c.write_dataset<std::uint64_t>(
        "scalars",
        sum(comm,
            {m.measured.delivered_packets, m.measured.delivered_flits, m.measured.hops_sum,
             m.measured.accepted_flits, m.measured.packet_cycles, m.created_flits,
             m.created_packets, m.measured_created_packets, m.measured_created_flits,
             m.created_flits_seen, m.created_packets_seen, m.ejected_packets, m.scripted_packets}));
    c.set_attribute("last_move", comm.max(static_cast<std::uint64_t>(m.last_move)));
    write_histogram(comm, c, "latency_total", m.measured.total);
    write_histogram(comm, c, "latency_network", m.measured.network);
    write_histogram(comm, c, "latency_queueing", m.measured.queueing);
    f.close();
  }
  // Only a complete file takes the checkpoint's name (rename is atomic within a directory).
  std::string error;
  if (comm.is_root()) {
    std::error_code ec;
    std::filesystem::rename(tmp_path, final_path, ec);
    if (ec) error = "cannot rename the checkpoint into place: " + ec.message();
  }
  comm.broadcast(error, 0);
  if (!error.empty()) throw InputError(option, dir, error);
}

namespace {

/// A damaged or foreign checkpoint is bad input: the reading errors (an object missing, a
/// stored type or size other than expected, a broken invariant of the stored state) become
/// one InputError naming the option and the directory.
template <class F>
auto refusing_damage(const std::string& option, const std::string& dir, F&& read) {
  try {
    return read();
  } catch (const H5Error& e) {
    throw InputError(option, dir, std::string("checkpoint.h5 is damaged: ") + e.what());
  } catch (const InvariantError& e) {
    throw InputError(option, dir, std::string("checkpoint.h5 is damaged: ") + e.what());
  }
}

RunProgress read_progress(const Communicator& comm, const std::string& dir,
                          const std::string& option) {
  H5File f = open_checkpoint(comm, dir, option);
  const H5Group root = f.root();
  RunProgress p;
  p.version = root.attribute<std::string>("wormnet_version");
  p.config_toml = root.attribute<std::string>("config");
  p.command = root.attribute<std::string>("command");
  p.output = root.attribute<std::string>("output");
  p.point = root.attribute<std::int64_t>("point");
  p.rate = root.attribute<double>("rate");
  p.left_after_saturation = root.attribute<std::int64_t>("left_after_saturation");
  p.cycle = root.attribute<std::uint64_t>("cycle");
  p.window_start = root.attribute<std::uint64_t>("window_start");
  p.next_window = root.attribute<std::uint64_t>("next_window");
  p.next_check = root.attribute<std::uint64_t>("next_check");
  p.flit_hops = root.attribute<std::uint64_t>("flit_hops");
  p.series_rows = root.attribute<std::uint64_t>("series_rows");
  p.summary_rows = root.attribute<std::uint64_t>("summary_rows");
  f.close();
  return p;
}

/// Sizes and the values the restore uses as indices: a checkpoint that passes cannot make the
/// model read or write outside its arrays.
void check_model(const ModelSnapshot& m, std::uint64_t nodes) {
  const std::size_t r = m.routers.size();
  const std::size_t pv = m.port_vcs();
  const auto size_is = [](std::size_t have, std::size_t want, const char* what) {
    if (have != want) throw InvariantError(std::string("routers/") + what + " has another size");
  };
  size_is(m.ivc_ready.size(), r * pv, "ivc_ready");
  size_is(m.ivc_meta.size(), r * pv, "ivc_meta");
  size_is(m.flit_packet.size(), r * pv * m.depth, "flit_packet");
  size_is(m.flit_kind.size(), r * pv * m.depth, "flit_kind");
  size_is(m.ovc_credits.size(), r * pv, "ovc_credits");
  size_is(m.ovc_owner.size(), r * pv, "ovc_owner");
  size_is(m.ovc_packet.size(), r * pv, "ovc_packet");
  size_is(m.va_last.size(), r * pv, "va_last");
  size_is(m.sa_last_vc.size(), r * (m.ports + 1U), "sa_last_vc");
  size_is(m.sa_last_port.size(), r * (m.ports + 1U), "sa_last_port");
  size_is(m.injection.size(), r * 4, "injection");
  size_is(m.source_counter.size(), r, "source_counter");
  size_is(m.source_next_time.size(), r, "source_next_time");
  size_is(m.source_sequence.size(), r, "source_sequence");
  size_is(m.channel_flits.size(), r * m.ports, "channel_flits");
  for (const std::uint64_t meta : m.ivc_meta) {
    require((meta & 0xFFFF) <= m.depth && ((meta >> 16) & 0xFF) <= 2 &&
                ((meta >> 24) & 0xFF) <= m.ports && ((meta >> 32) & 0xFF) < m.vcs,
            "an input VC state is out of range");
  }
  for (const auto& f : m.flits_in_flight) {
    require(f.router < nodes && f.local_vc < pv, "a flit in flight is out of range");
  }
  for (const auto& c : m.credits_in_flight) {
    require(c.router < nodes && c.local_vc < pv, "a credit in flight is out of range");
  }
  for (const auto& q : m.messages) {
    require(q.router < nodes && q.dest < nodes, "a queued message is out of range");
  }
  for (const auto& s : m.streams) {
    require(s.router < nodes && s.local_vc < pv, "a stream is out of range");
  }
  for (const auto& p : m.packets) {
    require(p.source < nodes && p.dest < nodes, "a packet is out of range");
  }
}

/// The columns of one list have one length.
template <class... V>
void same_length(const char* list, const V&... columns) {
  const std::size_t sizes[] = {columns.size()...};
  for (const std::size_t n : sizes) {
    if (n != sizes[0])
      throw InvariantError(std::string("lists/") + list + ": columns differ in length");
  }
}

ModelSnapshot read_model(const Communicator& comm, const std::string& dir,
                         const std::string& option, const std::vector<std::uint32_t>& routers,
                         std::uint32_t ports, std::uint32_t vcs, std::uint32_t depth) {
  H5File f = open_checkpoint(comm, dir, option);
  const H5Group root = f.root();
  ModelSnapshot m;
  m.ports = static_cast<std::uint32_t>(root.attribute<std::uint64_t>("ports"));
  m.vcs = static_cast<std::uint32_t>(root.attribute<std::uint64_t>("vcs"));
  m.depth = static_cast<std::uint32_t>(root.attribute<std::uint64_t>("depth"));
  if (m.ports != ports || m.vcs != vcs || m.depth != depth) {
    throw InputError(option, dir,
                     "the checkpoint's routers have another shape (ports, VCs, buffer)");
  }
  const std::uint64_t nodes = root.attribute<std::uint64_t>("nodes");
  if (!routers.empty() && routers.back() >= nodes) {
    throw InputError(
        option, dir,
        "the checkpoint holds " + std::to_string(nodes) + " routers, fewer than this network");
  }
  m.routers = routers;
  const RowDistribution rows = router_rows(nodes, routers);
  const H5Group r = root.open_group("routers");
  m.ivc_ready = r.open_dataset("ivc_ready").read_rows<std::uint64_t>(rows);
  m.ivc_meta = r.open_dataset("ivc_meta").read_rows<std::uint64_t>(rows);
  m.flit_packet = r.open_dataset("flit_packet").read_rows<std::uint64_t>(rows);
  m.flit_kind = r.open_dataset("flit_kind").read_rows<std::uint8_t>(rows);
  m.ovc_credits = r.open_dataset("ovc_credits").read_rows<std::uint32_t>(rows);
  m.ovc_owner = r.open_dataset("ovc_owner").read_rows<std::uint8_t>(rows);
  m.ovc_packet = r.open_dataset("ovc_packet").read_rows<std::uint64_t>(rows);
  m.va_last = r.open_dataset("va_last").read_rows<std::uint8_t>(rows);
  m.sa_last_vc = r.open_dataset("sa_last_vc").read_rows<std::uint8_t>(rows);
  m.sa_last_port = r.open_dataset("sa_last_port").read_rows<std::uint8_t>(rows);
  m.injection = r.open_dataset("injection").read_rows<std::uint64_t>(rows);
  m.source_counter = r.open_dataset("source_counter").read_rows<std::uint64_t>(rows);
  m.source_next_time = r.open_dataset("source_next_time").read_rows<double>(rows);
  m.source_sequence = r.open_dataset("source_sequence").read_rows<std::uint64_t>(rows);
  m.channel_flits = r.open_dataset("channel_flits").read_rows<std::uint64_t>(rows);

  const auto col64 = [&](const char* g, const char* n) {
    return root.open_dataset(std::string("lists/") + g + "/" + n).read<std::uint64_t>();
  };
  const auto col32 = [&](const char* g, const char* n) {
    return root.open_dataset(std::string("lists/") + g + "/" + n).read<std::uint32_t>();
  };
  {
    const auto arrival = col64("flits", "arrival");
    const auto router = col32("flits", "router");
    const auto lvc = col32("flits", "local_vc");
    const auto packet = col64("flits", "packet");
    const auto kind = col32("flits", "kind");
    same_length("flits", arrival, router, lvc, packet, kind);
    for (std::size_t i = 0; i < arrival.size(); ++i) {
      m.flits_in_flight.push_back({arrival[i], router[i], lvc[i], packet[i], kind[i]});
    }
  }
  {
    const auto arrival = col64("credits", "arrival");
    const auto router = col32("credits", "router");
    const auto lvc = col32("credits", "local_vc");
    same_length("credits", arrival, router, lvc);
    for (std::size_t i = 0; i < arrival.size(); ++i)
      m.credits_in_flight.push_back({arrival[i], router[i], lvc[i]});
  }
  {
    const auto router = col32("messages", "router");
    const auto created = col64("messages", "created");
    const auto dest = col32("messages", "dest");
    const auto length = col32("messages", "length");
    const auto measured = col32("messages", "measured");
    const auto sequence = col64("messages", "sequence");
    same_length("messages", router, created, dest, length, measured, sequence);
    for (std::size_t i = 0; i < router.size(); ++i) {
      m.messages.push_back({router[i], created[i], dest[i], length[i], measured[i], sequence[i]});
    }
  }
  {
    const auto router = col32("streams", "router");
    const auto lvc = col32("streams", "local_vc");
    const auto packet = col64("streams", "packet");
    same_length("streams", router, lvc, packet);
    for (std::size_t i = 0; i < router.size(); ++i)
      m.streams.push_back({router[i], lvc[i], packet[i]});
  }
  {
    const auto created = col64("packets", "created");
    const auto injected = col64("packets", "injected");
    const auto id = col64("packets", "id");
    const auto source = col32("packets", "source");
    const auto dest = col32("packets", "dest");
    const auto state = col32("packets", "state");
    const auto length = col32("packets", "length");
    const auto hops = col32("packets", "hops");
    const auto measured = root.open_dataset("lists/packets/measured").read<std::uint8_t>();
    same_length("packets", created, injected, id, source, dest, state, length, hops, measured);
    for (std::size_t i = 0; i < id.size(); ++i) {
      Packet p;
      p.created = created[i];
      p.injected = injected[i];
      p.id = id[i];
      p.source = source[i];
      p.dest = dest[i];
      p.state = state[i];
      p.length = static_cast<std::uint16_t>(length[i]);
      p.hops = static_cast<std::uint16_t>(hops[i]);
      p.measured = measured[i];
      m.packets.push_back(p);
    }
  }
  const H5Group c = root.open_group("counters");
  const auto w = c.open_dataset("window").read<std::uint64_t>();
  require(w.size() == TrafficCounters::kFields, "checkpoint: window counters size differs");
  std::array<std::uint64_t, TrafficCounters::kFields> wa{};
  std::copy(w.begin(), w.end(), wa.begin());
  m.window = TrafficCounters::from_array(wa);
  const auto s = c.open_dataset("scalars").read<std::uint64_t>();
  require(s.size() == 13, "checkpoint: counters size differs");
  m.measured.delivered_packets = s[0];
  m.measured.delivered_flits = s[1];
  m.measured.hops_sum = s[2];
  m.measured.accepted_flits = s[3];
  m.measured.packet_cycles = s[4];
  m.created_flits = s[5];
  m.created_packets = s[6];
  m.measured_created_packets = s[7];
  m.measured_created_flits = s[8];
  m.created_flits_seen = s[9];
  m.created_packets_seen = s[10];
  m.ejected_packets = s[11];
  m.scripted_packets = s[12];
  m.last_move = c.attribute<std::uint64_t>("last_move");
  read_histogram(c, "latency_total", m.measured.total);
  read_histogram(c, "latency_network", m.measured.network);
  read_histogram(c, "latency_queueing", m.measured.queueing);
  f.close();
  check_model(m, nodes);
  return m;
}

}  // namespace

RunProgress read_checkpoint_progress(const Communicator& comm, const std::string& dir,
                                     const std::string& option) {
  return refusing_damage(option, dir, [&] { return read_progress(comm, dir, option); });
}

ModelSnapshot read_checkpoint_model(const Communicator& comm, const std::string& dir,
                                    const std::string& option,
                                    const std::vector<std::uint32_t>& routers, std::uint32_t ports,
                                    std::uint32_t vcs, std::uint32_t depth) {
  return refusing_damage(option, dir,
                         [&] { return read_model(comm, dir, option, routers, ports, vcs, depth); });
}

}  // namespace wormnet::io
