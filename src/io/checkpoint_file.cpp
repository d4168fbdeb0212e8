#include "wormnet/io/checkpoint_file.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>

#include "checkpoint_layout.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/h5/row_digest.hpp"
#include "wormnet/h5/row_distribution.hpp"

namespace wormnet::io {

namespace {

/// 2: every dataset carries a "digest" attribute and the root "attributes_digest" (a
/// damaged checkpoint is refused instead of giving different results).
/// 3: routers/ivc_since (the deadlock detector's per-VC wait) replaces counters@last_move.
/// 4: the root attribute "inputs", the digests of the input files (RunProgress::inputs): a
/// checkpoint of version 3 cannot tell a restart whether its tables or trace changed.
/// 5: routers/congestion_* (where packets wait, --congestion): a restart from 4 could not
/// continue those counts.
/// 6: routers/congestion_window_flits (the flits of the statistics window under way,
/// --congestion series): a restart from 5 could not continue the channel series.
/// 7: routers/congestion_blocked_mark (each input VC's blocked time at the last window's end,
/// --congestion series): a restart from 6 could not continue the blocked-time series.
constexpr std::int64_t kCheckpointVersion = 7;

namespace names = schema::checkpoint;
namespace layout = checkpoint_layout;
using names::kDigestAttr;

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
void put_rows(const Communicator& comm, const H5Group& g, std::string_view name,
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
H5DataSet put_array(const H5Group& g, std::string_view name, const std::vector<T>& all,
                    std::uint64_t extra = 0) {
  const H5DataSet d = g.write_dataset<T>(name, all);
  d.set_attribute(kDigestAttr, detail::array_digest<T>(all) + extra);
  return d;
}

/// Reads this rank's rows of a distributed dataset and checks the dataset's digest
/// (collective: the shares are summed over the ranks).
template <class T>
std::vector<T> get_rows(const Communicator& comm, const H5Group& g, std::string_view name,
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

std::vector<std::uint64_t> sum(const Communicator& comm, std::vector<std::uint64_t> v) {
  comm.sum(std::span<std::uint64_t>(v));
  return v;
}

/// The digest of a few numbers stored as attributes beside a dataset.
std::uint64_t numbers_digest(std::initializer_list<std::uint64_t> values) {
  const std::vector<std::uint64_t> v(values);
  return detail::digest_bytes(~0ULL, std::as_bytes(std::span<const std::uint64_t>(v)));
}

void write_histogram(const Communicator& comm, const H5Group& g, std::string_view name,
                     const LatencyHistogram& h) {
  std::vector<std::uint64_t> counts = sum(comm, h.counts());
  std::vector<std::uint64_t> totals = sum(comm, {h.count(), h.sum()});
  const std::uint64_t max = comm.max(h.max());
  const H5DataSet d = put_array(g, name, counts, numbers_digest({totals[0], totals[1], max}));
  d.set_attribute(names::kHistogramCount, totals[0]);
  d.set_attribute(names::kHistogramSum, totals[1]);
  d.set_attribute(names::kHistogramMax, max);
}

void read_histogram(const H5Group& g, std::string_view name, LatencyHistogram& h) {
  const H5DataSet d = g.open_dataset(name);
  const auto count = d.attribute<std::uint64_t>(names::kHistogramCount);
  const auto total = d.attribute<std::uint64_t>(names::kHistogramSum);
  const auto max = d.attribute<std::uint64_t>(names::kHistogramMax);
  const std::vector<std::uint64_t> counts =
      get_array<std::uint64_t>(d, numbers_digest({count, total, max}));
  require(counts.size() == h.counts().size(), "checkpoint: histogram size differs");
  h.mutable_counts() = counts;
  h.set_totals(count, total, max);
}

template <class V>
constexpr bool kIsString = std::is_same_v<std::remove_const_t<V>, std::string>;

/// The root attributes a restart reads, in the layout's order, as one text: its digest is
/// stored beside them.
std::string attributes_text(const RunProgress& p, const layout::RouterShape& shape) {
  std::string t;
  std::apply(
      [&](const auto&... a) {
        const auto field = [&](const auto& attr) {
          std::string value;
          using V = std::remove_cvref_t<decltype(attr.value)>;
          if constexpr (kIsString<V>) {
            value = attr.value;
          } else if constexpr (std::is_floating_point_v<V>) {
            char text[64];
            std::snprintf(text, sizeof text, "%a", attr.value);
            value = text;
          } else {
            value = std::to_string(attr.value);
          }
          t += std::string(attr.name) + "[" + std::to_string(value.size()) + "]=" + value + "\n";
        };
        (field(a), ...);
      },
      layout::attributes(p, shape));
  return t;
}

/// Writes a list's group: a dataset per column, this rank's entries after those of lower
/// ranks.
template <class List>
void write_list(const Communicator& comm, const H5Group& root, const List& list) {
  const H5Group g = root.create_group(list.group);
  const RowDistribution rows = list_rows(comm, list.entries.size());
  std::apply(
      [&](const auto&... c) {
        const auto write = [&](const auto& col) {
          using T = typename std::remove_cvref_t<decltype(col)>::StoredType;
          std::vector<T> values;
          values.reserve(list.entries.size());
          for (const auto& e : list.entries) values.push_back(static_cast<T>(e.*col.member));
          put_rows<T>(comm, g, col.name, rows, values);
        };
        (write(c), ...);
      },
      list.columns);
}

/// Reads a list's group whole (every rank's entries); its columns must have one length.
template <class List>
void read_list(const H5Group& root, List& list) {
  const H5Group g = root.open_group(list.group);
  bool first = true;
  std::apply(
      [&](const auto&... c) {
        const auto read = [&](const auto& col) {
          using T = typename std::remove_cvref_t<decltype(col)>::StoredType;
          const std::vector<T> values = get_array<T>(g.open_dataset(col.name));
          if (first) {
            list.entries.resize(values.size());
            first = false;
          } else if (values.size() != list.entries.size()) {
            throw InvariantError(std::string(list.group) + ": columns differ in length");
          }
          for (std::size_t i = 0; i < values.size(); ++i) {
            auto& member = list.entries[i].*col.member;
            member = static_cast<std::remove_reference_t<decltype(member)>>(values[i]);
          }
        };
        (read(c), ...);
      },
      list.columns);
}

/// `intact`: the stamp of an earlier check of this file in this process (file_seal.hpp);
/// `checked` receives this check's.
H5File open_checkpoint(const Communicator& comm, const std::string& dir, const std::string& option,
                       const FileStamp& intact, FileStamp& checked) {
  const std::string path = checkpoint_path(dir);
  // The whole file is checked before HDF5 parses any of it (file_seal.hpp): HDF5 does not
  // validate the metadata of a damaged file. Root reads it; every rank gets the verdict.
  const SealVerdict seal = check_seal(comm, path, intact);
  checked = seal.checked;
  if (seal.unsealed) {
    throw InputError(
        option, dir,
        "checkpoint.h5 is not a wormnet checkpoint of this layout (" + seal.problem + ")");
  }
  if (!seal.problem.empty()) {
    throw InputError(option, dir, "checkpoint.h5 is damaged: " + seal.problem);
  }
  H5File f = H5File::open_read_only(comm, path, option);
  const H5Group root = f.root();
  if (!root.has_attribute(names::kKindAttr)) {
    throw InputError(option, dir, "checkpoint.h5 is an HDF5 file but not a wormnet checkpoint");
  }
  std::string kind;
  try {
    kind = root.fixed_string_attribute(names::kKindAttr);
  } catch (const H5Error&) {
    // Layout version 1 stored variable-length strings.
    throw InputError(option, dir,
                     "checkpoint.h5 is not a checkpoint of this layout (version " +
                         std::to_string(kCheckpointVersion) + "): written by an older wormnet?");
  }
  if (kind != names::kKind) {
    throw InputError(option, dir, "checkpoint.h5 is an HDF5 file but not a wormnet checkpoint");
  }
  const auto version = root.attribute<std::int64_t>(names::kVersionAttr);
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
    root.set_fixed_string_attribute(names::kKindAttr, names::kKind);
    root.set_attribute(names::kVersionAttr, kCheckpointVersion);
    const std::uint64_t nodes = comm.sum(static_cast<std::uint64_t>(m.routers.size()));
    const layout::RouterShape shape{m.ports, m.vcs, m.depth, nodes};
    std::apply(
        [&](const auto&... a) {
          const auto put = [&](const auto& attr) {
            if constexpr (kIsString<std::remove_cvref_t<decltype(attr.value)>>) {
              root.set_fixed_string_attribute(attr.name, attr.value);
            } else {
              root.set_attribute(attr.name, attr.value);
            }
          };
          (put(a), ...);
        },
        layout::attributes(p, shape));
    root.set_attribute(schema::kRanksAttr, static_cast<std::int64_t>(comm.size()));
    root.set_attribute(names::kAttributesDigestAttr,
                       detail::digest_text(attributes_text(p, shape)));

    const H5Group r = root.create_group(names::kRouters);
    const RowDistribution rows = router_rows(nodes, m.routers);
    std::apply(
        [&](const auto&... field) {
          (put_rows(comm, r, field.name, rows, field.values, layout::row_shape(field.width, m)),
           ...);
        },
        layout::router_fields(m));
    std::apply([&](const auto&... list) { (write_list(comm, root, list), ...); }, layout::lists(m));

    // Additive counters as global sums (a restart gives them to one rank).
    const H5Group c = root.create_group(names::kCounters);
    const auto w = m.counters.window.to_array();
    put_array<std::uint64_t>(c, names::kWindowCounters, sum(comm, {w.begin(), w.end()}));
    std::vector<std::uint64_t> scalars;
    for (const std::uint64_t* v : layout::scalars(m)) scalars.push_back(*v);
    put_array<std::uint64_t>(c, names::kScalars, sum(comm, scalars));
    for (const auto& h : layout::histograms(m)) write_histogram(comm, c, h.name, h.histogram);
    if (!p.workload.empty()) {
      put_array<std::uint64_t>(root.create_group(names::kWorkload), names::kWorkloadTimes,
                               p.workload);
    }
    f.close();
  };
  // Written beside the previous checkpoint, which the rename replaces only when this one is
  // complete (atomic within the directory); a failed write removes its partial file.
  try {
    guarded_write(comm, out.partial(), write);
    out.commit(comm, true);
  } catch (const OutputError& e) {
    if (out.failed_after_rename()) throw;  // it replaced the previous one: nothing to remove
    out.discard_partial(comm);
    throw OutputError(e.path(), e.reason() + "; the previous checkpoint '" + out.target() +
                                    "', if any, is unchanged");
  }
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

/// The progress record and the routers' shape stored in `root`'s attributes, checked against
/// their digest. A checkpoint of another wormnet `version` (when given) is refused as such
/// first: its digests need not be this version's.
RunProgress progress_of(const H5Group& root, const std::string& version, const std::string& option,
                        const std::string& dir, layout::RouterShape& shape) {
  RunProgress p;
  p.version = root.fixed_string_attribute(schema::kWormnetVersionAttr);
  if (!version.empty() && p.version != version) {
    throw InputError(option, dir,
                     "the checkpoint was written by wormnet " + p.version + ", this is " + version);
  }
  std::apply(
      [&](auto&&... a) {
        const auto get = [&](auto& attr) {
          using V = std::remove_cvref_t<decltype(attr.value)>;
          if constexpr (kIsString<V>) {
            attr.value = root.fixed_string_attribute(attr.name);
          } else {
            attr.value = root.attribute<V>(attr.name);
          }
        };
        (get(a), ...);
      },
      layout::attributes(p, shape));
  if (root.attribute<std::uint64_t>(names::kAttributesDigestAttr) !=
      detail::digest_text(attributes_text(p, shape))) {
    throw InvariantError("its attributes fail their checksum");
  }
  return p;
}

RunProgress read_progress(const Communicator& comm, const std::string& dir,
                          const std::string& option, const std::string& version) {
  FileStamp checked;
  H5File f = open_checkpoint(comm, dir, option, {}, checked);
  layout::RouterShape shape;
  RunProgress p = progress_of(f.root(), version, option, dir, shape);
  if (f.root().has_group(names::kWorkload)) {
    p.workload = get_array<std::uint64_t>(
        f.root().open_group(names::kWorkload).open_dataset(names::kWorkloadTimes));
  }
  f.close();
  p.checked = checked;
  return p;
}

/// Sizes and the values the restore uses as indices: a checkpoint that passes cannot make the
/// model read or write outside its arrays.
void check_model(const ModelSnapshot& m, std::uint64_t nodes) {
  const std::size_t r = m.routers.size();
  const std::size_t pv = m.port_vcs();
  std::apply(
      [&](const auto&... field) {
        const auto check = [&](const auto& f) {
          std::size_t elements = 1;
          for (const std::uint64_t d : layout::row_shape(f.width, m)) elements *= d;
          if (f.values.size() != r * elements) {
            throw InvariantError(std::string(names::kRouters) + "/" + std::string(f.name) +
                                 " has another size");
          }
        };
        (check(field), ...);
      },
      layout::router_fields(m));
  require(m.router.in_range(m.ports, m.vcs, m.depth), "an input VC state is out of range");
  for (const auto& f : m.arrivals.flits) {
    require(f.router < nodes && f.local_vc < pv, "a flit in flight is out of range");
  }
  for (const auto& c : m.arrivals.credits) {
    require(c.router < nodes && c.local_vc < pv, "a credit in flight is out of range");
  }
  // A packet id keeps 32 bits of its source's message number ((source << 32) | number), and
  // a message's length is at most --length-max's bound (65535 flits): a count or a number
  // past 2^32 - 1, or a length the model cannot hold, is damage, refused here rather than at
  // the restore (TrafficSources::restore keeps an internal check of the count).
  constexpr std::uint64_t kMostMessages = 0xFFFFFFFFU;
  for (const std::uint64_t count : m.sources.sequence) {
    require(count <= kMostMessages, "a node's message count is past 2^32 - 1");
  }
  for (const auto& q : m.sources.messages) {
    require(q.router < nodes && q.dest < nodes, "a queued message is out of range");
    require(q.length >= 1 && q.length <= 65535 && q.measured <= 1 && q.sequence < kMostMessages,
            "a queued message has a length, a label or a number the model cannot hold");
  }
  for (const auto& s : m.streams) {
    require(s.router < nodes && s.local_vc < pv, "a stream is out of range");
  }
  for (const auto& p : m.packets) {
    require(p.source < nodes && p.dest < nodes, "a packet is out of range");
  }
}

ModelSnapshot read_model(const Communicator& comm, const std::string& dir,
                         const std::string& option, const std::vector<std::uint32_t>& routers,
                         std::uint64_t network_nodes, std::uint32_t ports, std::uint32_t vcs,
                         std::uint32_t depth, const FileStamp& intact) {
  FileStamp checked;
  H5File f = open_checkpoint(comm, dir, option, intact, checked);
  const H5Group root = f.root();
  layout::RouterShape shape;
  static_cast<void>(progress_of(root, "", option, dir, shape));  // checks the shape's digest
  ModelSnapshot m;
  m.ports = static_cast<std::uint32_t>(shape.ports);
  m.vcs = static_cast<std::uint32_t>(shape.vcs);
  m.depth = static_cast<std::uint32_t>(shape.depth);
  if (m.ports != ports || m.vcs != vcs || m.depth != depth) {
    throw InputError(option, dir,
                     "the checkpoint's routers have another shape (ports, VCs, buffer)");
  }
  // The same router count as the network: every id the lists hold below the checkpoint's
  // count (check_model) is then a router of this network.
  const std::uint64_t nodes = shape.nodes;
  if (nodes != network_nodes || (!routers.empty() && routers.back() >= nodes)) {
    throw InputError(option, dir,
                     "the checkpoint holds " + std::to_string(nodes) + " routers, this network " +
                         std::to_string(network_nodes));
  }
  m.routers = routers;
  const RowDistribution rows = router_rows(nodes, routers);
  const H5Group r = root.open_group(names::kRouters);
  std::apply(
      [&](auto&&... field) {
        const auto get = [&](auto& one) {
          using T = typename std::remove_cvref_t<decltype(one.values)>::value_type;
          one.values = get_rows<T>(comm, r, one.name, rows);
        };
        (get(field), ...);
      },
      layout::router_fields(m));
  std::apply([&](auto&&... list) { (read_list(root, list), ...); }, layout::lists(m));

  const H5Group c = root.open_group(names::kCounters);
  const auto w = get_array<std::uint64_t>(c.open_dataset(names::kWindowCounters));
  require(w.size() == TrafficCounters::kFields, "checkpoint: window counters size differs");
  std::array<std::uint64_t, TrafficCounters::kFields> wa{};
  std::copy(w.begin(), w.end(), wa.begin());
  m.counters.window = TrafficCounters::from_array(wa);
  const auto s = get_array<std::uint64_t>(c.open_dataset(names::kScalars));
  const auto scalars = layout::scalars(m);
  require(s.size() == scalars.size(), "checkpoint: counters size differs");
  for (std::size_t k = 0; k < scalars.size(); ++k) *scalars[k] = s[k];
  for (const auto& h : layout::histograms(m)) read_histogram(c, h.name, h.histogram);
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
                                    const std::vector<std::uint32_t>& routers, std::uint64_t nodes,
                                    std::uint32_t ports, std::uint32_t vcs, std::uint32_t depth,
                                    const FileStamp& intact) {
  return refusing_damage(option, dir, [&] {
    return read_model(comm, dir, option, routers, nodes, ports, vcs, depth, intact);
  });
}

}  // namespace wormnet::io
