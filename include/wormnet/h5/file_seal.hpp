// A checksum of a whole file, kept in the file itself, for the files wormnet writes and later
// reads back as input (checkpoints, routing tables). HDF5 1.10 does not validate its own
// metadata when it reads a damaged file: a flipped byte in an object header or a heap crashed
// the readers inside HDF5 (found by the fuzzers, docs/fuzzing.md). A sealed file is checked
// byte for byte before HDF5 parses any of it, so damage is refused as bad input instead.
//
// The seal lives in the file's HDF5 user block (the first kSealBytes bytes, which HDF5
// reserves and never reads; h5py and every HDF5 tool open the file as usual): the text
// "wormnet seal 1 <digest> <size>\n", the digest (16 hex digits) of every byte after the user
// block and the file's size. It is written after the file is closed and before it is renamed
// into place, so the rename publishes file and seal at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io {

/// Size of the user block a sealed file is created with (H5File::create(..., sealed)).
inline constexpr std::size_t kSealBytes = 512;

/// Writes the seal of the closed file at `path` (one process). "" on success, else the
/// system's reason.
std::string seal_file(const std::string& path);

/// Why the file at `path` is not intact ("its checksum fails", "it has no seal: ..."), or ""
/// when its seal matches (one process; reads the whole file).
std::string seal_problem(const std::string& path);

/// Which file a path names and how it was last written: device, inode, size (bytes) and
/// modification time (ns). A file replaced (rename), extended, truncated or written since
/// has another stamp; all zero for no file.
struct FileStamp {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t modified_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
FileStamp stamp_of(const std::string& path);

/// The seal verdict of the file at `path`, read by root and known to every rank of `comm`.
struct SealVerdict {
  std::string problem;    ///< seal_problem's text; "" when intact or when there is no file
  bool unsealed = false;  ///< no seal at all: another program's file or an older layout
  FileStamp checked;      ///< root: the file whose bytes matched its seal (all zero if none)
};
/// Reading the whole file is skipped when root finds it still has the stamp `intact` (the
/// `checked` of an earlier verdict in this process): a restart reads its checkpoint two or
/// three times and a million-router checkpoint is a gigabyte.
SealVerdict check_seal(const Communicator& comm, const std::string& path,
                       const FileStamp& intact = {});

}  // namespace wormnet::io
