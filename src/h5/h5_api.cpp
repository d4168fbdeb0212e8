#include "h5_api.hpp"

#include <vector>

#include "file_names.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_error.hpp"

namespace wormnet::io::detail {

namespace {

struct ErrorEntry {
  std::string desc;
  hid_t minor = -1;
};

herr_t collect_error(unsigned /*n*/, const H5E_error2_t* entry, void* client) {
  auto* out = static_cast<std::vector<ErrorEntry>*>(client);
  out->push_back({entry->desc != nullptr ? entry->desc : "", entry->min_num});
  return 0;
}

std::vector<ErrorEntry> error_stack() {
  std::vector<ErrorEntry> entries;
  // Walking downward lists the API call first and the innermost cause last.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_error, &entries);
  return entries;
}

std::string single_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

/// The operating system's message quoted in an HDF5 diagnostic: the POSIX (sec2) driver
/// writes "..., errno = 28, error message = 'No space left on device', ...".
std::string quoted_system_message(const std::string& desc) {
  const std::string key = "error message = '";
  const std::size_t at = desc.find(key);
  if (at == std::string::npos) return "";
  const std::size_t begin = at + key.size();
  const std::size_t end = desc.find('\'', begin);
  return end == std::string::npos ? "" : desc.substr(begin, end - begin);
}

/// The system's message anywhere on the stack (innermost first), or "".
std::string stack_system_message(const std::vector<ErrorEntry>& entries) {
  for (auto e = entries.rbegin(); e != entries.rend(); ++e) {
    std::string m = quoted_system_message(e->desc);
    if (!m.empty()) return m;
  }
  return "";
}

}  // namespace

void silence_hdf5_errors() {
  H5open();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

std::string error_detail() {
  const std::vector<ErrorEntry> entries = error_stack();
  if (entries.empty()) return "";
  // The system's reason, when there is one, says it all ("Permission denied"); the POSIX
  // driver's full diagnostic adds times, addresses and flags.
  const std::string system = stack_system_message(entries);
  return system.empty() ? single_line(entries.back().desc) : system;
}

std::string system_error_detail() {
  return stack_system_message(error_stack());
}

bool innermost_error_is(hid_t minor) {
  const std::vector<ErrorEntry> entries = error_stack();
  return !entries.empty() && entries.back().minor == minor;
}

std::string describe(hid_t id) {
  if (id < 0) return "(no object)";
  std::string file = "(unknown file)";
  const ssize_t file_len = H5Fget_name(id, nullptr, 0);
  if (file_len > 0) {
    std::vector<char> buf(static_cast<std::size_t>(file_len) + 1);
    H5Fget_name(id, buf.data(), buf.size());
    file.assign(buf.data());
  }
  if (H5Iget_type(id) == H5I_FILE) return file;
  std::string path = "(anonymous object)";
  const ssize_t path_len = H5Iget_name(id, nullptr, 0);
  if (path_len > 0) {
    std::vector<char> buf(static_cast<std::size_t>(path_len) + 1);
    H5Iget_name(id, buf.data(), buf.size());
    path.assign(buf.data());
  }
  return file + ": " + path;
}

void fail(hid_t where, std::string_view what) {
  // Read the stack before any other HDF5 call clears it.
  const std::string detail = error_detail();
  const std::string system = system_error_detail();
  std::string message = describe(where) + ": " + std::string(what);
  if (!detail.empty()) message += " (HDF5: " + detail + ")";
  H5Eclear2(H5E_DEFAULT);
  throw H5Error(message, system);
}

hid_t check_id(hid_t id, hid_t where, std::string_view what) {
  if (id < 0) fail(where, what);
  return id;
}

void check(herr_t rc, hid_t where, std::string_view what) {
  if (rc < 0) fail(where, what);
}

hid_t native_type(ElementType type) {
  switch (type) {
    case ElementType::kFloat64:
      return H5T_NATIVE_DOUBLE;
    case ElementType::kInt64:
      return H5T_NATIVE_INT64;
    case ElementType::kUInt64:
      return H5T_NATIVE_UINT64;
    case ElementType::kInt32:
      return H5T_NATIVE_INT32;
    case ElementType::kUInt32:
      return H5T_NATIVE_UINT32;
    case ElementType::kUInt8:
      return H5T_NATIVE_UINT8;
  }
  return H5I_INVALID_HID;
}

hid_t file_type(ElementType type) {
  switch (type) {
    case ElementType::kFloat64:
      return H5T_IEEE_F64LE;
    case ElementType::kInt64:
      return H5T_STD_I64LE;
    case ElementType::kUInt64:
      return H5T_STD_U64LE;
    case ElementType::kInt32:
      return H5T_STD_I32LE;
    case ElementType::kUInt32:
      return H5T_STD_U32LE;
    case ElementType::kUInt8:
      return H5T_STD_U8LE;
  }
  return H5I_INVALID_HID;
}

std::optional<ElementType> element_type_of(hid_t type) {
  const std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_FLOAT:
      if (size == 8) return ElementType::kFloat64;
      return std::nullopt;
    case H5T_INTEGER: {
      const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
      if (size == 8) return is_signed ? ElementType::kInt64 : ElementType::kUInt64;
      if (size == 4) return is_signed ? ElementType::kInt32 : ElementType::kUInt32;
      if (size == 1 && !is_signed) return ElementType::kUInt8;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::string describe_type(hid_t type) {
  const std::size_t bits = 8 * H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return (H5Tget_sign(type) == H5T_SGN_2 ? "int" : "uint") + std::to_string(bits);
    case H5T_FLOAT:
      return "float" + std::to_string(bits);
    case H5T_STRING:
      return "string";
    case H5T_COMPOUND:
      return "compound";
    case H5T_ENUM:
      return "enum";
    case H5T_ARRAY:
      return "array type";
    case H5T_VLEN:
      return "variable-length sequence";
    default:
      return "unsupported type";
  }
}

H5Handle vl_string_type() {
  H5Handle type(check_id(H5Tcopy(H5T_C_S1), -1, "cannot copy the string type"));
  check(H5Tset_size(type.id(), H5T_VARIABLE), -1, "cannot make a variable-length string type");
  check(H5Tset_cset(type.id(), H5T_CSET_UTF8), -1, "cannot make a UTF-8 string type");
  return type;
}

H5Handle collective_transfer(const Communicator& comm) {
  H5Handle dxpl(check_id(H5Pcreate(H5P_DATASET_XFER), -1, "cannot create a transfer list"));
  if (!uses_mpi_io(comm.size())) return dxpl;  // the POSIX driver of one rank
  check(H5Pset_dxpl_mpio(dxpl.id(), H5FD_MPIO_COLLECTIVE), -1, "cannot ask for collective I/O");
  return dxpl;
}

bool shared(const Communicator& comm) {
  return comm.size() > 1;
}

void write_on_root(const Communicator& comm, const std::function<void()>& write) {
  // Root's failure, as (kind, message): kind 1 = H5Error, 2 = InvariantError.
  std::vector<std::uint64_t> kind{0};
  std::string error;
  if (comm.is_root()) {
    try {
      write();
    } catch (const H5Error& e) {
      kind[0] = 1;
      error = e.what();
    } catch (const InvariantError& e) {
      kind[0] = 2;
      error = e.what();
    }
  }
  if (shared(comm) && comm.any(kind[0] != 0)) {
    broadcast_values(comm, kind);
    broadcast_text(comm, error);
  }
  if (kind[0] == 1) throw H5Error(error);
  if (kind[0] == 2) throw InvariantError(error);
}

void broadcast_text(const Communicator& comm, std::string& text) {
  if (shared(comm)) comm.broadcast(text, 0);
}

void broadcast_texts(const Communicator& comm, std::vector<std::string>& texts) {
  if (!shared(comm)) return;
  // Lengths first, then the concatenation.
  std::vector<std::uint64_t> lengths;
  std::string joined;
  for (const std::string& t : texts) {
    lengths.push_back(t.size());
    joined += t;
  }
  broadcast_values(comm, lengths);
  comm.broadcast(joined, 0);
  texts.clear();
  std::size_t at = 0;
  for (const std::uint64_t n : lengths) {
    texts.push_back(joined.substr(at, n));
    at += n;
  }
}

}  // namespace wormnet::io::detail
