// The huge-page allocator: blocks of 2 MiB or more start on a 2 MiB boundary (so a
// transparent huge page can back them), smaller blocks are ordinary, and a vector using it
// keeps every element through growth and copies.
#include "wormnet/core/huge_page_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace wormnet {
namespace {

TEST(HugePageAllocator, LargeBlocksAreAlignedToAHugePage) {
  HugePageAllocator<std::uint64_t> a;
  const std::size_t n = kHugePage / sizeof(std::uint64_t) * 3 + 5;  // 3 huge pages and a bit
  std::uint64_t* p = a.allocate(n);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHugePage, 0U);
  p[0] = 1;
  p[n - 1] = 2;  // the whole block is writable, its last element too
  EXPECT_EQ(p[0] + p[n - 1], 3U);
  a.deallocate(p, n);
}

TEST(HugePageAllocator, SmallBlocksAreOrdinaryAndUsable) {
  HugePageAllocator<std::uint32_t> a;
  std::uint32_t* p = a.allocate(10);
  for (std::uint32_t i = 0; i < 10; ++i) p[i] = i;
  EXPECT_EQ(std::accumulate(p, p + 10, 0U), 45U);
  a.deallocate(p, 10);
}

TEST(HugePageAllocator, VectorKeepsItsElementsAcrossTheThreshold) {
  HugeVector<std::uint32_t> v;
  const std::uint32_t n = 3 * static_cast<std::uint32_t>(kHugePage / sizeof(std::uint32_t));
  for (std::uint32_t i = 0; i < n; ++i) v.push_back(i);  // grows from small to huge blocks
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePage, 0U);
  const HugeVector<std::uint32_t> copy = v;
  std::uint64_t sum = 0;
  for (std::uint32_t x : copy) sum += x;
  EXPECT_EQ(sum, std::uint64_t{n} * (n - 1) / 2);
  EXPECT_EQ(copy[n - 1], n - 1);
}

}  // namespace
}  // namespace wormnet
