// The "status" convention: a file never claims a result it does not hold.
#pragma once

#include <optional>
#include <string_view>

namespace wormnet::io {

class H5File;

/// The outcome recorded in a run file's root attribute "status" (schema::kStatusAttr).
///
/// The writer sets kRunning right after creating the file, and one of the final values just
/// before closing it. A file whose status is still "running" was not finished: the job was
/// killed (kill -9, node failure, wall-time limit without a clean stop) or is still running.
/// Only "complete" promises every dataset of the schema.
enum class RunStatus {
  kRunning,      ///< "running": being written, or abandoned mid-run
  kComplete,     ///< "complete": finished normally, every result present
  kDeadlock,     ///< "deadlock": the run-time watchdog found a deadlock; report stored
  kInterrupted,  ///< "interrupted": stopped cleanly early (signal, wall time); partial
  kFailed,       ///< "failed": stopped by an error; whatever was written is partial
  /// "incomplete": finished, every result present, but its closed-loop workload was not: the
  /// drain limit ended the run with messages undelivered (a result, not a checkpoint stop).
  kIncomplete,
};

/// The attribute value: "running", "complete", "deadlock", "interrupted", "failed",
/// "incomplete".
std::string_view to_string(RunStatus status);
/// The inverse of to_string(); nullopt for any other text.
std::optional<RunStatus> parse_run_status(std::string_view text);

/// How the status string is stored: a variable-length string (results files, which h5py
/// reads as str) or a fixed-length one (wormnet's own input formats, see
/// H5Object::set_fixed_string_attribute()).
enum class StringStorage { kVariable, kFixed };

/// Collective. Sets the root attribute "status" to root's `status` and flushes the file, so
/// the status on disk is the one just set.
void set_run_status(const H5File& file, RunStatus status,
                    StringStorage storage = StringStorage::kVariable);
/// The file's status. H5Error when the attribute is missing or holds an unknown word; with
/// StringStorage::kFixed also when it is not a fixed-length string (nothing is read then).
RunStatus run_status(const H5File& file, StringStorage storage = StringStorage::kVariable);

}  // namespace wormnet::io
