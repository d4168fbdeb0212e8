#include "wormnet/driver/run_session.hpp"

#include <span>
#include <sstream>
#include <utility>

#include "wormnet/core/error.hpp"
#include "wormnet/workload/trace_file.hpp"

namespace wormnet {

namespace {

/// Completion time and breakdown of a finished workload: to the results file and the report.
/// Whether every message was delivered.
bool finish_workload(const Communicator& comm, SessionWorkload& w, io::ResultWriter* writer,
                     SessionReport& report) {
  const WorkloadTimes times = summed_times(comm, *w.loop);
  const CompletionReport done = report_completion(*w.graph, times);
  if (writer != nullptr) {
    io::WorkloadRecord r = w.record;
    r.graph = w.graph;
    r.times = &times;
    r.report = &done;
    writer->write_workload(r);
  }
  report.workload_done(done, *w.graph);
  return done.complete;
}

/// The first line where two configurations differ, for the refusal message.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a);
  std::istringstream y(b);
  std::string la;
  std::string lb;
  while (true) {
    const bool ga = static_cast<bool>(std::getline(x, la));
    const bool gb = static_cast<bool>(std::getline(y, lb));
    if (!ga && !gb) return "";
    if (!ga) la = "(nothing)";
    if (!gb) lb = "(nothing)";
    if (la != lb) return "checkpoint has '" + la + "', this run '" + lb + "'";
  }
}

}  // namespace

io::RunProgress read_restart(const Communicator& comm, const std::string& dir,
                             const std::string& command, const std::string& version) {
  io::RunProgress p = io::read_checkpoint_progress(comm, dir, "--restart", version);
  if (p.command != command) {
    throw InputError("--restart", dir,
                     "the checkpoint is of 'wormnet " + p.command + "', not '" + command + "'");
  }
  return p;  // read_checkpoint_progress refused another build's checkpoint
}

void refuse_other_configuration(const io::RunProgress& restart, const std::string& dir,
                                const std::string& config_toml) {
  if (restart.config_toml != config_toml) {
    throw InputError(
        "--restart", dir,
        "another configuration: " + first_difference(restart.config_toml, config_toml));
  }
}

io::OutputFile claim_checkpoint(const Communicator& comm, const std::string& dir) {
  try {
    // A checkpoint's partial file is never one to keep (the previous checkpoint is the
    // target): one a killed run left is written over, by a restart too.
    return io::OutputFile::claim(comm, io::checkpoint_path(dir), "--checkpoint-dir", true,
                                 io::EarlierPartial::kReplace);
  } catch (const InputError& e) {
    throw InputError(e.option(), dir, e.allowed());  // the directory the user named
  }
}

SessionOutputs claim_outputs(const Communicator& comm, const SessionPaths& paths, bool restart) {
  SessionOutputs c;
  if (!paths.results.empty()) {
    c.results = io::OutputFile::claim(
        comm, paths.results, "--output", false,
        restart ? io::EarlierPartial::kContinue : io::EarlierPartial::kRefuseOrRestart);
  }
  if (!paths.trace.empty()) {
    c.trace =
        io::OutputFile::claim(comm, paths.trace, "--write-trace", false,
                              restart ? io::EarlierPartial::kReplace : io::EarlierPartial::kRefuse);
  }
  if (!paths.checkpoint.empty()) c.checkpoint = claim_checkpoint(comm, paths.checkpoint);
  return c;
}

