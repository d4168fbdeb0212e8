// The checkpoint files of a run: what each records besides the model (the command, the
// configuration, the point and where the results file stands) and the file itself,
// DIR/checkpoint.h5, claimed up front or at the first checkpoint a signal asks for.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "wormnet/engine/simulation.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/io/checkpoint_file.hpp"
#include "wormnet/io/result_writer.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

class CheckpointWriter {
 public:
  /// `dir`: where checkpoints go; `base`: what every checkpoint of the session records besides
  /// the point and the loop's state; `writer`: the results file (nullptr: none), whose rows a
  /// checkpoint records; `file`: DIR/checkpoint.h5 when claimed up front (checkpoints
  /// planned, or a restart), else claimed at the first checkpoint.
  CheckpointWriter(const Communicator& comm, std::string dir, io::RunProgress base,
                   const io::ResultWriter* writer, std::optional<io::OutputFile> file);

  /// The point being simulated (its index and offered load) and, for sweeps, what is left.
  void set_point(int index, double rate, std::int64_t left_after_saturation);
  /// What a checkpoint saves of a closed-loop workload (collective: summed over the ranks).
  void set_workload_progress(std::function<std::vector<std::uint64_t>()> f) {
    workload_progress_ = std::move(f);
  }
  /// Writes a checkpoint of `loop` and this rank's `mine` (collective); the seconds it took.
  double write(const LoopState& loop, const ModelSnapshot& mine);
  /// DIR/checkpoint.h5.
  [[nodiscard]] std::string path() const { return io::checkpoint_path(dir_); }

 private:
  Communicator comm_;
  std::string dir_;
  io::RunProgress base_;
  const io::ResultWriter* writer_;
  std::optional<io::OutputFile> file_;
  std::function<std::vector<std::uint64_t>()> workload_progress_;
};

}  // namespace wormnet::cli
