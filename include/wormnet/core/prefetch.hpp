// Cache hints that the compiler keeps.
#pragma once

namespace wormnet {

/// Asks the processor for the cache line holding `p`, to read it (prefetch) or to write it
/// (prefetch_for_write: prefetchw where the target has it, as with WORMNET_NATIVE; the
/// default x86-64 build issues prefetcht0 for both). A hint: no effect on any value.
///
/// Not __builtin_prefetch alone: GCC 12 takes it for a call without side effects, so a
/// function whose only statements are hints is "pure" and a call to it is dead code. When
/// function splitting moved the conditional tail of RankModel::prefetch_move() (the flit
/// counter's hint) into a function of its own, every call to that part was deleted: the hint
/// was in the source but not in the binary, and on a rank of half a million routers the
/// counter's increment then took a third of the router step's samples (docs/scaling.md,
/// 3 Dec 2026). The empty asm statement below, which the compiler must keep, gives every
/// function that hints a side effect. It costs nothing measurable where no hint was lost.
[[gnu::always_inline]] inline void prefetch(const void* p) {
  __builtin_prefetch(p, 0, 3);
  asm volatile("" : : "r"(p));
}
[[gnu::always_inline]] inline void prefetch_for_write(const void* p) {
  __builtin_prefetch(p, 1, 3);
  asm volatile("" : : "r"(p));
}

}  // namespace wormnet
