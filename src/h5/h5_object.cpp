#include "wormnet/h5/h5_object.hpp"

#include <algorithm>
#include <utility>

#include "h5_api.hpp"
#include "wormnet/h5/h5_error.hpp"

namespace wormnet::io {

namespace {

using detail::check;
using detail::check_id;
using detail::fail;

/// What an attribute holds: scalar, or a 1-D array of `count` elements.
struct Extent {
  bool scalar = true;
  hsize_t count = 1;
};

Extent extent_of(hid_t space) {
  switch (H5Sget_simple_extent_type(space)) {
    case H5S_SCALAR:
      return {true, 1};
    case H5S_NULL:
      return {false, 0};
    default:
      break;
  }
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank != 1) return {false, static_cast<hsize_t>(H5Sget_simple_extent_npoints(space))};
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space, &n, nullptr);
  return {false, n};
}

H5Handle make_space(const Extent& e) {
  if (e.scalar) return H5Handle(check_id(H5Screate(H5S_SCALAR), -1, "cannot create dataspace"));
  const hsize_t n = e.count;
  return H5Handle(check_id(H5Screate_simple(1, &n, nullptr), -1, "cannot create dataspace"));
}

std::string quoted(std::string_view name) {
  return "attribute '" + std::string(name) + "'";
}

/// Creates attribute `name` on `obj`, or reuses it when it has the same type and extent
/// (so that rewriting e.g. "status" does not grow the object header), then writes `buf`.
void write_attribute(hid_t obj, std::string_view name, hid_t stored_type, hid_t memory_type,
                     const Extent& extent, const void* buf) {
  const std::string n(name);
  const htri_t exists = H5Aexists(obj, n.c_str());
  check(exists, obj, "cannot look up " + quoted(name));
  H5Handle space = make_space(extent);
  if (exists > 0) {
    H5Handle old(
        check_id(H5Aopen(obj, n.c_str(), H5P_DEFAULT), obj, "cannot open " + quoted(name)));
    H5Handle old_type(check_id(H5Aget_type(old.id()), obj, "cannot read type of " + quoted(name)));
    H5Handle old_space(
        check_id(H5Aget_space(old.id()), obj, "cannot read extent of " + quoted(name)));
    const Extent e = extent_of(old_space.id());
    if (H5Tequal(old_type.id(), stored_type) > 0 && e.scalar == extent.scalar &&
        e.count == extent.count) {
      check(H5Awrite(old.id(), memory_type, buf), obj, "cannot write " + quoted(name));
      return;
    }
    old.reset();
    check(H5Adelete(obj, n.c_str()), obj, "cannot replace " + quoted(name));
  }
  H5Handle attr(
      check_id(H5Acreate2(obj, n.c_str(), stored_type, space.id(), H5P_DEFAULT, H5P_DEFAULT), obj,
               "cannot create " + quoted(name)));
  check(H5Awrite(attr.id(), memory_type, buf), obj, "cannot write " + quoted(name));
}

void write_strings(hid_t obj, std::string_view name, const std::vector<std::string>& values,
                   bool scalar) {
  const H5Handle type = detail::vl_string_type();
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const std::string& v : values) pointers.push_back(v.c_str());
  const char* none = "";
  write_attribute(obj, name, type.id(), type.id(), Extent{scalar, values.size()},
                  pointers.empty() ? static_cast<const void*>(&none) : pointers.data());
}

/// An open attribute with its type and extent, for reading.
struct OpenAttribute {
  H5Handle attr;
  H5Handle type;
  Extent extent;
};

OpenAttribute open_attribute(hid_t obj, std::string_view name) {
  const std::string n(name);
  const htri_t exists = H5Aexists(obj, n.c_str());
  check(exists, obj, "cannot look up " + quoted(name));
  if (exists == 0) fail(obj, quoted(name) + " is missing");
  OpenAttribute a;
  a.attr =
      H5Handle(check_id(H5Aopen(obj, n.c_str(), H5P_DEFAULT), obj, "cannot open " + quoted(name)));
  a.type = H5Handle(check_id(H5Aget_type(a.attr.id()), obj, "cannot read type of " + quoted(name)));
  H5Handle space(check_id(H5Aget_space(a.attr.id()), obj, "cannot read extent of " + quoted(name)));
  a.extent = extent_of(space.id());
  return a;
}

[[noreturn]] void wrong_type(hid_t obj, std::string_view name, const OpenAttribute& a,
                             std::string_view wanted) {
  std::string stored = detail::describe_type(a.type.id());
  if (!a.extent.scalar) stored += " array of " + std::to_string(a.extent.count);
  fail(obj, quoted(name) + " holds " + stored + ", not " + std::string(wanted));
}