std::unique_ptr<Resume> resume_from(const Communicator& comm, const io::RunProgress& restart,
                                    const std::string& dir, const SimNetwork& network,
                                    std::uint64_t buffer_depth, SessionWorkload* workload) {
  auto resume = std::make_unique<Resume>();
  resume->loop = LoopState{restart.cycle, restart.window_start, restart.next_window,
                           restart.next_check, restart.flit_hops};
  resume->model = io::read_checkpoint_model(
      comm, dir, "--restart", network.partition.nodes_of(comm.rank()),
      network.topology->num_nodes(), static_cast<std::uint32_t>(network.topology->num_ports()),
      static_cast<std::uint32_t>(network.plan.vcs), static_cast<std::uint32_t>(buffer_depth),
      restart.checked);
  if (workload != nullptr) {
    if (restart.workload.size() != 3ULL * workload->graph->size()) {
      throw InputError("--restart", dir,
                       "the checkpoint holds no progress of this workload's " +
                           std::to_string(workload->graph->size()) + " messages");
    }
    workload->loop->restore(WorkloadTimes::from_flat(restart.workload));
  }
  return resume;
}

WorkloadTimes summed_times(const Communicator& comm, const ClosedLoop& loop) {
  std::vector<std::uint64_t> v = loop.times().flat();
  comm.sum(std::span<std::uint64_t>(v));
  return WorkloadTimes::from_flat(v);
}

void write_trace_file(const Communicator& comm, const MessageGraph& graph, io::OutputFile& out) {
  // A trace is written in one go: a partial one holds nothing of use.
  std::string reason;
  if (comm.is_root()) {
    try {
      write_trace(graph, out.partial());
    } catch (const OutputError& e) {
      reason = e.reason().empty() ? "not written" : e.reason();
    }
  }
  comm.broadcast(reason, 0);
  try {
    if (!reason.empty()) throw OutputError(out.partial(), reason);
    out.commit(comm);
  } catch (const OutputError& e) {
    if (out.failed_after_rename()) throw;  // in place; its directory failed to sync
    out.discard_after(comm, e);
  }
  out.release();
}

std::unique_ptr<io::ResultWriter> open_results(const Communicator& comm, io::OutputFile output,
                                               const io::RunDescription& description,
                                               const io::RunProgress* restart) {
  if (restart == nullptr) {
    return std::make_unique<io::ResultWriter>(comm, std::move(output), description);
  }
  auto writer =
      io::ResultWriter::reopen(comm, std::move(output), description, restart->summary_rows);
  writer->resume_point(restart->series_rows);
  return writer;
}

int run_points(const Communicator& comm, Simulation& sim, ResultSink& sink,
               const SessionPoints& points, std::unique_ptr<Resume> resume,
               io::ResultWriter* writer, SessionWorkload* workload, SessionReport& report) {
  std::int64_t left = points.left;
  int code = kExitOk;
  try {
    for (std::size_t i = points.first; i < points.rates.size(); ++i) {
      const double rate = points.rates[i];
      report.point_starts(static_cast<int>(i), rate, left);
      const RunSummary s = sim.run(rate, sink, static_cast<int>(i), resume.get());
      resume.reset();
      if (s.interrupted) {
        if (writer != nullptr) writer->finish(io::RunStatus::kInterrupted);
        report.stopped(i, s.cycles);
        return kExitInterrupted;
      }
      report.point_done(i, s);
      const bool unfinished =
          workload != nullptr && !finish_workload(comm, *workload, writer, report);
      if (s.deadlock) {
        code = kExitDeadlock;
        break;
      }
      if (unfinished) code = kExitIncomplete;  // the drain limit ended it (one point only)
      if (points.after_saturation >= 0) {
        if (left < 0 && s.saturated) {
          left = points.after_saturation;
        } else if (left > 0) {
          --left;
        }
        if (left == 0) break;
      }
    }
    if (writer != nullptr) {
      writer->finish(code == kExitDeadlock     ? io::RunStatus::kDeadlock
                     : code == kExitIncomplete ? io::RunStatus::kIncomplete
                                               : io::RunStatus::kComplete);
    }
  } catch (const InputError&) {
    // Errors every rank saw alike: the file says "failed" and keeps its partial name.
    if (writer != nullptr) writer->abandon();
    throw;
  } catch (const OutputError&) {
    if (writer != nullptr) writer->abandon();
    throw;
  }
  report.finished();
  return code;
}

}  // namespace wormnet
