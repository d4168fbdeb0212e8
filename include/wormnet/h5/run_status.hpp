// The "status" convention: a file never claims a result it does not hold.
#pragma once

#include <span>

#include "wormnet/core/enum_names.hpp"

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
/// The attribute's words (the ones job scripts compare against: README, docs/hdf5-schema.md);
/// enum_name() and enum_value() read them.
inline constexpr EnumName<RunStatus> kRunStatusNames[] = {
    {RunStatus::kRunning, "running", "being written, or abandoned mid-run"},
    {RunStatus::kComplete, "complete", "finished normally, every result present"},
    {RunStatus::kDeadlock, "deadlock", "the watchdog found a deadlock; report stored"},
    {RunStatus::kInterrupted, "interrupted", "stopped cleanly early; partial"},
    {RunStatus::kFailed, "failed", "stopped by an error; partial"},
    {RunStatus::kIncomplete, "incomplete", "finished, but the workload was not delivered"},
};
constexpr std::span<const EnumName<RunStatus>> enum_names(RunStatus) {
  return kRunStatusNames;
}

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
