// An allocator for the large per-router arrays of a rank. With a million routers a rank's
// state is hundreds of MB spread over a dozen arrays, and one router step touches a line in
// most of them: with 4 KiB pages nearly every such load also misses the TLB (issue 14,
// target 2: docs/scaling-history.md has the figures, and the first touch's price on a virtual
// machine). Blocks of 2 MiB or more are therefore 2 MiB-aligned and advised for transparent huge
// pages (Linux's default "madvise" mode honours only advised ranges); smaller blocks, and systems
// without the advice, get ordinary memory. Stateless: every instance is interchangeable.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace wormnet {

/// Size and alignment of a huge page (bytes): x86-64's and AArch64's usual 2 MiB.
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>& /*other*/) noexcept {}

  [[nodiscard]] T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return std::allocator<T>{}.allocate(n);
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p == nullptr) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    // Only advice: if the kernel has no huge pages to give, the memory is ordinary.
    (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage) {
      std::allocator<T>{}.deallocate(p, n);
    } else {
      std::free(p);
    }
  }

  template <class U>
  friend bool operator==(const HugePageAllocator& /*a*/, const HugePageAllocator<U>& /*b*/) {
    return true;
  }
};

/// A vector whose storage, once 2 MiB or larger, lies on transparent huge pages.
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace wormnet