std::vector<std::string> read_strings(hid_t obj, std::string_view name, const OpenAttribute& a) {
  const hid_t attr = a.attr.id();
  const std::size_t n = a.extent.count;
  std::vector<std::string> out;
  if (n == 0) return out;
  const htri_t variable = H5Tis_variable_str(a.type.id());
  check(variable, obj, "cannot inspect " + quoted(name));
  if (variable > 0) {
    std::vector<char*> pointers(n, nullptr);
    H5Handle space(check_id(H5Aget_space(attr), obj, "cannot read extent of " + quoted(name)));
    check(H5Aread(attr, a.type.id(), pointers.data()), obj, "cannot read " + quoted(name));
    for (char* p : pointers) out.emplace_back(p != nullptr ? p : "");
    H5Dvlen_reclaim(a.type.id(), space.id(), H5P_DEFAULT, pointers.data());
    return out;
  }
  // Fixed-length strings (numpy's bytes): n slots of `size` bytes, NUL- or space-padded.
  const std::size_t size = H5Tget_size(a.type.id());
  std::vector<char> buf(n * size);
  check(H5Aread(attr, a.type.id(), buf.data()), obj, "cannot read " + quoted(name));
  const bool space_padded = H5Tget_strpad(a.type.id()) == H5T_STR_SPACEPAD;
  for (std::size_t i = 0; i < n; ++i) {
    std::string s(buf.data() + i * size, size);
    const std::size_t end = s.find('\0');
    if (end != std::string::npos) s.resize(end);
    if (space_padded) s.erase(s.find_last_not_of(' ') + 1);
    out.push_back(std::move(s));
  }
  return out;
}

template <class T>
T read_scalar(hid_t obj, std::string_view name, ElementType type) {
  const OpenAttribute a = open_attribute(obj, name);
  if (detail::element_type_of(a.type.id()) != type || !a.extent.scalar) {
    wrong_type(obj, name, a, to_string(type));
  }
  T value{};
  check(H5Aread(a.attr.id(), detail::native_type(type), &value), obj,
        "cannot read " + quoted(name));
  return value;
}

template <class T>
std::vector<T> read_array(hid_t obj, std::string_view name, ElementType type) {
  const OpenAttribute a = open_attribute(obj, name);
  if (detail::element_type_of(a.type.id()) != type || a.extent.scalar) {
    wrong_type(obj, name, a, std::string(to_string(type)) + " array");
  }
  std::vector<T> values(a.extent.count);
  if (!values.empty()) {
    check(H5Aread(a.attr.id(), detail::native_type(type), values.data()), obj,
          "cannot read " + quoted(name));
  }
  return values;
}

herr_t collect_name(hid_t /*obj*/, const char* name, const H5A_info_t* /*info*/, void* client) {
  static_cast<std::vector<std::string>*>(client)->emplace_back(name);
  return 0;
}

}  // namespace

H5Object::H5Object(H5Handle handle, Communicator comm)
    : handle_(std::move(handle)), comm_(std::move(comm)) {}

std::string H5Object::path() const {
  const ssize_t len = H5Iget_name(native_id(), nullptr, 0);
  if (len <= 0) return "";
  std::vector<char> buf(static_cast<std::size_t>(len) + 1);
  H5Iget_name(native_id(), buf.data(), buf.size());
  return std::string(buf.data());
}

std::string H5Object::file_name() const {
  const ssize_t len = H5Fget_name(native_id(), nullptr, 0);
  if (len <= 0) return "";
  std::vector<char> buf(static_cast<std::size_t>(len) + 1);
  H5Fget_name(native_id(), buf.data(), buf.size());
  return std::string(buf.data());
}

bool H5Object::has_attribute(std::string_view name) const {
  const std::string n(name);
  const htri_t exists = H5Aexists(native_id(), n.c_str());
  check(exists, native_id(), "cannot look up " + quoted(name));
  return exists > 0;
}

