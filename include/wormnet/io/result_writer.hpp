// Writes a simulation (one load point or a sweep) to one HDF5 file as it runs: the network,
// its partition, one group per load point with its time series (flushed every statistics
// window), latency histograms, per-channel flit counts and the deadlock report, and a summary
// table with one row per point. The layout is documented in docs/hdf5-schema.md.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/h5/time_series_table.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/stats/result_sink.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/workload/completion_report.hpp"

namespace wormnet::io {

/// What the file records about the run besides its results.
/// The ideal throughput of the traffic pattern simulated, when it is not uniform and its load
/// analysis ran (group /routing/pattern; verify/pattern_loads.hpp).
struct PatternIdealRecord {
  std::string pattern;            ///< --traffic, e.g. "tornado"
  double pi = 0.0;                ///< the busiest channel's load under the pattern
  double saturation_rate = 0.0;   ///< senders / (N pi): accepted flits/node/cycle at the ideal
  double offered_at_ideal = 0.0;  ///< 1/pi: --load of each sending node at the ideal
  std::uint64_t pairs = 0;        ///< pairs the pattern sends between
  std::uint64_t senders = 0;      ///< nodes that send (a permutation's fixed points do not)
  /// Per channel id: flits per cycle through it per unit offered load.
  const std::vector<double>* channel_load = nullptr;
};

struct RunDescription {
  std::string command;      ///< "run" or "sweep"
  std::string config_toml;  ///< the effective configuration
  /// The digests of the input files the configuration names by path, as TOML
  /// (schema::kInputsAttr); written when not empty. A restart continues only a file of the
  /// same configuration and inputs.
  std::string inputs;
  std::string version;  ///< wormnet version
  std::string git_sha;
  const SimConfig* config = nullptr;
  const Topology* topology = nullptr;
  const RunPlan* plan = nullptr;  ///< VCs, flow control, lookahead, window, routing traits
  const Partition* partition = nullptr;
  ThroughputBounds bounds;
  /// gamma_c per channel id (routes over all ordered pairs); null or empty when unknown.
  const std::vector<double>* channel_load = nullptr;
  /// The traffic pattern's own ideal; none for uniform traffic, or when not computed.
  std::optional<PatternIdealRecord> pattern_ideal;
  /// The network's failed links and nodes (group /faults when the configuration asks for
  /// faults), and the working sources a permutation left silent.
  const FaultSet* faults = nullptr;
  std::uint64_t silenced_sources = 0;
};

/// A closed-loop workload's results (group /workload), identical on every rank.
struct WorkloadRecord {
  std::string source;                       ///< motif name, or "trace"
  std::string trace;                        ///< trace file (source "trace"), else ""
  std::string mapping;                      ///< process-to-node mapping ("" for a trace)
  std::vector<std::int64_t> grid;           ///< process grid (motifs)
  std::vector<std::uint64_t> process_node;  ///< node of each process (motifs)
  std::uint64_t message_flits = 0;          ///< motifs' message size (0 for a trace or NPB)
  std::uint64_t processes_per_node = 0;     ///< motifs and NPB (0 for a trace)
  std::uint64_t local_latency = 0;          ///< cycles of a message within a node
  std::uint64_t compute_per_step = 0;       ///< motifs' cycles of computation per step
  double compute_rate = 0;                  ///< NPB: operations per cycle (0: none)
  std::string npb_class;                    ///< NPB: the problem class ("" otherwise)
  std::uint64_t npb_scale = 0;              ///< NPB: sizes divided by this (0 otherwise)
  const MessageGraph* graph = nullptr;
  const WorkloadTimes* times = nullptr;  ///< summed over ranks
  const CompletionReport* report = nullptr;
};

/// Writes the results file of a run through its OutputFile: the partial sibling is written
/// and flushed as the run goes, and replaces the target only in finish(). Every call that
/// writes is collective and turns a failure of the file system (disk full, I/O error) into
/// the same OutputError on every rank, naming the file and the system's reason.
class ResultWriter final : public ResultSink {
 public:
  /// Creates `output`'s partial file and writes the run's description; the file's status is
  /// "running" until finish(). Collective.
  ResultWriter(const Communicator& comm, OutputFile output, const RunDescription& run);
  /// Continues the results file of a run restarted from a checkpoint: the partial file a
  /// killed run left, or else the target an interrupted run left (renamed to the partial
  /// name while it is written again). Keeps its first `summary_rows` finished points; the
  /// interrupted point continues (resume_point()). InputError naming the output's option
  /// when the file is missing, not a wormnet results file, of another configuration, or
  /// already finished (complete, deadlock, incomplete: nothing to continue). Collective.
  static std::unique_ptr<ResultWriter> reopen(const Communicator& comm, OutputFile output,
                                              const RunDescription& run,
                                              std::uint64_t summary_rows);
  /// Abandons the file when still open (see abandon()).
  ~ResultWriter() override;
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  void begin_point(int index, double offered_load) override;
  void window(const WindowRow& row) override;
  /// --congestion series: the window's flits and blocked cycles per channel, written at once
  /// (groups channel_series_windows and channel_series_blocked_windows, one dataset per
  /// window, so that a restart keeps those before its checkpoint); end_point() gathers them
  /// into group channel_series. Collective.
  void channel_window(
      Cycle cycle_end, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_blocked) override;
  /// Kept for the point's end_point(), which writes group `congestion`.
  void congestion(const ChannelCongestion& mine) override { congestion_ = mine; }
  void end_point(
      const RunSummary& summary, const MeasuredStats& measured,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) override;

