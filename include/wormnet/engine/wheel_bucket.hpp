// One bucket of the rank's arrival wheel (the flits or the credits due at one cycle): a
// vector that only grows, filled up to an integer count. Appending stores the item and a
// 32-bit count, never a vector's end pointer: to GCC's type-based alias analysis a pointer
// store may change other pointers in memory, so a push_back in the per-flit path made the
// rest of the router step reload vectors' data pointers (docs/scaling.md, "Measured figures
// behind the engine's rules").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wormnet {

template <class T>
class WheelBucket {
 public:
  void push_back(const T& x) {
    if (size_ == capacity_) grow();
    items_[size_++] = x;
  }
  void clear() { size_ = 0; }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] const T* begin() const { return items_.data(); }
  [[nodiscard]] const T* end() const { return items_.data() + size_; }
  /// Bytes held (the most items it has ever held at once, rounded up to a power of two).
  [[nodiscard]] std::size_t bytes() const { return items_.capacity() * sizeof(T); }

 private:
  /// Doubles the room (at least 16 items): rare, once the busiest cycle has been seen.
  [[gnu::noinline]] void grow() {
    items_.resize(std::max<std::size_t>(16, 2 * items_.size()));
    capacity_ = static_cast<std::uint32_t>(items_.size());
  }

  std::vector<T> items_;
  std::uint32_t size_ = 0;      ///< items in the bucket
  std::uint32_t capacity_ = 0;  ///< items_.size(), as a count (no pointer arithmetic)
};

}  // namespace wormnet
