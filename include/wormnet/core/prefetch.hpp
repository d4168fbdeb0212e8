// Cache hints that the compiler keeps, or none at all in a build configured with
// WORMNET_PREFETCH_HINTS=OFF (kPrefetchHints false: every function here is empty).
#pragma once

#ifndef WORMNET_PREFETCH_HINTS
#define WORMNET_PREFETCH_HINTS 1
#endif

namespace wormnet {

/// Whether this build asks for cache lines ahead of use (the CMake option
/// WORMNET_PREFETCH_HINTS). A hint changes no value: results are the same either way.
inline constexpr bool kPrefetchHints = WORMNET_PREFETCH_HINTS != 0;

/// Asks the processor for the cache line holding `p`, to read it (prefetch) or to write it
/// (prefetch_for_write: prefetchw where the target has it, as with WORMNET_NATIVE; the
/// default x86-64 build issues prefetcht0 for both). A hint: no effect on any value.
///
/// Not __builtin_prefetch alone: GCC takes it for a call without side effects, so a function
/// whose only statements are hints is "pure", and a call to it that function splitting moved
/// out of line is dead code (a hint in the source but not in the binary: docs/scaling.md,
/// "Measured figures behind the engine's rules"). The empty asm statement below, which the
/// compiler must keep, gives every function that hints a side effect.
[[gnu::always_inline]] inline void prefetch(const void* p) {
  if constexpr (kPrefetchHints) {
    __builtin_prefetch(p, 0, 3);
    asm volatile("" : : "r"(p));
  } else {
    (void)p;
  }
}
[[gnu::always_inline]] inline void prefetch_for_write(const void* p) {
  if constexpr (kPrefetchHints) {
    __builtin_prefetch(p, 1, 3);
    asm volatile("" : : "r"(p));
  } else {
    (void)p;
  }
}

}  // namespace wormnet
