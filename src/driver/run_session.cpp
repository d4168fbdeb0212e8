#include "wormnet/driver/run_session.hpp"

#include <span>
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

}  // namespace

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
    out.discard_partial(comm);
    throw OutputError(e.path(), e.reason() + "; the partial file was removed, an earlier '" +
                                    out.target() + "', if any, is unchanged");
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
