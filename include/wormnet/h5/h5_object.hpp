// What groups and datasets have in common: a place in a file, and attributes.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wormnet/h5/h5_handle.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io {

/// The attribute value types: string, int64, uint64, float64, and 1-D arrays of int64,
/// float64 and strings. Strings are stored as variable-length UTF-8 (h5py reads them as str).
template <class T>
concept AttributeValue = std::same_as<T, std::string> || std::same_as<T, std::int64_t> ||
    std::same_as<T, std::uint64_t> || std::same_as<T, double> ||
    std::same_as<T, std::vector<std::int64_t>> || std::same_as<T, std::vector<double>> ||
    std::same_as<T, std::vector<std::string>>;

/// An open group or dataset of an H5File, with its attributes.
///
/// Collective rule of the whole h5 layer: every call that changes the file (creating
/// objects, writing attributes or data, resizing, flushing, closing) is collective over the
/// file's Communicator, so every rank makes the same calls in the same order, and where a
/// value is passed, ROOT's value is written (it is broadcast first; the other ranks' values
/// are ignored). Calls that only read (attribute(), has_attribute(), H5DataSet::read(), ...)
/// may be made by any subset of ranks, unless documented as collective. Reads are not
/// ordered with other ranks' writes: a rank reading data that another rank may be changing
/// in the same file synchronizes first (Communicator::barrier()).
///
/// An attribute is small metadata: keep arrays under a few thousand elements (the object
/// header of the 1.8-compatible format holds at most 64 KiB of them); larger data belong in
/// a dataset.
class H5Object {
 public:
  /// This object's absolute path inside its file ("/" for the root group).
  [[nodiscard]] std::string path() const;
  /// The file name as it was opened.
  [[nodiscard]] std::string file_name() const;
  [[nodiscard]] const Communicator& communicator() const { return comm_; }
  /// The raw hid_t, for the h5 layer's implementation only.
  [[nodiscard]] std::int64_t native_id() const { return handle_.id(); }

  [[nodiscard]] bool has_attribute(std::string_view name) const;
  /// Attribute names in alphabetical order.
  [[nodiscard]] std::vector<std::string> attribute_names() const;

  /// Creates or replaces attribute `name` (a different type or length replaces it).
  /// Collective; root's value is written.
  void set_attribute(std::string_view name, std::string_view value) const;
  void set_attribute(std::string_view name, std::int64_t value) const;
  void set_attribute(std::string_view name, std::uint64_t value) const;
  void set_attribute(std::string_view name, double value) const;
  void set_attribute(std::string_view name, std::span<const std::int64_t> values) const;
  void set_attribute(std::string_view name, std::span<const double> values) const;
  void set_attribute(std::string_view name, std::span<const std::string> values) const;
  /// Other integers are stored as int64 (signed) or uint64 (unsigned).
  template <std::integral I>
  requires(!std::same_as<I, bool> && !std::same_as<I, std::int64_t> &&
           !std::same_as<I, std::uint64_t>) void set_attribute(std::string_view name,
                                                               I value) const {
    if constexpr (std::is_signed_v<I>) {
      set_attribute(name, static_cast<std::int64_t>(value));
    } else {
      set_attribute(name, static_cast<std::uint64_t>(value));
    }
  }

  /// Reads attribute `name` as T. Throws H5Error when it is missing or stored as another
  /// type (no silent conversion: an int64 is not read as a uint64 or a double, a scalar is
  /// not read as an array). Fixed-length strings written by other tools read as strings.
  template <AttributeValue T>
  [[nodiscard]] T attribute(std::string_view name) const;

  /// Creates or replaces attribute `name` as a fixed-length UTF-8 string of at least
  /// `min_size` bytes (NUL-padded; a status padded to one size is rewritten in place).
  /// Collective; root's value is written. wormnet's own input formats (checkpoints, routing
  /// tables) store their strings so: reading them never touches HDF5's global heap, whose
  /// reads HDF5 1.10 does not bound (a damaged variable-length string crashed the reader
  /// inside HDF5).
  void set_fixed_string_attribute(std::string_view name, std::string_view value,
                                  std::size_t min_size = 0) const;
  /// Reads a scalar fixed-length string attribute. H5Error, with nothing read, when `name`
  /// holds anything else (a variable-length string included) or more than 1 MiB.
  [[nodiscard]] std::string fixed_string_attribute(std::string_view name) const;

  /// Deletes attribute `name` (collective); H5Error when it does not exist.
  void remove_attribute(std::string_view name) const;

 protected:
  H5Object(H5Handle handle, Communicator comm);
  ~H5Object() = default;
  H5Object(const H5Object&) = default;
  H5Object& operator=(const H5Object&) = default;
  H5Object(H5Object&&) noexcept = default;
  H5Object& operator=(H5Object&&) noexcept = default;

 private:
  H5Handle handle_;
  Communicator comm_;
};

}  // namespace wormnet::io
