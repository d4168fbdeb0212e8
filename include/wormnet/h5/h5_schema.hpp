// Names that are conventions of wormnet's HDF5 files (see docs/hdf5-schema.md). Analysis
// scripts use the same names; change them only together with the schema version.
#pragma once

#include <cstdint>
#include <string_view>

namespace wormnet::io::schema {

/// The version of a file's layout, stored in the root attribute kSchemaVersionAttr. Bump it
/// whenever a reader of the previous layout would misread a new file (renamed or removed
/// objects, changed meaning or units); adding objects does not need a bump.
/// Results files (`run`, `sweep`): 2 since a point no longer stores `channel_utilization`
/// (`channel_flits` / `window_cycles`, 8 bytes per channel: a fifth of a results file of a
/// large torus, which a run writes and flushes at its end; docs/hdf5-schema.md).
inline constexpr std::int64_t kResultsSchemaVersion = 2;
/// Table files (`tables`) and tables-study files: unchanged since their first layout.
inline constexpr std::int64_t kSchemaVersion = 1;

// Root attributes of every file wormnet writes.
/// int64: kSchemaVersion of the writer.
inline constexpr std::string_view kSchemaVersionAttr = "schema_version";
/// string: "running" | "complete" | "deadlock" | "interrupted" | "failed" | "incomplete"
/// (RunStatus).
inline constexpr std::string_view kStatusAttr = "status";
/// string: the wormnet version that wrote the file ("0.1.0").
inline constexpr std::string_view kWormnetVersionAttr = "wormnet_version";
/// string: the git revision of the build ("unknown" outside a checkout).
inline constexpr std::string_view kGitShaAttr = "git_sha";
/// int64: number of MPI ranks that wrote the file.
inline constexpr std::string_view kRanksAttr = "ranks";
/// string: the effective configuration, as a TOML document.
inline constexpr std::string_view kConfigAttr = "config";
/// string (results files and checkpoints of runs that read input files): what the files the
/// configuration names by path held, as TOML, one line per option: `tables = { bytes = N,
/// sha256 = "...", path = "..." }` (core/content_digest.hpp). "" in a checkpoint without any.
inline constexpr std::string_view kInputsAttr = "inputs";

// Time-series tables (TimeSeriesTable).
/// string array on the table group: the column names, in order.
inline constexpr std::string_view kColumnsAttr = "columns";
/// string on each column dataset: its unit, empty when dimensionless.
inline constexpr std::string_view kUnitAttr = "unit";
/// string on each column dataset (or any other object): what it holds.
inline constexpr std::string_view kDescriptionAttr = "description";

}  // namespace wormnet::io::schema
