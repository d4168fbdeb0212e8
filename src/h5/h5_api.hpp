// Private to src/io: the helpers every io source file uses around the HDF5 C API. This and
// the src/io/*.cpp files are the only places that see <hdf5.h>.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "wormnet/h5/element_type.hpp"
#include "wormnet/h5/h5_handle.hpp"
#include "wormnet/parallel/communicator.hpp"

static_assert(std::is_same_v<hid_t, std::int64_t>, "H5Handle stores hid_t as std::int64_t");
static_assert(sizeof(hsize_t) == sizeof(std::uint64_t), "hsize_t must be 64 bits");

namespace wormnet::io::detail {

/// Switches off HDF5's automatic error-stack printing (idempotent; called before the first
/// HDF5 call of every file). The stack is still recorded and read by error_detail().
void silence_hdf5_errors();

/// The most specific message of HDF5's current error stack ("file signature not found"),
/// or "" when the stack is empty. Must be called before any other HDF5 call, which would
/// clear the stack.
std::string error_detail();

/// The operating system's message on HDF5's current error stack ("No space left on device"),
/// or "" when none is there (the MPI-IO driver reports no errno). Same calling rule.
std::string system_error_detail();

/// Whether the innermost error on the current stack has minor number `minor`.
bool innermost_error_is(hid_t minor);

/// Throws H5Error "<file>: <object path>: <what> (HDF5: <detail>)"; `where` is any id of the
/// file (or negative when none is known).
[[noreturn]] void fail(hid_t where, std::string_view what);

/// `id` when it is valid, else fail(where, what).
hid_t check_id(hid_t id, hid_t where, std::string_view what);
/// Nothing when `rc` >= 0, else fail(where, what).
void check(herr_t rc, hid_t where, std::string_view what);

/// "<file>: <path>" of an object, for messages.
std::string describe(hid_t id);

/// The in-memory (native) and in-file (little-endian) HDF5 types of an element type.
hid_t native_type(ElementType type);
hid_t file_type(ElementType type);
/// The ElementType of a stored datatype, or nullopt when it is none of ours.
std::optional<ElementType> element_type_of(hid_t type);
/// A description of any stored datatype for messages ("string", "float32", "compound").
std::string describe_type(hid_t type);

/// A variable-length UTF-8 string type.
H5Handle vl_string_type();
/// A dataset transfer property list with collective MPI-IO for a file of `comm`'s ranks (the
/// default one for a one-rank file, which uses the POSIX driver).
H5Handle collective_transfer(const Communicator& comm);

/// hsize_t is unsigned long long, std::uint64_t unsigned long: same bits, distinct types.
inline std::vector<hsize_t> to_hsize(const std::vector<std::uint64_t>& v) {
  return {v.begin(), v.end()};
}

/// Whether `comm` has more than one rank (broadcasts are skipped otherwise).
bool shared(const Communicator& comm);

/// Makes `values` root's on every rank (a no-op on one rank). T is trivially copyable.
template <class T>
void broadcast_values(const Communicator& comm, std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (!shared(comm)) return;
  std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  comm.broadcast(bytes, 0);
  values.resize(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
}

/// Runs `write` on root only (independent I/O into storage that is already allocated, so no
/// metadata changes) and makes its outcome collective: when it throws H5Error or
/// InvariantError on root, every rank throws the same with root's message, so that no rank
/// goes on alone into the next collective call.
void write_on_root(const Communicator& comm, const std::function<void()>& write);

/// Makes `text` root's on every rank.
void broadcast_text(const Communicator& comm, std::string& text);
/// Makes `texts` root's on every rank.
void broadcast_texts(const Communicator& comm, std::vector<std::string>& texts);

}  // namespace wormnet::io::detail
