// The victim of h5_kill_check.py: writes a run file the way the simulator does (status
// "running", a distributed array, a time-series table flushed after every row), announces
// "flushed k" after the k-th flush, then sleeps as if simulating the next window until it
// is killed. Usage: h5_kill_writer OUT.h5 ROWS
//
// Every rank first prints "pid <rank> <pid>" so that the driver can SIGKILL each of them.
// Contents: /channels/flits int64 (G=100) = 3i+1; /timeseries rows r < ROWS with
// cycle (int64) = 1000(r+1) and latency (float64) = 1.5r + 0.125.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/h5/time_series_table.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

int run(const std::string& path, std::uint64_t rows) {
  using namespace wormnet::io;
  const wormnet::Communicator world = wormnet::Communicator::world();
  std::printf("pid %d %d\n", world.rank(), static_cast<int>(getpid()));
  std::fflush(stdout);

  H5File file = H5File::create(world, path, "-o");
  const H5Group root = file.root();
  root.set_attribute(schema::kSchemaVersionAttr, schema::kSchemaVersion);
  set_run_status(file, RunStatus::kRunning);

  const RowDistribution channels = RowDistribution::block(100, world.rank(), world.size());
  std::vector<std::int64_t> flits;
  for (const IndexRun& r : channels.runs()) {
    for (std::uint64_t i = r.offset; i < r.offset + r.count; ++i) {
      flits.push_back(3 * static_cast<std::int64_t>(i) + 1);
    }
  }
  root.create_group("channels").write_distributed<std::int64_t>("flits", channels, flits);

  TimeSeriesTable ts = TimeSeriesTable::create(root, "timeseries",
                                               {{"cycle", ElementType::kInt64, "cycles", ""},
                                                {"latency", ElementType::kFloat64, "cycles", ""}},
                                               4);
  for (std::uint64_t r = 0; r < rows; ++r) {
    ts.append({TimeSeriesTable::Cell{static_cast<std::int64_t>(1000 * (r + 1))},
               TimeSeriesTable::Cell{1.5 * static_cast<double>(r) + 0.125}});
    file.flush();
    if (world.is_root()) {
      std::printf("flushed %llu\n", static_cast<unsigned long long>(r + 1));
      std::fflush(stdout);
    }
  }
  // "Simulating the next window": the driver kills us here. Not being killed is a failure.
  std::this_thread::sleep_for(std::chrono::seconds(120));
  return 4;
}

}  // namespace

int main(int argc, char** argv) {
  const wormnet::MpiSession session(&argc, &argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: h5_kill_writer OUT.h5 ROWS\n");
    return 2;
  }
  try {
    return run(argv[1], std::strtoull(argv[2], nullptr, 10));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "h5_kill_writer: %s\n", e.what());
    wormnet::Communicator::world().abort(3);
  }
}
