// Private to src/io: what makes a published file survive a crash of the machine, not only of
// the process. A rename is atomic for every process that looks, but until the file's data and
// the directory entry are on the disk, a node that crashes (power, kernel panic) can come back
// with the new name over an empty or half-written file on XFS, ext4 without data=ordered,
// Lustre or NFS. OutputFile::commit() syncs the file (on every rank that wrote it) before the
// rename and the directory after it (output_file.hpp).
#pragma once

#include <string>

namespace wormnet::io::detail {

/// fsync of the file at `path` through a descriptor of its own: on Linux it writes back
/// whatever any process of this node wrote to the file. "" when done, else the system's
/// reason. A file system that has no sync to offer (EINVAL, ENOTSUP, ENOSYS: some FUSE and
/// special file systems) counts as done.
std::string sync_file(const std::string& path);

/// fsync of the directory holding `path` ("." for a bare name), so that a rename or a new
/// entry there is on the disk. "" when done, else the system's reason; as sync_file(), and
/// also "" for a directory this process may write but not read (it cannot be opened).
std::string sync_directory_of(const std::string& path);

/// rename(from, to), then sync_directory_of(to). "" when both worked; else the reason,
/// with `renamed` saying whether the rename itself happened.
std::string rename_durably(const std::string& from, const std::string& to, bool& renamed);

}  // namespace wormnet::io::detail