std::vector<std::string> H5Object::attribute_names() const {
  std::vector<std::string> names;
  hsize_t index = 0;
  check(H5Aiterate2(native_id(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_name, &names),
        native_id(), "cannot list attributes");
  return names;
}

void H5Object::set_attribute(std::string_view name, std::string_view value) const {
  std::vector<std::string> v{std::string(value)};
  detail::broadcast_texts(comm_, v);
  write_strings(native_id(), name, v, true);
}

void H5Object::set_attribute(std::string_view name, std::int64_t value) const {
  std::vector<std::int64_t> v{value};
  detail::broadcast_values(comm_, v);
  write_attribute(native_id(), name, detail::file_type(ElementType::kInt64),
                  detail::native_type(ElementType::kInt64), Extent{}, v.data());
}

void H5Object::set_attribute(std::string_view name, std::uint64_t value) const {
  std::vector<std::uint64_t> v{value};
  detail::broadcast_values(comm_, v);
  write_attribute(native_id(), name, detail::file_type(ElementType::kUInt64),
                  detail::native_type(ElementType::kUInt64), Extent{}, v.data());
}

void H5Object::set_attribute(std::string_view name, double value) const {
  std::vector<double> v{value};
  detail::broadcast_values(comm_, v);
  write_attribute(native_id(), name, detail::file_type(ElementType::kFloat64),
                  detail::native_type(ElementType::kFloat64), Extent{}, v.data());
}

void H5Object::set_attribute(std::string_view name, std::span<const std::int64_t> values) const {
  std::vector<std::int64_t> v(values.begin(), values.end());
  detail::broadcast_values(comm_, v);
  const std::int64_t none = 0;
  write_attribute(native_id(), name, detail::file_type(ElementType::kInt64),
                  detail::native_type(ElementType::kInt64), Extent{false, v.size()},
                  v.empty() ? &none : v.data());
}

void H5Object::set_attribute(std::string_view name, std::span<const double> values) const {
  std::vector<double> v(values.begin(), values.end());
  detail::broadcast_values(comm_, v);
  const double none = 0;
  write_attribute(native_id(), name, detail::file_type(ElementType::kFloat64),
                  detail::native_type(ElementType::kFloat64), Extent{false, v.size()},
                  v.empty() ? &none : v.data());
}

void H5Object::set_attribute(std::string_view name, std::span<const std::string> values) const {
  std::vector<std::string> v(values.begin(), values.end());
  detail::broadcast_texts(comm_, v);
  write_strings(native_id(), name, v, false);
}

void H5Object::set_fixed_string_attribute(std::string_view name, std::string_view value,
                                          std::size_t min_size) const {
  std::vector<std::string> v{std::string(value)};
  detail::broadcast_texts(comm_, v);
  const std::size_t size = std::max(v.front().size() + 1, min_size);
  H5Handle type(check_id(H5Tcopy(H5T_C_S1), native_id(), "cannot copy the string type"));
  check(H5Tset_size(type.id(), size), native_id(), "cannot size a string type");
  check(H5Tset_strpad(type.id(), H5T_STR_NULLPAD), native_id(), "cannot pad a string type");
  check(H5Tset_cset(type.id(), H5T_CSET_UTF8), native_id(), "cannot make a UTF-8 string type");
  std::vector<char> buf(size, '\0');
  std::copy(v.front().begin(), v.front().end(), buf.begin());
  write_attribute(native_id(), name, type.id(), type.id(), Extent{}, buf.data());
}

std::string H5Object::fixed_string_attribute(std::string_view name) const {
  constexpr std::size_t kMaxBytes = std::size_t{1} << 20;
  const hid_t obj = native_id();
  const OpenAttribute a = open_attribute(obj, name);
  if (H5Tget_class(a.type.id()) != H5T_STRING || H5Tis_variable_str(a.type.id()) != 0 ||
      !a.extent.scalar) {
    wrong_type(obj, name, a, "fixed-length string");
  }
  if (H5Tget_size(a.type.id()) > kMaxBytes) {
    fail(obj, quoted(name) + " is a string of more than 1 MiB");
  }
  return read_strings(obj, name, a).front();
}

template <AttributeValue T>
T H5Object::attribute(std::string_view name) const {
  const hid_t obj = native_id();
  if constexpr (std::same_as<T, std::string> || std::same_as<T, std::vector<std::string>>) {
    constexpr bool kScalar = std::same_as<T, std::string>;
    const OpenAttribute a = open_attribute(obj, name);
    if (H5Tget_class(a.type.id()) != H5T_STRING || a.extent.scalar != kScalar) {
      wrong_type(obj, name, a, kScalar ? "string" : "string array");
    }
    std::vector<std::string> values = read_strings(obj, name, a);
    if constexpr (kScalar) {
      return values.front();
    } else {
      return values;
    }
  } else if constexpr (std::same_as<T, std::vector<std::int64_t>>) {
    return read_array<std::int64_t>(obj, name, ElementType::kInt64);
  } else if constexpr (std::same_as<T, std::vector<double>>) {
    return read_array<double>(obj, name, ElementType::kFloat64);
  } else {
    return read_scalar<T>(obj, name, element_type_of<T>());
  }
}

template std::string H5Object::attribute<std::string>(std::string_view) const;
template std::vector<std::string> H5Object::attribute<std::vector<std::string>>(
    std::string_view) const;
template std::int64_t H5Object::attribute<std::int64_t>(std::string_view) const;
template std::uint64_t H5Object::attribute<std::uint64_t>(std::string_view) const;
template double H5Object::attribute<double>(std::string_view) const;
template std::vector<std::int64_t> H5Object::attribute<std::vector<std::int64_t>>(
    std::string_view) const;
template std::vector<double> H5Object::attribute<std::vector<double>>(std::string_view) const;

void H5Object::remove_attribute(std::string_view name) const {
  if (!has_attribute(name)) fail(native_id(), quoted(name) + " is missing");
  const std::string n(name);
  check(H5Adelete(native_id(), n.c_str()), native_id(), "cannot delete " + quoted(name));
}

}  // namespace wormnet::io
