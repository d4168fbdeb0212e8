// A value hidden from the optimizer, for arithmetic meant to run without a branch.
#pragma once

namespace wormnet {

/// `x`, unchanged, but the compiler can no longer see what it is: code computed from it stays
/// as written instead of being split into paths on its value. GCC turns a select whose one side
/// leaves memory unchanged (a mask of 0 and-ed in, say) into a jump around the store; when the
/// data goes either way about half the time, that jump mispredicts at every other call.
template <class T>
[[gnu::always_inline]] inline T opaque(T x) {
  asm("" : "+r"(x));  // an empty instruction that claims to change x
  return x;
}

}  // namespace wormnet
