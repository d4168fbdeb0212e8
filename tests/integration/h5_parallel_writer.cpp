// Writes a file with every kind of object the h5 layer offers, from however many ranks it
// runs on, for h5_parallel_check.py to read with h5py. Usage: h5_parallel_writer OUT.h5
//
// Contents (closed forms, so the checker needs nothing from this program):
//   root attributes: schema_version, status "complete", ranks = P, config (text)
//   /channels/flits   int64 (G=1009)   value 3i+1, except rows i % 97 == 0: 0 (held by nobody)
//   /channels/vc_load float64 (G=1009, 3)  value 10i + j + 0.25, same rows held
//   /nodes/kind       uint8 (G=50)     value i % 3 (block split)
//   /summary/histogram uint64 (8)      value 2^i (root only)
//   /timeseries       table of 13 rows, columns cycle (int64) 100(r+1), latency (float64)
//                     r/4 + 20, delivered (uint64) r^3
// Rows of the distributed arrays go to ranks in an interleaved pattern of uneven runs, each
// rank listing its runs in descending order.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/h5/time_series_table.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

using wormnet::io::IndexRun;

/// Runs of rows [0, rows) held by `rank`: blocks of 1 + (b mod 4) rows go round-robin to
/// the ranks, rows with i % 97 == 0 to nobody. Descending order.
std::vector<IndexRun> my_runs(std::uint64_t rows, int rank, int ranks) {
  std::vector<IndexRun> runs;
  std::uint64_t at = 0;
  for (std::uint64_t b = 0; at < rows; ++b) {
    const std::uint64_t len = std::min<std::uint64_t>(1 + b % 4, rows - at);
    if (b % static_cast<std::uint64_t>(ranks) == static_cast<std::uint64_t>(rank)) {
      std::uint64_t start = at;
      for (std::uint64_t i = at; i <= at + len; ++i) {
        if (i == at + len || i % 97 == 0) {
          if (i > start) runs.push_back({start, i - start});
          start = i + 1;
        }
      }
    }
    at += len;
  }
  return {runs.rbegin(), runs.rend()};
}

int run(const std::string& path) {
  using namespace wormnet::io;
  const wormnet::Communicator world = wormnet::Communicator::world();
  H5File file = H5File::create(world, path, "-o");
  const H5Group root = file.root();
  root.set_attribute(schema::kSchemaVersionAttr, schema::kSchemaVersion);
  set_run_status(file, RunStatus::kRunning);
  root.set_attribute(schema::kRanksAttr, world.size());
  root.set_attribute(schema::kConfigAttr, "[network]\ntopology = \"torus\"\n");

  constexpr std::uint64_t kChannels = 1009;
  const RowDistribution channels(kChannels, my_runs(kChannels, world.rank(), world.size()));
  std::vector<std::int64_t> flits;
  std::vector<double> vc_load;
  for (const IndexRun& r : channels.runs()) {
    for (std::uint64_t i = r.offset; i < r.offset + r.count; ++i) {
      flits.push_back(3 * static_cast<std::int64_t>(i) + 1);
      for (std::uint64_t j = 0; j < 3; ++j)
        vc_load.push_back(10.0 * static_cast<double>(i) + static_cast<double>(j) + 0.25);
    }
  }
  const H5Group ch = root.create_group("channels");
  ch.write_distributed<std::int64_t>("flits", channels, flits);
  ch.write_distributed<double>("vc_load", channels, vc_load, {3});

  const RowDistribution nodes = RowDistribution::block(50, world.rank(), world.size());
  std::vector<std::uint8_t> kind;
  for (const IndexRun& r : nodes.runs()) {
    for (std::uint64_t i = r.offset; i < r.offset + r.count; ++i) {
      kind.push_back(static_cast<std::uint8_t>(i % 3));
    }
  }
  root.create_group("nodes").write_distributed<std::uint8_t>("kind", nodes, kind);

  std::vector<std::uint64_t> histogram;
  if (world.is_root()) {
    for (std::uint64_t i = 0; i < 8; ++i) histogram.push_back(std::uint64_t{1} << i);
  }
  root.create_group("summary").write_dataset<std::uint64_t>("histogram", histogram);

  TimeSeriesTable ts = TimeSeriesTable::create(
      root, "timeseries",
      {{"cycle", ElementType::kInt64, "cycles", "end of the window"},
       {"latency", ElementType::kFloat64, "cycles", "mean latency"},
       {"delivered", ElementType::kUInt64, "flits", "flits delivered in the window"}},
      4);
  for (std::uint64_t r = 0; r < 13; ++r) {
    ts.append({TimeSeriesTable::Cell{static_cast<std::int64_t>(100 * (r + 1))},
               TimeSeriesTable::Cell{static_cast<double>(r) / 4.0 + 20.0},
               TimeSeriesTable::Cell{r * r * r}});
    file.flush();
  }
  set_run_status(file, RunStatus::kComplete);
  file.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const wormnet::MpiSession session(&argc, &argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: h5_parallel_writer OUT.h5\n");
    return 2;
  }
  try {
    return run(argv[1]);
  } catch (const wormnet::InputError& e) {
    std::fprintf(stderr, "h5_parallel_writer: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "h5_parallel_writer: internal error: %s\n", e.what());
    wormnet::Communicator::world().abort(3);
  }
}
