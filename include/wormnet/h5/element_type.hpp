// The element types wormnet stores in HDF5 datasets, and the C++ types that map onto them.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace wormnet::io {

/// A dataset element type. Files always hold the little-endian IEEE / two's-complement form,
/// whatever the host, so a file written on one machine reads the same on any other.
enum class ElementType : std::uint8_t { kFloat64, kInt64, kUInt64, kInt32, kUInt32, kUInt8 };

/// The C++ types a dataset may be read into or written from (exactly these: a stored int32 is
/// not silently widened into an int64 buffer; ask H5DataSet::element_type() first).
template <class T>
concept H5Element = std::same_as<T, double> || std::same_as<T, std::int64_t> ||
    std::same_as<T, std::uint64_t> || std::same_as<T, std::int32_t> ||
    std::same_as<T, std::uint32_t> || std::same_as<T, std::uint8_t>;

/// The ElementType of a C++ element type.
template <H5Element T>
constexpr ElementType element_type_of() {
  if constexpr (std::same_as<T, double>) return ElementType::kFloat64;
  if constexpr (std::same_as<T, std::int64_t>) return ElementType::kInt64;
  if constexpr (std::same_as<T, std::uint64_t>) return ElementType::kUInt64;
  if constexpr (std::same_as<T, std::int32_t>) return ElementType::kInt32;
  if constexpr (std::same_as<T, std::uint32_t>) return ElementType::kUInt32;
  if constexpr (std::same_as<T, std::uint8_t>) return ElementType::kUInt8;
}

/// numpy's name of the type ("float64", "int64", ...), so messages read as h5py users expect.
constexpr std::string_view to_string(ElementType type) {
  switch (type) {
    case ElementType::kFloat64:
      return "float64";
    case ElementType::kInt64:
      return "int64";
    case ElementType::kUInt64:
      return "uint64";
    case ElementType::kInt32:
      return "int32";
    case ElementType::kUInt32:
      return "uint32";
    case ElementType::kUInt8:
      return "uint8";
  }
  return "unknown";
}

/// Bytes per element.
constexpr std::size_t element_size(ElementType type) {
  switch (type) {
    case ElementType::kFloat64:
    case ElementType::kInt64:
    case ElementType::kUInt64:
      return 8;
    case ElementType::kInt32:
    case ElementType::kUInt32:
      return 4;
    case ElementType::kUInt8:
      return 1;
  }
  return 0;
}

}  // namespace wormnet::io