  /// Writes group /workload (after the point's end_point()). Collective.
  void write_workload(const WorkloadRecord& w);
  /// Records the final status, closes the file and renames it over the target (complete,
  /// deadlock, incomplete, and interrupted: a restart continues it there). Collective.
  void finish(RunStatus status);
  /// After an error every rank saw: records status "failed" if the file can still be
  /// written, closes it and leaves it at its partial name (an earlier file at the target
  /// stays). Collective; never throws.
  void abandon();

  /// The next begin_point() continues that point's group, keeping `series_rows` windows
  /// (written before the checkpoint) and dropping what came after.
  void resume_point(std::uint64_t series_rows) { resume_rows_ = series_rows; }
  /// Rows written so far: windows of the open point, finished points.
  [[nodiscard]] std::uint64_t series_rows() const { return series_ ? series_->rows() : 0; }
  [[nodiscard]] std::uint64_t summary_rows() const { return summary_ ? summary_->rows() : 0; }
  /// The file being written (the partial sibling of the target).
  [[nodiscard]] std::string writing() const { return output_.partial(); }
  [[nodiscard]] const std::string& target() const { return output_.target(); }

 private:
  ResultWriter(const Communicator& comm, OutputFile output, H5File file, const RunDescription& run);
  void write_description(const RunDescription& run);
  void write_network(const RunDescription& run);
  void guarded(const std::function<void()>& write) const;
  void begin_point_unguarded(int index, double offered_load);
  void window_unguarded(const WindowRow& row);
  void end_point_unguarded(
      const RunSummary& summary, const MeasuredStats& measured,
      const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits);

  Communicator comm_;
  OutputFile output_;
  H5File file_;
  RunDescription run_;
  std::optional<H5Group> point_;
  std::optional<ChannelCongestion> congestion_;  ///< this rank's, until end_point()
  void write_congestion(const H5Group& point, const ChannelCongestion& mine, Cycle window) const;
  void write_channel_series(const H5Group& point, const RowDistribution& rows,
                            std::size_t local_channels) const;
  std::optional<TimeSeriesTable> series_;
  std::optional<TimeSeriesTable> summary_;
  std::optional<std::uint64_t> resume_rows_;
  int point_index_ = 0;
  double offered_load_ = 0.0;
};

}  // namespace wormnet::io
