#include "wormnet/io/checkpoint_file.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "row_digest.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/io/file_seal.hpp"
#include "wormnet/io/h5_error.hpp"
#include "wormnet/io/h5_file.hpp"
#include "wormnet/io/output_file.hpp"
#include "wormnet/io/row_distribution.hpp"

namespace wormnet::io {

namespace {

/// 2: every dataset carries a "digest" attribute and the root "attributes_digest" (a
/// damaged checkpoint is refused instead of giving different results).
/// 3: routers/ivc_since (the deadlock detector's per-VC wait) replaces counters@last_move.
constexpr std::int64_t kCheckpointVersion = 3;
/// Attribute holding a dataset's digest (row_digest.hpp).
constexpr std::string_view kDigestAttr = "digest";
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

/// A distributed dataset and its digest (the sum of every rank's share).
template <class T>
void put_rows(const Communicator& comm, const H5Group& g, const char* name,
              const RowDistribution& rows, const std::vector<T>& local,
              const Shape& row_shape = {}) {
  std::uint64_t row_elements = 1;
  for (const std::uint64_t d : row_shape) row_elements *= d;
  const H5DataSet d = g.write_distributed<T>(name, rows, local, row_shape);
  d.set_attribute(kDigestAttr, comm.sum(detail::rows_digest<T>(rows, local, row_elements)));
}

/// A dataset of root's values (identical on every rank here) and its digest, folded with
/// `extra` (the digest of its attributes).
template <class T>
H5DataSet put_array(const H5Group& g, const char* name, const std::vector<T>& all,
                    std::uint64_t extra = 0) {
  const H5DataSet d = g.write_dataset<T>(name, all);
  d.set_attribute(kDigestAttr, detail::array_digest<T>(all) + extra);
  return d;
}

/// Reads this rank's rows of a distributed dataset and checks the dataset's digest
/// (collective: the shares are summed over the ranks).
template <class T>
std::vector<T> get_rows(const Communicator& comm, const H5Group& g, const char* name,
                        const RowDistribution& rows) {
  const H5DataSet d = g.open_dataset(name);
  std::vector<T> local = d.read_rows<T>(rows);
  const std::uint64_t sum = comm.sum(detail::rows_digest<T>(rows, local, d.row_elements()));
  if (!d.has_attribute(kDigestAttr) || d.attribute<std::uint64_t>(kDigestAttr) != sum) {
    throw InvariantError(d.path() + " fails its checksum");
  }
  return local;
}

/// Reads a whole 1-D dataset and checks its digest, folded with `extra`.
template <class T>
std::vector<T> get_array(const H5DataSet& d, std::uint64_t extra = 0) {
  std::vector<T> all = d.read<T>();
  if (!d.has_attribute(kDigestAttr) ||
      d.attribute<std::uint64_t>(kDigestAttr) != detail::array_digest<T>(all) + extra) {
    throw InvariantError(d.path() + " fails its checksum");
  }
  return all;
}

template <class S, class T, class F>
void write_column(const Communicator& comm, const H5Group& g, const char* name,
                  const RowDistribution& rows, const std::vector<S>& items, F field) {
  std::vector<T> column;
  column.reserve(items.size());
  for (const S& s : items) column.push_back(static_cast<T>(field(s)));
  put_rows<T>(comm, g, name, rows, column);
}

std::vector<std::uint64_t> sum(const Communicator& comm, std::vector<std::uint64_t> v) {
  comm.sum(std::span<std::uint64_t>(v));
  return v;
}

/// The digest of a few numbers stored as attributes beside a dataset.
std::uint64_t numbers_digest(std::initializer_list<std::uint64_t> values) {
  const std::vector<std::uint64_t> v(values);
  return detail::digest_bytes(~0ULL, std::as_bytes(std::span<const std::uint64_t>(v)));
}

void write_histogram(const Communicator& comm, const H5Group& g, const char* name,
                     const LatencyHistogram& h) {
  std::vector<std::uint64_t> counts = sum(comm, h.counts());
  std::vector<std::uint64_t> totals = sum(comm, {h.count(), h.sum()});
  const std::uint64_t max = comm.max(h.max());
  const H5DataSet d = put_array(g, name, counts, numbers_digest({totals[0], totals[1], max}));
  d.set_attribute("count", totals[0]);
  d.set_attribute("sum", totals[1]);
  d.set_attribute("max", max);
}

void read_histogram(const H5Group& g, const std::string& name, LatencyHistogram& h) {
  const H5DataSet d = g.open_dataset(name);
  const auto count = d.attribute<std::uint64_t>("count");
  const auto total = d.attribute<std::uint64_t>("sum");
  const auto max = d.attribute<std::uint64_t>("max");
  const std::vector<std::uint64_t> counts =
      get_array<std::uint64_t>(d, numbers_digest({count, total, max}));
  require(counts.size() == h.counts().size(), "checkpoint: histogram size differs");
  h.mutable_counts() = counts;
  h.set_totals(count, total, max);
}

/// The root attributes a restart reads, in a fixed order, as one text: its digest is stored
/// beside them.
std::string attributes_text(const RunProgress& p, std::uint64_t ports, std::uint64_t vcs,
                            std::uint64_t depth, std::uint64_t nodes) {
  char rate[64];
  std::snprintf(rate, sizeof rate, "%a", p.rate);
  std::string t;
  const auto field = [&](const char* name, const std::string& value) {
    t += std::string(name) + "[" + std::to_string(value.size()) + "]=" + value + "\n";
  };
  field("wormnet_version", p.version);
  field("config", p.config_toml);
  field("command", p.command);
  field("output", p.output);
  field("point", std::to_string(p.point));
  field("rate", rate);
  field("left_after_saturation", std::to_string(p.left_after_saturation));
  field("cycle", std::to_string(p.cycle));
  field("window_start", std::to_string(p.window_start));
  field("next_window", std::to_string(p.next_window));
  field("next_check", std::to_string(p.next_check));
  field("flit_hops", std::to_string(p.flit_hops));
  field("series_rows", std::to_string(p.series_rows));
  field("summary_rows", std::to_string(p.summary_rows));
  field("ports", std::to_string(ports));
  field("vcs", std::to_string(vcs));
  field("depth", std::to_string(depth));
  field("nodes", std::to_string(nodes));
  return t;
}

H5File open_checkpoint(const Communicator& comm, const std::string& dir,
                       const std::string& option) {
  const std::string path = checkpoint_path(dir);
  // The whole file is checked before HDF5 parses any of it (file_seal.hpp): HDF5 does not
  // validate the metadata of a damaged file. Root reads it; every rank gets the verdict.
  std::string problem;
  if (comm.is_root()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) problem = seal_problem(path);
  }
  if (comm.size() > 1) comm.broadcast(problem, 0);
  if (problem.rfind("it has no wormnet seal", 0) == 0) {
    throw InputError(option, dir,
                     "checkpoint.h5 is not a wormnet checkpoint of this layout (" + problem + ")");
  }
  if (!problem.empty()) throw InputError(option, dir, "checkpoint.h5 is damaged: " + problem);
  H5File f = H5File::open_read_only(comm, path, option);
  const H5Group root = f.root();
  if (!root.has_attribute("kind")) {
    throw InputError(option, dir, "checkpoint.h5 is an HDF5 file but not a wormnet checkpoint");
  }
  std::string kind;
  try {
    kind = root.fixed_string_attribute("kind");
  } catch (const H5Error&) {
    // Layout version 1 stored variable-length strings.
    throw InputError(option, dir,
                     "checkpoint.h5 is not a checkpoint of this layout (version " +
                         std::to_string(kCheckpointVersion) + "): written by an older wormnet?");
  }
  if (kind != kKind) {
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

void write_checkpoint(const Communicator& comm, OutputFile& out, const RunProgress& p,
                      const ModelSnapshot& m) {
  const auto write = [&] {
    H5File f = H5File::create(comm, out.partial(), out.option(), true);
    const H5Group root = f.root();
    // Fixed-length strings: a restart reads them without HDF5's unchecked global heap.
    root.set_fixed_string_attribute("kind", kKind);
    root.set_attribute("checkpoint_version", kCheckpointVersion);
    root.set_fixed_string_attribute("wormnet_version", p.version);
    root.set_fixed_string_attribute("config", p.config_toml);
    root.set_fixed_string_attribute("command", p.command);
    root.set_fixed_string_attribute("output", p.output);
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
    root.set_attribute("attributes_digest",
                       detail::digest_text(attributes_text(p, m.ports, m.vcs, m.depth, nodes)));

    const H5Group r = root.create_group("routers");
    const RowDistribution rows = router_rows(nodes, m.routers);
    const std::uint64_t pv = m.port_vcs();
    const std::uint64_t pp = m.ports + 1U;
    put_rows<std::uint64_t>(comm, r, "ivc_ready", rows, m.ivc_ready, {pv});
    put_rows<std::uint32_t>(comm, r, "ivc_since", rows, m.ivc_since, {pv});
    put_rows<std::uint64_t>(comm, r, "ivc_meta", rows, m.ivc_meta, {pv});
    put_rows<std::uint64_t>(comm, r, "flit_packet", rows, m.flit_packet, {pv * m.depth});
    put_rows<std::uint8_t>(comm, r, "flit_kind", rows, m.flit_kind, {pv * m.depth});
    put_rows<std::uint32_t>(comm, r, "ovc_credits", rows, m.ovc_credits, {pv});
    put_rows<std::uint8_t>(comm, r, "ovc_owner", rows, m.ovc_owner, {pv});
    put_rows<std::uint64_t>(comm, r, "ovc_packet", rows, m.ovc_packet, {pv});
    put_rows<std::uint8_t>(comm, r, "va_last", rows, m.va_last, {pv});
    put_rows<std::uint8_t>(comm, r, "sa_last_vc", rows, m.sa_last_vc, {pp});
    put_rows<std::uint8_t>(comm, r, "sa_last_port", rows, m.sa_last_port, {pp});
    put_rows<std::uint64_t>(comm, r, "injection", rows, m.injection, {4});
    put_rows<std::uint64_t>(comm, r, "source_counter", rows, m.source_counter);
    put_rows<double>(comm, r, "source_next_time", rows, m.source_next_time);
    put_rows<std::uint64_t>(comm, r, "source_sequence", rows, m.source_sequence);
    put_rows<std::uint64_t>(comm, r, "channel_flits", rows, m.channel_flits, {m.ports});

    using F = ModelSnapshot::InFlightFlit;
    using C = ModelSnapshot::InFlightCredit;
    using Q = ModelSnapshot::QueuedMessage;
    using S = ModelSnapshot::Stream;
    const H5Group lf = root.create_group("lists/flits");
    const RowDistribution fr = list_rows(comm, m.flits_in_flight.size());
    write_column<F, std::uint64_t>(comm, lf, "arrival", fr, m.flits_in_flight,
                                   [](const F& x) { return x.arrival; });
    write_column<F, std::uint32_t>(comm, lf, "router", fr, m.flits_in_flight,
                                   [](const F& x) { return x.router; });
    write_column<F, std::uint32_t>(comm, lf, "local_vc", fr, m.flits_in_flight,
                                   [](const F& x) { return x.local_vc; });
    write_column<F, std::uint64_t>(comm, lf, "packet", fr, m.flits_in_flight,
                                   [](const F& x) { return x.packet; });
    write_column<F, std::uint32_t>(comm, lf, "kind", fr, m.flits_in_flight,
                                   [](const F& x) { return x.kind; });
    const H5Group lc = root.create_group("lists/credits");
    const RowDistribution cr = list_rows(comm, m.credits_in_flight.size());
    write_column<C, std::uint64_t>(comm, lc, "arrival", cr, m.credits_in_flight,
                                   [](const C& x) { return x.arrival; });
    write_column<C, std::uint32_t>(comm, lc, "router", cr, m.credits_in_flight,
                                   [](const C& x) { return x.router; });
    write_column<C, std::uint32_t>(comm, lc, "local_vc", cr, m.credits_in_flight,
                                   [](const C& x) { return x.local_vc; });
    const H5Group lm = root.create_group("lists/messages");
    const RowDistribution mr = list_rows(comm, m.messages.size());
    write_column<Q, std::uint32_t>(comm, lm, "router", mr, m.messages,
                                   [](const Q& x) { return x.router; });
    write_column<Q, std::uint64_t>(comm, lm, "created", mr, m.messages,
                                   [](const Q& x) { return x.created; });
    write_column<Q, std::uint32_t>(comm, lm, "dest", mr, m.messages,
                                   [](const Q& x) { return x.dest; });
    write_column<Q, std::uint32_t>(comm, lm, "length", mr, m.messages,
                                   [](const Q& x) { return x.length; });
    write_column<Q, std::uint32_t>(comm, lm, "measured", mr, m.messages,
                                   [](const Q& x) { return x.measured; });
    write_column<Q, std::uint64_t>(comm, lm, "sequence", mr, m.messages,
                                   [](const Q& x) { return x.sequence; });
    const H5Group ls = root.create_group("lists/streams");
    const RowDistribution sr = list_rows(comm, m.streams.size());
    write_column<S, std::uint32_t>(comm, ls, "router", sr, m.streams,
                                   [](const S& x) { return x.router; });
    write_column<S, std::uint32_t>(comm, ls, "local_vc", sr, m.streams,
                                   [](const S& x) { return x.local_vc; });
    write_column<S, std::uint64_t>(comm, ls, "packet", sr, m.streams,
                                   [](const S& x) { return x.packet; });
    const H5Group lp = root.create_group("lists/packets");
    const RowDistribution pr = list_rows(comm, m.packets.size());
    write_column<Packet, std::uint64_t>(comm, lp, "created", pr, m.packets,
                                        [](const Packet& x) { return x.created; });
    write_column<Packet, std::uint64_t>(comm, lp, "injected", pr, m.packets,
                                        [](const Packet& x) { return x.injected; });
    write_column<Packet, std::uint64_t>(comm, lp, "id", pr, m.packets,
                                        [](const Packet& x) { return x.id; });
    write_column<Packet, std::uint32_t>(comm, lp, "source", pr, m.packets,
                                        [](const Packet& x) { return x.source; });
    write_column<Packet, std::uint32_t>(comm, lp, "dest", pr, m.packets,
                                        [](const Packet& x) { return x.dest; });
    write_column<Packet, std::uint32_t>(comm, lp, "state", pr, m.packets,
                                        [](const Packet& x) { return x.state; });
    write_column<Packet, std::uint32_t>(comm, lp, "length", pr, m.packets,
                                        [](const Packet& x) { return x.length; });
    write_column<Packet, std::uint32_t>(comm, lp, "hops", pr, m.packets,
                                        [](const Packet& x) { return x.hops; });
    write_column<Packet, std::uint8_t>(comm, lp, "measured", pr, m.packets,
                                       [](const Packet& x) { return x.measured; });

    // Additive counters as global sums (a restart gives them to one rank).
    const H5Group c = root.create_group("counters");
    const auto w = m.window.to_array();
    put_array<std::uint64_t>(c, "window", sum(comm, {w.begin(), w.end()}));
    put_array<std::uint64_t>(
        c, "scalars",
        sum(comm,
            {m.measured.delivered_packets, m.measured.delivered_flits, m.measured.hops_sum,
             m.measured.accepted_flits, m.measured.packet_cycles, m.created_flits,
             m.created_packets, m.measured_created_packets, m.measured_created_flits,
             m.created_flits_seen, m.created_packets_seen, m.ejected_packets, m.scripted_packets}));
    write_histogram(comm, c, "latency_total", m.measured.total);
    write_histogram(comm, c, "latency_network", m.measured.network);
    write_histogram(comm, c, "latency_queueing", m.measured.queueing);
    if (!p.workload.empty())
      put_array<std::uint64_t>(root.create_group("workload"), "times", p.workload);
    f.close();
  };
  // Written beside the previous checkpoint, which the rename replaces only when this one is
  // complete (atomic within the directory); a failed write removes its partial file.
  try {
    guarded_write(comm, out.partial(), write);
  } catch (const OutputError& e) {
    out.discard_partial(comm);
    throw OutputError(e.path(), e.reason() + "; the previous checkpoint '" + out.target() +
                                    "', if any, is unchanged");
  }
  out.commit(comm, true);
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

/// The progress record stored in `root`'s attributes, checked against their digest. A
/// checkpoint of another wormnet `version` (when given) is refused as such first: its
/// digests need not be this version's.
RunProgress progress_of(const H5Group& root, const std::string& version, const std::string& option,
                        const std::string& dir) {
  RunProgress p;
  p.version = root.fixed_string_attribute("wormnet_version");
  if (!version.empty() && p.version != version) {
    throw InputError(option, dir,
                     "the checkpoint was written by wormnet " + p.version + ", this is " + version);
  }
  p.config_toml = root.fixed_string_attribute("config");
  p.command = root.fixed_string_attribute("command");
  p.output = root.fixed_string_attribute("output");
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
  const std::string text = attributes_text(
      p, root.attribute<std::uint64_t>("ports"), root.attribute<std::uint64_t>("vcs"),
      root.attribute<std::uint64_t>("depth"), root.attribute<std::uint64_t>("nodes"));
  if (root.attribute<std::uint64_t>("attributes_digest") != detail::digest_text(text)) {
    throw InvariantError("its attributes fail their checksum");
  }
  return p;
}

RunProgress read_progress(const Communicator& comm, const std::string& dir,
                          const std::string& option, const std::string& version) {
  H5File f = open_checkpoint(comm, dir, option);
  RunProgress p = progress_of(f.root(), version, option, dir);
  if (f.root().has_group("workload")) {
    p.workload = get_array<std::uint64_t>(f.root().open_dataset("workload/times"));
  }
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
  size_is(m.ivc_since.size(), r * pv, "ivc_since");
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
  static_cast<void>(progress_of(root, "", option, dir));  // checks the shape attributes below
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
  m.ivc_ready = get_rows<std::uint64_t>(comm, r, "ivc_ready", rows);
  m.ivc_since = get_rows<std::uint32_t>(comm, r, "ivc_since", rows);
  m.ivc_meta = get_rows<std::uint64_t>(comm, r, "ivc_meta", rows);
  m.flit_packet = get_rows<std::uint64_t>(comm, r, "flit_packet", rows);
  m.flit_kind = get_rows<std::uint8_t>(comm, r, "flit_kind", rows);
  m.ovc_credits = get_rows<std::uint32_t>(comm, r, "ovc_credits", rows);
  m.ovc_owner = get_rows<std::uint8_t>(comm, r, "ovc_owner", rows);
  m.ovc_packet = get_rows<std::uint64_t>(comm, r, "ovc_packet", rows);
  m.va_last = get_rows<std::uint8_t>(comm, r, "va_last", rows);
  m.sa_last_vc = get_rows<std::uint8_t>(comm, r, "sa_last_vc", rows);
  m.sa_last_port = get_rows<std::uint8_t>(comm, r, "sa_last_port", rows);
  m.injection = get_rows<std::uint64_t>(comm, r, "injection", rows);
  m.source_counter = get_rows<std::uint64_t>(comm, r, "source_counter", rows);
  m.source_next_time = get_rows<double>(comm, r, "source_next_time", rows);
  m.source_sequence = get_rows<std::uint64_t>(comm, r, "source_sequence", rows);
  m.channel_flits = get_rows<std::uint64_t>(comm, r, "channel_flits", rows);

  const auto col64 = [&](const char* g, const char* n) {
    return get_array<std::uint64_t>(root.open_dataset(std::string("lists/") + g + "/" + n));
  };
  const auto col32 = [&](const char* g, const char* n) {
    return get_array<std::uint32_t>(root.open_dataset(std::string("lists/") + g + "/" + n));
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
    const auto measured = get_array<std::uint8_t>(root.open_dataset("lists/packets/measured"));
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
  const auto w = get_array<std::uint64_t>(c.open_dataset("window"));
  require(w.size() == TrafficCounters::kFields, "checkpoint: window counters size differs");
  std::array<std::uint64_t, TrafficCounters::kFields> wa{};
  std::copy(w.begin(), w.end(), wa.begin());
  m.window = TrafficCounters::from_array(wa);
  const auto s = get_array<std::uint64_t>(c.open_dataset("scalars"));
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
  read_histogram(c, "latency_total", m.measured.total);
  read_histogram(c, "latency_network", m.measured.network);
  read_histogram(c, "latency_queueing", m.measured.queueing);
  f.close();
  check_model(m, nodes);
  return m;
}

}  // namespace

RunProgress read_checkpoint_progress(const Communicator& comm, const std::string& dir,
                                     const std::string& option, const std::string& version) {
  return refusing_damage(option, dir, [&] { return read_progress(comm, dir, option, version); });
}

ModelSnapshot read_checkpoint_model(const Communicator& comm, const std::string& dir,
                                    const std::string& option,
                                    const std::vector<std::uint32_t>& routers, std::uint32_t ports,
                                    std::uint32_t vcs, std::uint32_t depth) {
  return refusing_damage(option, dir,
                         [&] { return read_model(comm, dir, option, routers, ports, vcs, depth); });
}

}  // namespace wormnet::io
