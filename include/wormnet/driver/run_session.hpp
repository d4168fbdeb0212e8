// The run session of `wormnet run` and `wormnet sweep`, in the order the command line calls
// its steps: the restart's checks, the claims of the outputs (before the network is built),
// the state a checkpoint resumes, the trace file, the results file, and the load points in
// order, ending in an exit status. The command line keeps the options, the network's setup
// and the printing (SessionReport, told per point, never in the per-cycle loop).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wormnet/driver/sim_network.hpp"
#include "wormnet/engine/simulation.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/io/checkpoint_file.hpp"
#include "wormnet/io/result_writer.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/stats/result_sink.hpp"
#include "wormnet/workload/closed_loop.hpp"
#include "wormnet/workload/completion_report.hpp"
#include "wormnet/workload/message_graph.hpp"

namespace wormnet {

/// Exit codes of a session (documented in the README): every point ran; a deadlock ended the
/// run; it was stopped cleanly before its end (signal, wall time, --stop-at-cycle: a
/// checkpoint was written and the results file says "interrupted"); a closed-loop workload
/// was left unfinished by the drain limit (status "incomplete").
inline constexpr int kExitOk = 0;
inline constexpr int kExitDeadlock = 4;
inline constexpr int kExitInterrupted = 5;
inline constexpr int kExitIncomplete = 7;

/// The load points of a session and where a restart takes them up.
struct SessionPoints {
  std::vector<double> rates;  ///< offered load of each point, flits/node/cycle (0: a workload)
  int after_saturation = -1;  ///< points to run after the first saturated one (-1: all)
  std::size_t first = 0;      ///< the first point to run (a restart's point, else 0)
  std::int64_t left = -1;     ///< points still to run after saturation; -1 = not saturated yet
};

/// A closed-loop workload of the session: its messages, the engine's script of them, and
/// what the results file records of it (the session fills in graph, times and report).
struct SessionWorkload {
  const MessageGraph* graph = nullptr;
  ClosedLoop* loop = nullptr;
  io::WorkloadRecord record;
};

/// What the command line does around the points: the batch control's record of the point,
/// and the printing. Called once or twice per point, never in the per-cycle loop.
class SessionReport {
 public:
  virtual ~SessionReport() = default;
  /// Before point `index` runs at `rate` (flits/node/cycle).
  virtual void point_starts(int index, double rate, std::int64_t left_after_saturation) = 0;
  /// Point `index` was stopped cleanly at `cycle` (the results file says "interrupted").
  virtual void stopped(std::size_t index, Cycle cycle) = 0;
  /// Point `index` ended (before its workload is reported).
  virtual void point_done(std::size_t index, const RunSummary& summary) = 0;
  /// A closed-loop workload's completion (after it was written to the results file).
  virtual void workload_done(const CompletionReport& report, const MessageGraph& graph) = 0;
  /// The session ended without a stop (whatever its exit status).
  virtual void finished() = 0;
};

/// The progress record of the checkpoint in `dir` (--restart), checked to be of `command`
/// ("run" or "sweep") and of this build (`version`). InputError naming --restart otherwise.
/// Collective.
io::RunProgress read_restart(const Communicator& comm, const std::string& dir,
                             const std::string& command, const std::string& version);

/// InputError naming --restart `dir` when `restart` saved another configuration than
/// `config_toml` (the first line where they differ).
void refuse_other_configuration(const io::RunProgress& restart, const std::string& dir,
                                const std::string& config_toml);

/// Claims DIR/checkpoint.h5 for this run (output_file.hpp): creates the directory (removed
/// again if the run ends on bad input before a checkpoint) and takes its lock. InputError
/// naming --checkpoint-dir when it cannot be, or another run holds it.
io::OutputFile claim_checkpoint(const Communicator& comm, const std::string& dir);

/// The files a session writes, by path ("": none).
struct SessionPaths {
  std::string results;     ///< --output
  std::string trace;       ///< --write-trace
  std::string checkpoint;  ///< the checkpoint directory, when checkpoints are planned
};

/// The outputs of a session, claimed before its (possibly long) setup.
struct SessionOutputs {
  std::optional<io::OutputFile> results;
  std::optional<io::OutputFile> trace;
  std::optional<io::OutputFile> checkpoint;
};

/// Claims the outputs, in this order, before anything is built: a second run on the same
/// files is refused at once, and a path that cannot be written is found before any work. A
/// `restart` continues its results file's partial one and replaces a trace's.
SessionOutputs claim_outputs(const Communicator& comm, const SessionPaths& paths, bool restart);

/// The model and loop state of the checkpoint in `dir` (read and checked against `network`
/// and `buffer_depth`), and the progress of `workload` restored from it. InputError naming
/// --restart when the checkpoint does not fit. Collective.
std::unique_ptr<Resume> resume_from(const Communicator& comm, const io::RunProgress& restart,
                                    const std::string& dir, const SimNetwork& network,
                                    std::uint64_t buffer_depth, SessionWorkload* workload);

/// The workload's per-message times, summed over the ranks (collective).
WorkloadTimes summed_times(const Communicator& comm, const ClosedLoop& loop);

/// --write-trace: `graph` written by rank 0 as the claimed output's partial file and
/// published; a failure is every rank's OutputError and removes the partial file.
void write_trace_file(const Communicator& comm, const MessageGraph& graph, io::OutputFile& out);

/// The results file: created from `output`, or reopened at the point `restart` saved.
std::unique_ptr<io::ResultWriter> open_results(const Communicator& comm, io::OutputFile output,
                                               const io::RunDescription& description,
                                               const io::RunProgress* restart);

/// Simulates the points in order with `sim` (its hooks and script set), reporting each to
/// `sink` (which passes them on to `writer`, when there is one) and to `report`; continues
/// from `resume` when given. Returns the exit code: kExitOk, kExitDeadlock (the points after
/// a deadlock are not run), kExitInterrupted, kExitIncomplete. Finishes `writer` with the
/// matching status, or abandons it on an InputError or OutputError (rethrown).
int run_points(const Communicator& comm, Simulation& sim, ResultSink& sink,
               const SessionPoints& points, std::unique_ptr<Resume> resume,
               io::ResultWriter* writer, SessionWorkload* workload, SessionReport& report);

}  // namespace wormnet
