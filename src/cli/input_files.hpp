// The input files a simulation reads whose contents its configuration does not hold: the
// routing table (--tables), the trace (--trace) and the fault file (--faults). The configuration
// names them by path only, so a run records what they held (their size and SHA-256,
// core/content_digest.hpp) in its checkpoints and its results file, and a restart refuses files
// whose contents changed: a table or trace other than the one the checkpoint's packets were routed
// and issued by crashed the restart or gave other results. The --config file needs no digest: its
// effective contents are the configuration, which a restart compares whole.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim_options.hpp"
#include "wormnet/core/content_digest.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

/// One input file and what it held when the run read it.
struct InputFile {
  std::string option;  ///< "--tables"
  std::string key;     ///< "tables": its key in the configuration and in inputs_toml()
  std::string path;
  /// nullopt when it could not be read whole (missing, not a regular file): the loader that
  /// reads it refuses it then, with its own message.
  std::optional<ContentDigest> digest;
  io::FileStamp stamp;  ///< root: the file as it was digested (device, inode, size, time)
};

/// The input files `o` makes the run read: --tables with --routing table, --trace with
/// --workload trace (those given with another routing or workload are refused elsewhere),
/// --faults.
std::vector<InputFile> input_files(const SimOptions& o);

/// Root notes each file's stamp (device, inode, size, time) before its loader reads it: a run
/// that is no restart digests its inputs after loading them (a broken file is refused by its
/// loader at once, before a digest reads all of it), and the stamp tells that the file
/// digested is the file loaded.
void stamp_inputs(const Communicator& comm, std::vector<InputFile>& files);

/// Collective: root reads and digests every file; every rank receives the digests. A file
/// that changes while it is read (its stamp before and after differ), or since
/// stamp_inputs() stamped it, is an InputError naming its option. Interrupted on every rank
/// when `stop` ends the reading on root.
void digest_inputs(const Communicator& comm, std::vector<InputFile>& files,
                   const StopCheck& stop = {});

/// The digests as TOML, one line per file (schema::kInputsAttr), "" for none:
///   tables = { bytes = 18368, sha256 = "9f86d0...", path = "tb.h5" }
std::string inputs_toml(const std::vector<InputFile>& files);

/// A restart: InputError naming the option and the file when one's contents are not those
/// the checkpoint in `restart_dir` recorded in `recorded` (its RunProgress::inputs). A file
/// without a digest is left to its loader.
void refuse_changed_inputs(const std::string& recorded, const std::vector<InputFile>& files,
                           const std::string& restart_dir);

/// Collective, after the files were loaded: InputError naming the option and the file when
/// one's contents changed since it was digested (what was loaded may not be what was
/// digested; a file whose stamp is unchanged is not read again), or when a loader read one
/// that could not be digested (not a regular file).
void refuse_inputs_changed_since_digest(const Communicator& comm,
                                        const std::vector<InputFile>& files);

}  // namespace wormnet::cli
