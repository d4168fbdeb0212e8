#include "checkpoint_writer.hpp"

#include <chrono>
#include <utility>

#include "wormnet/driver/run_session.hpp"

namespace wormnet::cli {

CheckpointWriter::CheckpointWriter(const Communicator& comm, std::string dir, io::RunProgress base,
                                   const io::ResultWriter* writer,
                                   std::optional<io::OutputFile> file)
    : comm_(comm),
      dir_(std::move(dir)),
      base_(std::move(base)),
      writer_(writer),
      file_(std::move(file)) {}

void CheckpointWriter::set_point(int index, double rate, std::int64_t left_after_saturation) {
  base_.point = index;
  base_.rate = rate;
  base_.left_after_saturation = left_after_saturation;
}

double CheckpointWriter::write(const LoopState& loop, const ModelSnapshot& mine) {
  const auto t0 = std::chrono::steady_clock::now();
  io::RunProgress p = base_;
  p.cycle = loop.cycle;
  p.window_start = loop.window_start;
  p.next_window = loop.next_window;
  p.next_check = loop.next_check;
  p.flit_hops = loop.flit_hops;
  p.series_rows = writer_ != nullptr ? writer_->series_rows() : 0;
  p.summary_rows = writer_ != nullptr ? writer_->summary_rows() : 0;
  if (workload_progress_) p.workload = workload_progress_();
  if (!file_) file_ = claim_checkpoint(comm_, dir_);
  io::write_checkpoint(comm_, *file_, p, mine);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace wormnet::cli
