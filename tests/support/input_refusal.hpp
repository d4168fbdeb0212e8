// The InputError a call throws, for tests of refusals: its option, value and allowed text.
#pragma once

#include "wormnet/core/error.hpp"

namespace wormnet::test {

/// The InputError `f` throws; one with an empty option when it throws none.
template <class F>
InputError refusal(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  return InputError("", "", "");
}

}  // namespace wormnet::test
