#include "wormnet/h5/h5_handle.hpp"

#include "h5_api.hpp"

namespace wormnet::io {

H5Handle::H5Handle(const H5Handle& other) : id_(other.id_) {
  if (id_ >= 0) H5Iinc_ref(id_);
}

H5Handle& H5Handle::operator=(const H5Handle& other) {
  if (this != &other) {
    if (other.id_ >= 0) H5Iinc_ref(other.id_);
    reset();
    id_ = other.id_;
  }
  return *this;
}

H5Handle& H5Handle::operator=(H5Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    other.id_ = kInvalid;
  }
  return *this;
}

H5Handle::~H5Handle() {
  reset();
}

void H5Handle::reset() {
  // Predefined types (H5T_NATIVE_*) are not reference counted by us: only release ids that
  // the HDF5 library reports as valid.
  if (id_ >= 0 && H5Iis_valid(id_) > 0) H5Idec_ref(id_);
  id_ = kInvalid;
}

std::int64_t H5Handle::release() {
  const std::int64_t id = id_;
  id_ = kInvalid;
  return id;
}

}  // namespace wormnet::io
