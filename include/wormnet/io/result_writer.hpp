// Writes a simulation (one load point or a sweep) to one HDF5 file as it runs: the network,
// its partition, one group per load point with its time series (flushed every statistics
// window), latency histograms, per-channel flit counts and the deadlock report, and a summary
// table with one row per point. The layout is documented in docs/hdf5-schema.md.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/io/h5_file.hpp"
#include "wormnet/io/run_status.hpp"
#include "wormnet/io/time_series_table.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/stats/result_sink.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet::io {

/// What the file records about the run besides its results.
struct RunDescription {
  std::string command;      ///< "run" or "sweep"
  std::string config_toml;  ///< the effective configuration
  std::string version;      ///< wormnet version
  std::string git_sha;
  const SimConfig* config = nullptr;
  const Topology* topology = nullptr;
  const RoutingFunction* routing = nullptr;
  const Partition* partition = nullptr;
  ThroughputBounds bounds;
  /// gamma_c per channel id (routes over all ordered pairs); null or empty when unknown.
  const std::vector<double>* channel_load = nullptr;
  int vcs = 1;
  Cycle lookahead = 1;
};

class ResultWriter final : public ResultSink {
 public:
  /// Creates `path` (InputError naming `option` when it cannot be created) and writes the
  /// run's description; the file's status is "running" until finish(). Collective.
  ResultWriter(const Communicator& comm, const std::string& path, const std::string& option,
               const RunDescription& run);
  /// Reopens the results file of a run continued from a checkpoint: keeps its first
  /// `summary_rows` finished points; the interrupted point continues (resume_point()).
  /// InputError naming `option` when the file is missing or not a wormnet results file.
  static std::unique_ptr<ResultWriter> reopen(const Communicator& comm, const std::string& path,
                                              const std::string& option, const RunDescription& run,
                                              std::uint64_t summary_rows);
  ~ResultWriter() override;
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  void begin_point(int index, double offered_load) override;
  void window(const WindowRow& row) override;
  void end_point(
      const RunSummary& summary, const MeasuredStats& measured,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) override;

  /// Records the final status and closes the file. Collective.
  void finish(RunStatus status);

  /// The next begin_point() continues that point's group, keeping `series_rows` windows
  /// (written before the checkpoint) and dropping what came after.
  void resume_point(std::uint64_t series_rows) { resume_rows_ = series_rows; }
  /// Rows written so far: windows of the open point, finished points.
  [[nodiscard]] std::uint64_t series_rows() const { return series_ ? series_->rows() : 0; }
  [[nodiscard]] std::uint64_t summary_rows() const { return summary_ ? summary_->rows() : 0; }

 private:
  ResultWriter(const Communicator& comm, H5File file, const RunDescription& run);
  void write_network(const RunDescription& run);

  Communicator comm_;
  H5File file_;
  RunDescription run_;
  std::optional<H5Group> point_;
  std::optional<TimeSeriesTable> series_;
  std::optional<TimeSeriesTable> summary_;
  std::optional<std::uint64_t> resume_rows_;
  int point_index_ = 0;
  double offered_load_ = 0.0;
};

}  // namespace wormnet::io
