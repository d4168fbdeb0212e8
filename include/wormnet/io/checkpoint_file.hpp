// Coordinated checkpoints: every rank's model snapshot in one HDF5 file, written at a window
// boundary, rows at global router ids, so any rank count can read it back. The file is written
// as the partial sibling of DIR/checkpoint.h5 (output_file.hpp) and renamed into place only
// when complete: a half-written checkpoint never replaces a good one. Every dataset and the
// root attributes carry a digest that does not depend on the rank count: a damaged checkpoint
// is refused as bad input. Layout: docs/hdf5-schema.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/engine/model_snapshot.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io {

/// The longest configuration text (RunProgress::config_toml) a checkpoint holds: it keeps it
/// as a fixed-length string attribute (read back without HDF5's global heap), which lives in
/// the file's root object header, whose messages HDF5 limits to 64 KiB; this leaves room for
/// the message's own fields. A run checks it before it writes anything.
inline constexpr std::size_t kMostConfigBytes = 60000;

/// Where the run stands, besides the model (the driver's loop state and the output's).
struct RunProgress {
  std::string command;      ///< "run" or "sweep"
  std::string config_toml;  ///< the effective configuration; a restart must match it
  /// The digests of the input files the configuration names by path (tables, trace), as TOML
  /// (schema::kInputsAttr; "" for none); a restart must find the same contents.
  std::string inputs;
  std::string version;                      ///< wormnet version that wrote the checkpoint
  std::string output;                       ///< results file being written ("" = none)
  std::int64_t point = 0;                   ///< load point (sweeps)
  double rate = 0.0;                        ///< offered load of that point, flits/node/cycle
  std::int64_t left_after_saturation = -1;  ///< sweep: points still to run after saturation
  std::uint64_t cycle = 0;                  ///< next cycle to simulate
  std::uint64_t window_start = 0;           ///< first cycle of the open statistics window
  std::uint64_t next_window = 0;
  std::uint64_t next_check = 0;
  std::uint64_t flit_hops = 0;     ///< flit hops of the closed windows
  std::uint64_t series_rows = 0;   ///< time-series rows written for this point
  std::uint64_t summary_rows = 0;  ///< summary rows written (finished points)
  /// A closed-loop workload's progress (WorkloadTimes::flat(), summed over ranks); empty when
  /// the run has none. Dataset workload/times.
  std::vector<std::uint64_t> workload;
  /// Root: the checkpoint file whose seal this read checked (not stored in the file).
  FileStamp checked;
};

/// Path of the checkpoint in `dir`.
std::string checkpoint_path(const std::string& dir);

/// Collective. Writes `mine` (this rank's snapshot) and `progress` (root's) to `out`'s
/// partial file and renames it over the target (DIR/checkpoint.h5, claimed by the caller).
/// OutputError naming the partial file and the system's reason when the file system fails
/// (the partial file is removed; the previous checkpoint stays).
void write_checkpoint(const Communicator& comm, OutputFile& out, const RunProgress& progress,
                      const ModelSnapshot& mine);

/// Collective. The progress record of the checkpoint in `dir`. InputError naming `option`
/// when there is none, it is not a wormnet checkpoint of this layout, it was written by a
/// wormnet other than `version` (when given), or it is damaged (a checksum fails).
RunProgress read_checkpoint_progress(const Communicator& comm, const std::string& dir,
                                     const std::string& option, const std::string& version = "");

/// Collective. The model for this rank: rows of `routers` (ascending global ids), every list
/// entry, and the global counters. The shape must match the network's: `nodes` routers of
/// ports / vcs / depth (every stored router id is then one of the network's). `intact`: the
/// RunProgress::checked of this file's progress; while the file still has that stamp its seal
/// is not read again (a checkpoint is hashed once per restart, not per read).
ModelSnapshot read_checkpoint_model(const Communicator& comm, const std::string& dir,
                                    const std::string& option,
                                    const std::vector<std::uint32_t>& routers, std::uint64_t nodes,
                                    std::uint32_t ports, std::uint32_t vcs, std::uint32_t depth,
                                    const FileStamp& intact = {});

}  // namespace wormnet::io
