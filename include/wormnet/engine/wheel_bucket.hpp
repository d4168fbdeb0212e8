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
  /// Bytes held: room for the most items it has ever held at once, plus at most a quarter
  /// (or 4 items) more.
  [[nodiscard]] std::size_t bytes() const { return items_.capacity() * sizeof(T); }

 private:
  /// Adds a quarter to the room (at least 4 items): rare, once the busiest cycle has been
  /// seen. A bucket keeps its room for the next time its slot of the wheel comes round, so
  /// what it holds is its busiest cycle's items rounded up by its growth: grown by doubling
  /// from 16 items, that was 1.44 times the items on average and up to 2 times, which made
  /// the wheel's buckets and the prefetch plan's the most of what a large rank's model grows
  /// by during a run (issue 42's 600 bytes per router). Reserved exactly: std::vector's own
  /// growth (resize past the capacity) would double it. The copies are a few more, all in
  /// the run's first cycles.
  [[gnu::noinline]] void grow() {
    const std::size_t room = items_.size() + std::max<std::size_t>(4, items_.size() / 4);
    items_.reserve(room);
    items_.resize(room);
    capacity_ = static_cast<std::uint32_t>(room);
  }

  std::vector<T> items_;
  std::uint32_t size_ = 0;      ///< items in the bucket
  std::uint32_t capacity_ = 0;  ///< items_.size(), as a count (no pointer arithmetic)
};

}  // namespace wormnet
